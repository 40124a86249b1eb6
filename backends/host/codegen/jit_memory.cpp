#include "backends/host/codegen/jit_memory.h"

#include <llvm/ExecutionEngine/JITLink/JITLink.h>
#include <llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h>
#include <llvm/Support/Process.h>

namespace cucl::backend::host {
namespace {

// The action's argument is unused: LLVM 15 serialises an empty argument list through
// &buffer[0] of an empty buffer, which its own assertions reject.
llvm::orc::shared::CWrapperFunctionResult nothing_to_undo(const char* arguments, size_t size) {
  using Signature = llvm::orc::shared::SPSError(uint64_t);
  return llvm::orc::shared::WrapperFunction<Signature>::handle(arguments, size, [](uint64_t) {
           return llvm::Error::success();
         }).release();
}

// LLVM 15's InProcessMemoryManager::deallocate unmaps an allocation's pages only while
// walking the allocations that have deallocation actions; one without any keeps its pages
// mapped for the life of the process. Every host program would then leave two mappings
// behind, until mmap fails at vm.max_map_count (about 24,000 programs). An action that does
// nothing puts each allocation on that walk. (LLVM 16 releases every allocation.)
class ReleasingMemoryManager final : public llvm::jitlink::InProcessMemoryManager {
 public:
  using InProcessMemoryManager::InProcessMemoryManager;

  void allocate(const llvm::jitlink::JITLinkDylib* library, llvm::jitlink::LinkGraph& graph,
                OnAllocatedFunction on_allocated) override {
    auto release_marker = llvm::orc::shared::WrapperFunctionCall::Create<llvm::orc::shared::SPSArgList<uint64_t>>(
        llvm::orc::ExecutorAddr::fromPtr(&nothing_to_undo), uint64_t{0});
    if (!release_marker) {
      on_allocated(release_marker.takeError());
      return;
    }
    graph.allocActions().push_back({llvm::orc::shared::WrapperFunctionCall(), std::move(*release_marker)});
    InProcessMemoryManager::allocate(library, graph, std::move(on_allocated));
  }
};

}  // namespace

std::unique_ptr<llvm::jitlink::JITLinkMemoryManager> make_jit_memory_manager(std::string& error) {
  auto page_size = llvm::sys::Process::getPageSize();
  if (!page_size) {
    error = llvm::toString(page_size.takeError());
    return nullptr;
  }
  return std::make_unique<ReleasingMemoryManager>(*page_size);
}

}  // namespace cucl::backend::host

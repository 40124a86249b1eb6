#include "backends/host/codegen/host_jit.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/Support/MemoryBuffer.h>

#include <map>
#include <mutex>
#include <string>

#include "backends/host/codegen/host_codegen.h"
#include "backends/host/codegen/jit_memory.h"
#include "backends/host/codegen/target_machine.h"
#include "backends/host/host_kernel.h"
#include "backends/host/native_code.h"
#include "backends/host/work_group_abi.h"

extern "C" void cucl_host_barrier(const cucl::backend::host::WorkGroupContext* context);

namespace cucl::backend::host {
namespace {

class HostProgram final : public LoadedProgram {
 public:
  explicit HostProgram(std::unique_ptr<llvm::orc::LLJIT> jit)
      : jit_(std::move(jit)), printf_sites_(std::make_shared<const std::vector<PrintfCallSite>>(read_printf_table())) {}

  const KernelCode* kernel(std::string_view name) const override {
    std::lock_guard lock(mutex_);
    const std::string key(name);
    if (auto found = kernels_.find(key); found != kernels_.end()) return found->second.get();
    auto info = jit_->lookup(key + kInfoSuffix);
    if (!info) {
      llvm::consumeError(info.takeError());
      return nullptr;
    }
    const KernelInfoRecord record = *info->toPtr<const KernelInfoRecord*>();
    WorkGroupFunction work_group = nullptr;
    WorkItemFunction work_item = nullptr;
    if (record.has_barriers) {
      work_item = entry_point<WorkItemFunction>(key + kWorkItemSuffix);
      if (!work_item) return nullptr;
    } else {
      work_group = entry_point<WorkGroupFunction>(key + kWorkGroupSuffix);
      if (!work_group) return nullptr;
    }
    auto& slot = kernels_[key];
    slot = std::make_unique<HostKernel>(work_group, work_item, record, printf_sites_);
    return slot.get();
  }

 private:
  std::vector<PrintfCallSite> read_printf_table() const {
    const char* table = entry_point<const char*>(kPrintfTable);
    const uint64_t* size = entry_point<const uint64_t*>(kPrintfTableSize);
    if (!table || !size) return {};
    return decode_printf_table(std::string_view(table, *size));
  }

  template <class Function>
  Function entry_point(const std::string& symbol) const {
    auto address = jit_->lookup(symbol);
    if (!address) {
      llvm::consumeError(address.takeError());
      return nullptr;
    }
    return address->toPtr<Function>();
  }

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::shared_ptr<const std::vector<PrintfCallSite>> printf_sites_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::unique_ptr<HostKernel>> kernels_;
};

// What generated code may call outside itself: the fiber scheduler, SLEEF and libm.
bool add_runtime_symbols(llvm::orc::LLJIT& jit, std::string& error) {
  llvm::orc::JITDylib& library = jit.getMainJITDylib();
  llvm::orc::SymbolMap runtime;
  runtime[jit.mangleAndIntern(kBarrierFunction)] = llvm::JITEvaluatedSymbol(
      llvm::pointerToJITTargetAddress(&cucl_host_barrier), llvm::JITSymbolFlags::Exported);
  if (llvm::Error failure = library.define(llvm::orc::absoluteSymbols(std::move(runtime)))) {
    error = llvm::toString(std::move(failure));
    return false;
  }
  const char prefix = jit.getDataLayout().getGlobalPrefix();
  auto sleef = llvm::orc::DynamicLibrarySearchGenerator::Load("libsleef.so.3", prefix);
  if (!sleef) {
    error = "cannot load SLEEF (libsleef.so.3): " + llvm::toString(sleef.takeError());
    return false;
  }
  library.addGenerator(std::move(*sleef));
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process) {
    error = llvm::toString(process.takeError());
    return false;
  }
  library.addGenerator(std::move(*process));
  return true;
}

}  // namespace

std::unique_ptr<LoadedProgram> load_host_program(std::string_view native, std::string& error) {
  std::optional<std::string_view> object = unwrap_native_code(native, host_code_target());
  if (!object) {
    error = "the code was not made for this processor";
    return nullptr;
  }
  const HostTarget& target = host_target();
  llvm::orc::JITTargetMachineBuilder machine{llvm::Triple(target.triple)};
  machine.setCPU(target.cpu);
  // JITLink places all of an object's sections in one allocation, so the small code
  // model's 32-bit PC-relative references to data always reach (RuntimeDyld maps code and
  // data separately, which can put them more than 2 GiB apart in a busy process).
  std::unique_ptr<llvm::jitlink::JITLinkMemoryManager> memory = make_jit_memory_manager(error);
  if (!memory) return nullptr;
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(machine))
                 .setObjectLinkingLayerCreator(
                     [&memory](llvm::orc::ExecutionSession& session, const llvm::Triple&)
                         -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                       return std::make_unique<llvm::orc::ObjectLinkingLayer>(session, std::move(memory));
                     })
                 .create();
  if (!jit) {
    error = llvm::toString(jit.takeError());
    return nullptr;
  }
  if (!add_runtime_symbols(**jit, error)) return nullptr;
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object->data(), object->size()), "kernels");
  if (llvm::Error failure = (*jit)->addObjectFile(std::move(buffer))) {
    error = llvm::toString(std::move(failure));
    return nullptr;
  }
  return std::make_unique<HostProgram>(std::move(*jit));
}

}  // namespace cucl::backend::host

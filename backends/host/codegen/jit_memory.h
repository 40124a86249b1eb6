// The JITLink memory manager of host programs: LLVM's in-process manager, made to give a
// program's code and data pages back to the system when the program is released.
#pragma once

#include <llvm/ExecutionEngine/JITLink/JITLinkMemoryManager.h>

#include <memory>
#include <string>

namespace cucl::backend::host {

// Null, with the reason in `error`, when the system's page size cannot be read.
std::unique_ptr<llvm::jitlink::JITLinkMemoryManager> make_jit_memory_manager(std::string& error);

}  // namespace cucl::backend::host

// Kernel-scope __local variables are module globals in address space 3. Every work-group
// running at once needs its own copy, so each use in a work-item entry point becomes an
// address in the group's __local arena (WorkGroupContext::local_memory).
#pragma once

#include <cstdint>

namespace llvm {
class Function;
class StructType;
}  // namespace llvm

namespace cucl::backend::host {

// Returns the bytes of the arena the variables take (the __local arguments follow them).
uint64_t lower_local_variables(llvm::Function& work_item, llvm::StructType* context_type);

}  // namespace cucl::backend::host

// The __local memory the builtin libraries' work-group collective functions exchange values
// through. The libraries call `cucl_work_group_scratch()` (OpenCL C cannot declare __local
// memory outside a kernel); each code generator replaces those calls with the address of
// one module-level __local array, which then becomes memory of every work-group like any
// kernel-scope __local variable.
#pragma once

#include <cstdint>

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace cucl::backend {

inline constexpr const char* kWorkGroupScratchFunction = "cucl_work_group_scratch";

// Gives the module's calls one __local array of `bytes` (16-byte aligned); nothing when
// no code calls it.
void provide_work_group_scratch(llvm::Module& module, uint64_t bytes);

// Whether `function` uses the scratch (calls a collective function, inlined), after
// provide_work_group_scratch.
bool uses_work_group_scratch(const llvm::Function& function);

}  // namespace cucl::backend

// Steps every code generator takes on a program's LLVM module: reading bitcode, linking
// a builtin library, preparing kernels for full inlining, checks, optimisation and
// machine-code emission.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/CodeGen.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
class Module;
class TargetMachine;
}  // namespace llvm

namespace cucl::backend {

// Null, with the reason added to `log`, when the bitcode is unreadable.
std::unique_ptr<llvm::Module> read_bitcode(std::string_view bitcode, llvm::LLVMContext& context, std::string& log);

// Links what the module uses from `library` (bitcode), made for the module's target.
bool link_builtin_library(llvm::Module& module, std::string_view library, std::string& log);

// An error naming a function that calls itself (OpenCL C forbids recursion), or empty.
std::string find_recursion(llvm::Module& module);

// The module's kernels (the SPIR_KERNEL calling convention). Every other definition
// becomes internal, every definition always-inline, and every function and call uses
// the C calling convention, so that the always-inliner dissolves everything into the
// entry points a code generator builds around the kernels.
std::vector<llvm::Function*> prepare_kernels_for_inlining(llvm::Module& module);
void make_inlinable(llvm::Function& function);
void run_always_inliner(llvm::Module& module);

// An error line for each function the module calls but nobody defines, except the ones
// `provided` accepts (intrinsics are always accepted).
std::string undefined_functions(const llvm::Module& module, llvm::function_ref<bool(llvm::StringRef)> provided);

// Empty for valid IR, else an internal-compiler-error text for the build log.
std::string verify_module(const llvm::Module& module);

// LLVM's function simplification (O2's: SROA, instcombine, CFG simplification, loop
// clean-up, full unrolling of constant loops) on one function, before a code generator
// reshapes it.
void simplify_function(llvm::Function& function);
// The same, with `prepare` run on the function first, once SROA has made its private
// variables SSA values and before anything reshapes its arithmetic.
void simplify_function(llvm::Function& function, llvm::function_ref<void(llvm::Function&)> prepare);

// The O3 pipeline (vectorisers included) when `full`, else O0. With `prepare`, a full
// optimisation first runs SROA and then `prepare` on every function with a body, before
// anything reshapes its arithmetic (as simplify_function does).
void optimize_module(llvm::Module& module, llvm::TargetMachine& machine, bool full,
                     llvm::function_ref<void(llvm::Function&)> prepare = nullptr);

// An object file or assembly text; empty when the target cannot emit it.
std::string emit_machine_code(llvm::Module& module, llvm::TargetMachine& machine, llvm::CodeGenFileType type);

}  // namespace cucl::backend

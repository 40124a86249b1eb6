#include "backends/host/codegen/host_codegen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "backends/codegen/module_tools.h"
#include "backends/codegen/constant_samplers.h"
#include "backends/codegen/work_group_scratch.h"
#include "base/settings.h"
#include "backends/host/codegen/call_abi_matching.h"
#include "backends/host/codegen/non_trapping_division.h"
#include "backends/host/codegen/target_machine.h"
#include "backends/host/codegen/work_group_lowering.h"
#include "backends/host/native_code.h"
#include "libclc-builtins/builtins.h"

namespace cucl::backend::host {
namespace {

// What generated code may call besides what it defines: SLEEF and the host runtime.
bool provided_by_host(llvm::StringRef name) { return name.startswith("Sleef_") || name.startswith("cucl_host_"); }

// SLEEF's functions touch no memory the program sees (no errno): said so, their calls are
// arithmetic to the optimiser and the vectoriser, which calls their vector forms.
void mark_math_library_pure(llvm::Module& module) {
  for (llvm::Function& function : module) {
    if (!function.isDeclaration() || !function.getName().startswith("Sleef_")) continue;
    function.setDoesNotAccessMemory();
    function.setDoesNotThrow();
    function.setWillReturn();
  }
}

// libclc-builtins/src/work_group_host.cl: a sequence number and two accumulators.
constexpr uint64_t kWorkGroupScratchBytes = 3 * 8;

}  // namespace

std::string host_code_target() {
  const HostTarget& target = host_target();
  return target.triple + "/" + target.cpu + "/" + target.features;
}

CodegenResult generate_host_code(std::string_view bitcode, const CodegenOptions& options) {
  CodegenResult result;
  llvm::LLVMContext context;
  context.setOpaquePointers(true);  // typed-pointer bitcode (from the SPIR-V translator) is upgraded
  std::unique_ptr<llvm::Module> module = read_bitcode(bitcode, context, result.log);
  if (!module) return result;
  std::unique_ptr<llvm::TargetMachine> machine = create_host_target_machine(options.optimize);
  // Code from SPIR-V arrives for spir64; the address-space numbering is the same.
  module->setTargetTriple(machine->getTargetTriple().str());
  module->setDataLayout(machine->createDataLayout());
  if (!link_builtin_library(*module, builtins::host_bitcode(), result.log)) return result;
  target_this_cpu(*module);
  mark_math_library_pure(*module);
  provide_work_group_scratch(*module, kWorkGroupScratchBytes);
  lower_constant_samplers(*module);
  if (std::string mismatch = match_call_abis(*module); !mismatch.empty()) {
    result.log += mismatch;
    return result;
  }
  guard_integer_division(*module);
  const bool vectorize = options.optimize && settings::enabled(settings::Name::CUCL_HOST_VECTORIZE);
  if (std::string error = lower_work_groups(*module, vectorize); !error.empty()) {
    result.log += error;
    return result;
  }
  if (std::string undefined = undefined_functions(*module, provided_by_host); !undefined.empty()) {
    result.log += undefined;
    return result;
  }
  if (std::string invalid = verify_module(*module); !invalid.empty()) {
    result.log += invalid;
    return result;
  }
  optimize_module(*module, *machine, options.optimize);
  if (std::string too_large = record_private_memory(*module); !too_large.empty()) {
    result.log += too_large;
    return result;
  }
  if (settings::enabled(settings::Name::CUCL_DUMP_HOST_IR)) module->print(llvm::errs(), nullptr);
  std::string object = emit_machine_code(*module, *machine, llvm::CGFT_ObjectFile);
  if (object.empty()) {
    result.log += "error: the host code generator failed\n";
    return result;
  }
  result.native = wrap_native_code(host_code_target(), object);
  result.ok = true;
  return result;
}

}  // namespace cucl::backend::host

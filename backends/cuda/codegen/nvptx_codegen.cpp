#include "backends/cuda/codegen/nvptx_codegen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "backends/codegen/module_tools.h"
#include "backends/codegen/constant_samplers.h"
#include "backends/codegen/index_widening.h"
#include "backends/codegen/work_group_scratch.h"
#include "backends/cuda/codegen/address_space_remap.h"
#include "backends/cuda/codegen/converged_lanes.h"
#include "backends/cuda/codegen/divide_sqrt.h"
#include "backends/cuda/codegen/funnel_shifts.h"
#include "backends/cuda/codegen/half_extending_loads.h"
#include "backends/cuda/codegen/kernel_entries.h"
#include "backends/cuda/codegen/loop_latches.h"
#include "backends/cuda/kernel_abi.h"
#include "backends/cuda/nvptx_program.h"
#include "base/settings.h"
#include "libclc-builtins/builtins.h"

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace cucl::backend::cuda {
namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";
// The newest of each that LLVM 15's NVPTX back end knows.
constexpr unsigned kNewestSm = 86, kNewestPtx = 75;

// libclc-builtins/src/work_group_nvptx.cl: one 8-byte value per warp of the largest block.
constexpr uint64_t kWorkGroupScratchBytes = 32 * 8;

std::unique_ptr<llvm::TargetMachine> create_nvptx_target_machine(const NvptxTarget& target, bool optimize) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  std::string error;
  const llvm::Target* llvm_target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!llvm_target) return nullptr;
  llvm::TargetOptions options;
  return std::unique_ptr<llvm::TargetMachine>(llvm_target->createTargetMachine(
      kTriple, "sm_" + std::to_string(target.sm), "+ptx" + std::to_string(target.ptx), options, llvm::None,
      llvm::None, optimize ? llvm::CodeGenOpt::Aggressive : llvm::CodeGenOpt::None));
}

// Only the libdevice reflection hook may stay undefined: the NVVMReflect pass replaces it.
bool provided_to_nvptx(llvm::StringRef name) { return name == "__nvvm_reflect"; }

}  // namespace

NvptxTarget nvptx_target_for(int major, int minor) {
  const unsigned sm = static_cast<unsigned>(major * 10 + minor);
  return {std::min(sm, kNewestSm), kNewestPtx};
}

std::string nvptx_code_target(const NvptxTarget& target) {
  return std::string(kTriple) + "/sm_" + std::to_string(target.sm) + "/ptx" + std::to_string(target.ptx) + "/abi" +
         std::to_string(kLaunchAbiVersion);
}

CodegenResult generate_nvptx_code(std::string_view bitcode, const CodegenOptions& options, const NvptxTarget& target) {
  CodegenResult result;
  if (builtins::nvptx_bitcode().empty()) {
    result.log += "error: this build of cucl has no builtin library for NVIDIA GPUs\n";
    return result;
  }
  std::unique_ptr<llvm::TargetMachine> machine = create_nvptx_target_machine(target, options.optimize);
  if (!machine) {
    result.log += "error: LLVM has no NVPTX back end\n";
    return result;
  }
  llvm::LLVMContext context;
  context.setOpaquePointers(true);  // typed-pointer bitcode (from the SPIR-V translator) is upgraded
  std::unique_ptr<llvm::Module> module = read_bitcode(bitcode, context, result.log);
  if (!module) return result;
  // SPIR-V arrives for spir64; the front end's nvptx64 code has the same address spaces.
  module->setTargetTriple(kTriple);
  module->setDataLayout(machine->createDataLayout());
  if (llvm::NamedMDNode* annotations = module->getNamedMetadata("nvvm.annotations")) {
    module->eraseNamedMetadata(annotations);  // the entries get their own
  }
  if (!options.correctly_rounded_divide_sqrt) use_fast_fp32_divide_and_sqrt(*module, options.denorms_are_zero);
  if (!link_builtin_library(*module, builtins::nvptx_bitcode(), result.log)) return result;
  provide_work_group_scratch(*module, kWorkGroupScratchBytes);
  lower_constant_samplers(*module);
  keep_converged_lane_reads_in_place(*module);
  remap_address_spaces_for_nvptx(*module);
  NvptxProgram program;
  if (std::string error = build_kernel_entries(*module, program); !error.empty()) {
    result.log += error;
    return result;
  }
  if (std::string undefined = undefined_functions(*module, provided_to_nvptx); !undefined.empty()) {
    result.log += undefined;
    return result;
  }
  module->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", options.denorms_are_zero ? 1 : 0);
  if (std::string invalid = verify_module(*module); !invalid.empty()) {
    result.log += invalid;
    return result;
  }
  // Only the additions: 64-bit multiplies cost a GPU several instructions.
  optimize_module(*module, *machine, options.optimize,
                  [](llvm::Function& f) { widen_signed_index_arithmetic(f, IndexWidening{.multiplications = false}); });
  legalize_address_space_casts(*module);
  take_back_edges_on_true(*module);
  emit_variable_funnel_shifts_as_shf(*module);
  keep_half_vector_loads_apart_from_fpext(*module);
  if (settings::enabled(settings::Name::CUCL_DUMP_NVPTX_IR)) module->print(llvm::errs(), nullptr);
  program.ptx = emit_machine_code(*module, *machine, llvm::CGFT_AssemblyFile);
  if (program.ptx.empty()) {
    result.log += "error: the NVPTX code generator failed\n";
    return result;
  }
  result.native = encode_nvptx_program(nvptx_code_target(target), program);
  result.ok = true;
  return result;
}

}  // namespace cucl::backend::cuda

#include "backends/host/codegen/host_codegen.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "backends/host/codegen/target_machine.h"
#include "backends/host/codegen/work_group_lowering.h"
#include "backends/host/native_code.h"
#include "libclc-builtins/builtins.h"

namespace cucl::backend::host {
namespace {

std::unique_ptr<llvm::Module> read_module(std::string_view bitcode, llvm::LLVMContext& context, std::string& log) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(bitcode.data(), bitcode.size()), "program", false);
  auto module = llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (!module) {
    log += "error: unreadable LLVM bitcode: " + llvm::toString(module.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*module);
}

bool link_builtins(llvm::Module& module, std::string& log) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(
      llvm::StringRef(builtins::host_bitcode().data(), builtins::host_bitcode().size()), "builtins", false);
  auto library = llvm::getOwningLazyBitcodeModule(std::move(buffer), module.getContext());
  if (!library) {
    log += "error: the builtin library is damaged: " + llvm::toString(library.takeError()) + "\n";
    return false;
  }
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::LinkOnlyNeeded)) {
    log += "error: linking the builtin library failed\n";
    return false;
  }
  return true;
}

// What generated code may call: LLVM intrinsics, SLEEF and the host runtime. Any other
// declaration is a function the program uses but no program or library defines.
std::string undefined_functions(const llvm::Module& module) {
  std::string log;
  for (const llvm::Function& function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || function.use_empty()) continue;
    const llvm::StringRef name = function.getName();
    if (name.startswith("Sleef_") || name.startswith("cucl_host_")) continue;
    log += "error: function '" + llvm::demangle(name.str()) + "' is used but not defined\n";
  }
  return log;
}

void optimize(llvm::Module& module, llvm::TargetMachine& machine, bool full) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = full;
  tuning.SLPVectorization = full;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::ModulePassManager passes =
      full ? builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3) : builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
  passes.run(module, modules);
}

std::string emit_object(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr, llvm::CGFT_ObjectFile)) return {};
  passes.run(module);
  return std::string(object.data(), object.size());
}

}  // namespace

std::string host_code_target() {
  const HostTarget& target = host_target();
  return target.triple + "/" + target.cpu + "/" + target.features;
}

CodegenResult generate_host_code(std::string_view bitcode, const CodegenOptions& options) {
  CodegenResult result;
  llvm::LLVMContext context;
  context.setOpaquePointers(true);  // typed-pointer bitcode (from the SPIR-V translator) is upgraded
  std::unique_ptr<llvm::Module> module = read_module(bitcode, context, result.log);
  if (!module) return result;
  std::unique_ptr<llvm::TargetMachine> machine = create_host_target_machine(options.optimize);
  // Code from SPIR-V arrives for spir64; the address-space numbering is the same.
  module->setTargetTriple(machine->getTargetTriple().str());
  module->setDataLayout(machine->createDataLayout());
  if (!link_builtins(*module, result.log)) return result;
  if (std::string error = lower_work_groups(*module); !error.empty()) {
    result.log += error;
    return result;
  }
  if (std::string undefined = undefined_functions(*module); !undefined.empty()) {
    result.log += undefined;
    return result;
  }
  std::string problems;
  llvm::raw_string_ostream verifier_log(problems);
  if (llvm::verifyModule(*module, &verifier_log)) {
    result.log += "error: internal compiler error (invalid IR):\n" + verifier_log.str();
    return result;
  }
  optimize(*module, *machine, options.optimize);
  record_private_memory(*module);
  if (getenv("CUCL_DUMP_HOST_IR")) module->print(llvm::errs(), nullptr);
  std::string object = emit_object(*module, *machine);
  if (object.empty()) {
    result.log += "error: the host code generator failed\n";
    return result;
  }
  result.native = wrap_native_code(host_code_target(), object);
  result.ok = true;
  return result;
}

}  // namespace cucl::backend::host

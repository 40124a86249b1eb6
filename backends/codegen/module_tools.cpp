#include "backends/codegen/module_tools.h"

#include <llvm/ADT/SCCIterator.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/Scalar/InferAddressSpaces.h>
#include <llvm/Transforms/Scalar/SROA.h>

#include "backends/codegen/linear_switch_arms.h"
#include "backends/codegen/private_volatiles.h"

namespace cucl::backend {
namespace {

struct AnalysisManagers {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;

  explicit AnalysisManagers(llvm::PassBuilder& builder) {
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(cgscc);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, cgscc, modules);
  }
};

// SROA makes the function's private variables SSA values; `prepare` then sees its arithmetic
// before anything reshapes it. The function's analyses are dropped afterwards.
void promote_then_prepare(llvm::Function& function, AnalysisManagers& managers,
                          llvm::function_ref<void(llvm::Function&)> prepare) {
  llvm::FunctionPassManager promotion;
  promotion.addPass(llvm::SROAPass());
  promotion.run(function, managers.functions);
  prepare(function);
  managers.functions.invalidate(function, llvm::PreservedAnalyses::none());
}

}  // namespace

std::unique_ptr<llvm::Module> read_bitcode(std::string_view bitcode, llvm::LLVMContext& context, std::string& log) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(bitcode.data(), bitcode.size()), "program", false);
  auto module = llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (!module) {
    log += "error: unreadable LLVM bitcode: " + llvm::toString(module.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*module);
}

bool link_builtin_library(llvm::Module& module, std::string_view library, std::string& log) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(library.data(), library.size()), "builtins", false);
  auto builtins = llvm::getOwningLazyBitcodeModule(std::move(buffer), module.getContext());
  if (!builtins) {
    log += "error: the builtin library is damaged: " + llvm::toString(builtins.takeError()) + "\n";
    return false;
  }
  (*builtins)->setTargetTriple(module.getTargetTriple());
  (*builtins)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*builtins), llvm::Linker::LinkOnlyNeeded)) {
    log += "error: linking the builtin library failed\n";
    return false;
  }
  return true;
}

std::string find_recursion(llvm::Module& module) {
  llvm::CallGraph graph(module);
  for (auto scc = llvm::scc_begin(&graph); !scc.isAtEnd(); ++scc) {
    if (!scc.hasCycle()) continue;
    for (llvm::CallGraphNode* node : *scc) {
      if (llvm::Function* function = node->getFunction()) {
        return "error: recursion is not supported by OpenCL C: function '" + function->getName().str() +
               "' calls itself, directly or through other functions\n";
      }
    }
  }
  return {};
}

void make_inlinable(llvm::Function& function) {
  function.removeFnAttr(llvm::Attribute::NoInline);
  function.removeFnAttr(llvm::Attribute::OptimizeNone);
  function.addFnAttr(llvm::Attribute::AlwaysInline);
  function.setCallingConv(llvm::CallingConv::C);
}

std::vector<llvm::Function*> prepare_kernels_for_inlining(llvm::Module& module) {
  std::vector<llvm::Function*> kernels;
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    const bool kernel = function.getCallingConv() == llvm::CallingConv::SPIR_KERNEL;
    if (kernel) kernels.push_back(&function);
    if (function.getLinkage() != llvm::GlobalValue::ExternalLinkage || !kernel) {
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
    make_inlinable(function);
  }
  for (llvm::Function& function : module) {
    for (llvm::BasicBlock& block : function) {
      for (llvm::Instruction& instruction : block) {
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
          call->setCallingConv(llvm::CallingConv::C);
          call->removeFnAttr(llvm::Attribute::NoInline);  // SPIR-V DontInline marks the call too
        }
      }
    }
    if (function.isDeclaration()) function.setCallingConv(llvm::CallingConv::C);
  }
  return kernels;
}

void run_always_inliner(llvm::Module& module) {
  llvm::PassBuilder builder;
  AnalysisManagers managers(builder);
  llvm::ModulePassManager passes;
  passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/true));
  passes.addPass(llvm::GlobalDCEPass());
  passes.run(module, managers.modules);
}

std::string undefined_functions(const llvm::Module& module, llvm::function_ref<bool(llvm::StringRef)> provided) {
  std::string log;
  for (const llvm::Function& function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || function.use_empty()) continue;
    if (provided(function.getName())) continue;
    log += "error: function '" + llvm::demangle(function.getName().str()) + "' is used but not defined\n";
  }
  return log;
}

std::string verify_module(const llvm::Module& module) {
  std::string problems;
  llvm::raw_string_ostream verifier_log(problems);
  if (!llvm::verifyModule(module, &verifier_log)) return {};
  return "error: internal compiler error (invalid IR):\n" + verifier_log.str();
}

void simplify_function(llvm::Function& function) { simplify_function(function, nullptr); }

void simplify_function(llvm::Function& function, llvm::function_ref<void(llvm::Function&)> prepare) {
  llvm::PassBuilder builder;
  AnalysisManagers managers(builder);
  if (prepare) promote_then_prepare(function, managers, prepare);
  llvm::FunctionPassManager passes =
      builder.buildFunctionSimplificationPipeline(llvm::OptimizationLevel::O2, llvm::ThinOrFullLTOPhase::None);
  passes.run(function, managers.functions);
}

void optimize_module(llvm::Module& module, llvm::TargetMachine& machine, bool full,
                     llvm::function_ref<void(llvm::Function&)> prepare) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = full;
  tuning.SLPVectorization = full;
  llvm::PassBuilder builder(&machine, tuning);
  if (full) {
    drop_volatile_from_private_variables(module);
    builder.registerPeepholeEPCallback([](llvm::FunctionPassManager& passes, llvm::OptimizationLevel) {
      passes.addPass(LinearSwitchArmsPass());
    });
    // On a target with a generic address space (nvptx), accesses through generic pointers
    // that provably point into one space (a builtin's atomic on a global pointer) use that
    // space's instructions; a no-op elsewhere. LLVM's NVPTX code generator runs this pass
    // itself, too late here: the casts are NVVM intrinsics by then (address_space_remap.cpp).
    builder.registerScalarOptimizerLateEPCallback([](llvm::FunctionPassManager& passes, llvm::OptimizationLevel) {
      passes.addPass(llvm::InferAddressSpacesPass());
    });
  }
  AnalysisManagers managers(builder);
  if (full && prepare) {
    for (llvm::Function& function : module) {
      if (!function.isDeclaration()) promote_then_prepare(function, managers, prepare);
    }
  }
  llvm::ModulePassManager passes = full ? builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
                                        : builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
  passes.run(module, managers.modules);
}

std::string emit_machine_code(llvm::Module& module, llvm::TargetMachine& machine, llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> code;
  llvm::raw_svector_ostream stream(code);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr, type)) return {};
  passes.run(module);
  return std::string(code.data(), code.size());
}

}  // namespace cucl::backend

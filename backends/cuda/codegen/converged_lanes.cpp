#include "backends/cuda/codegen/converged_lanes.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace cucl::backend::cuda {

void keep_converged_lane_reads_in_place(llvm::Module& module) {
  for (llvm::Function& function : module) {
    for (llvm::BasicBlock& block : function) {
      for (llvm::Instruction& instruction : block) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
        if (!call || !call->isInlineAsm()) continue;
        auto* assembly = llvm::cast<llvm::InlineAsm>(call->getCalledOperand());
        if (llvm::StringRef(assembly->getAsmString()).contains("activemask")) {
          call->addFnAttr(llvm::Attribute::NoMerge);
        }
      }
    }
  }
}

}  // namespace cucl::backend::cuda

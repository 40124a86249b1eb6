#include "backends/cuda/codegen/funnel_shifts.h"

#include <vector>

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace cucl::backend::cuda {

void emit_variable_funnel_shifts_as_shf(llvm::Module& module) {
  std::vector<llvm::IntrinsicInst*> shifts;
  for (llvm::Function& function : module) {
    for (llvm::BasicBlock& block : function) {
      for (llvm::Instruction& instruction : block) {
        auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
        if (!intrinsic || !intrinsic->getType()->isIntegerTy(32)) continue;
        const llvm::Intrinsic::ID id = intrinsic->getIntrinsicID();
        if ((id == llvm::Intrinsic::fshl || id == llvm::Intrinsic::fshr) &&
            !llvm::isa<llvm::Constant>(intrinsic->getArgOperand(2))) {
          shifts.push_back(intrinsic);
        }
      }
    }
  }
  for (llvm::IntrinsicInst* shift : shifts) {
    llvm::Type* word = shift->getType();
    auto* type = llvm::FunctionType::get(word, {word, word, word}, false);
    // fshl(high, low, n) and fshr(high, low, n) shift high:low; shf takes the low word first.
    const char* text = shift->getIntrinsicID() == llvm::Intrinsic::fshl ? "shf.l.wrap.b32 $0, $1, $2, $3;"
                                                                        : "shf.r.wrap.b32 $0, $1, $2, $3;";
    llvm::InlineAsm* shf = llvm::InlineAsm::get(type, text, "=r,r,r,r", /*hasSideEffects=*/false);
    auto* call = llvm::CallInst::Create(type, shf, {shift->getArgOperand(1), shift->getArgOperand(0), shift->getArgOperand(2)},
                                       "", shift);
    call->takeName(shift);
    shift->replaceAllUsesWith(call);
    shift->eraseFromParent();
  }
}

}  // namespace cucl::backend::cuda

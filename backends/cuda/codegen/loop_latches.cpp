#include "backends/cuda/codegen/loop_latches.h"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace cucl::backend::cuda {
namespace {

// `branch` jumps to `header` when its condition is false and `header` dominates it: a back edge.
bool back_edge_on_false(const llvm::BranchInst& branch, const llvm::DominatorTree& dominators) {
  const llvm::BasicBlock* on_true = branch.getSuccessor(0);
  const llvm::BasicBlock* on_false = branch.getSuccessor(1);
  return on_true != on_false && dominators.dominates(on_false, branch.getParent()) &&
         !dominators.dominates(on_true, branch.getParent());
}

void invert(llvm::BranchInst& branch) {
  llvm::Value* condition = branch.getCondition();
  auto* compare = llvm::dyn_cast<llvm::CmpInst>(condition);
  if (compare && compare->hasOneUse()) {
    compare->setPredicate(compare->getInversePredicate());  // exact for fcmp too (ordered <-> unordered)
  } else {
    branch.setCondition(llvm::BinaryOperator::CreateNot(condition, condition->getName() + ".not", &branch));
  }
  branch.swapSuccessors();  // and their branch weights
}

}  // namespace

void take_back_edges_on_true(llvm::Module& module) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    const llvm::DominatorTree dominators(function);
    for (llvm::BasicBlock& block : function) {
      auto* branch = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
      if (branch && branch->isConditional() && back_edge_on_false(*branch, dominators)) invert(*branch);
    }
  }
}

}  // namespace cucl::backend::cuda

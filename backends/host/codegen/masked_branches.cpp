#include "backends/host/codegen/masked_branches.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include "backends/host/codegen/work_item_divergence.h"

namespace cucl::backend::host {
namespace {

// What a block may do to run for lanes that do not take it: no side effects but masked
// stores, no memory read but masked loads (a load of one address for all lanes is kept, for
// the body runs only where some lane goes there, and that lane reads the same).
bool runs_under_a_mask(const llvm::BasicBlock& body, const WorkItemDivergence& divergence) {
  for (const llvm::Instruction& instruction : body) {
    if (llvm::isa<llvm::PHINode>(instruction) || WorkItemDivergence::per_lane(instruction)) return false;
    if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction); intrinsic && intrinsic->isAssumeLikeIntrinsic()) {
      continue;
    }
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      if (!load->isSimple()) return false;
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      if (!store->isSimple() || !divergence.varying(store->getPointerOperand())) return false;
    } else if (instruction.mayReadOrWriteMemory() || llvm::isa<llvm::AllocaInst>(instruction)) {
      return false;
    }
  }
  return true;
}

bool in_masked_loop(const llvm::BasicBlock* block, const std::vector<MaskedLoop>& masked) {
  return llvm::any_of(masked, [&](const MaskedLoop& loop) { return loop.loop->contains(block); });
}

}  // namespace

std::vector<MaskedBranch> find_masked_branches(llvm::Function& function, const WorkItemDivergence& divergence,
                                               const std::vector<MaskedLoop>& masked) {
  std::vector<MaskedBranch> found;
  for (const llvm::BasicBlock* divergent : divergence.divergent_branches()) {
    auto* head = const_cast<llvm::BasicBlock*>(divergent);
    auto* branch = llvm::dyn_cast<llvm::BranchInst>(head->getTerminator());
    if (!branch || !branch->isConditional() || in_masked_loop(head, masked)) continue;
    llvm::BasicBlock* ways[2] = {branch->getSuccessor(0), branch->getSuccessor(1)};
    if (ways[0] == ways[1] || ways[0] == head || ways[1] == head) continue;
    // The join: a way that the other goes on to (an if without else), or where both sides go.
    auto goes_on_to = [](llvm::BasicBlock* side) {
      return llvm::isa<llvm::BranchInst>(side->getTerminator()) ? side->getSingleSuccessor() : nullptr;
    };
    llvm::BasicBlock* join = nullptr;
    if (goes_on_to(ways[0]) == ways[1]) {
      join = ways[1];
    } else if (goes_on_to(ways[1]) == ways[0]) {
      join = ways[0];
    } else if (goes_on_to(ways[0]) && goes_on_to(ways[0]) == goes_on_to(ways[1])) {
      join = goes_on_to(ways[0]);
    }
    if (!join || join == head) continue;
    MaskedBranch masked{head, join, {}};
    bool qualifies = true;
    for (unsigned way = 0; way < 2; ++way) {
      if (ways[way] == join) continue;
      qualifies = qualifies && ways[way]->getSinglePredecessor() == head && runs_under_a_mask(*ways[way], divergence);
      masked.sides.push_back({ways[way], way == 0});
    }
    if (qualifies) found.push_back(masked);
  }
  return found;
}

llvm::DenseSet<const llvm::Value*> values_joining(const std::vector<MaskedBranch>& branches) {
  llvm::DenseSet<const llvm::Value*> values;
  for (const MaskedBranch& branch : branches) {
    for (const llvm::PHINode& phi : branch.join->phis()) values.insert(&phi);
  }
  return values;
}

}  // namespace cucl::backend::host

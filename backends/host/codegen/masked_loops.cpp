#include "backends/host/codegen/masked_loops.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <optional>

#include "backends/host/codegen/work_item_divergence.h"

namespace cucl::backend::host {
namespace {

// Nothing in the loop writes memory or must run once per work-item.
bool only_reads(const llvm::Loop& loop) {
  for (const llvm::BasicBlock* block : loop.blocks()) {
    for (const llvm::Instruction& instruction : *block) {
      if (llvm::isa<llvm::StoreInst>(instruction) || WorkItemDivergence::per_lane(instruction)) return false;
      if (instruction.mayWriteToMemory() && !llvm::isa<llvm::CallInst>(instruction)) return false;
    }
  }
  return true;
}

std::optional<MaskedLoop> qualify(const llvm::Loop& loop, const llvm::LoopInfo& loops, const WorkItemDivergence& divergence) {
  MaskedLoop masked;
  masked.loop = &loop;
  masked.exit = loop.getUniqueExitBlock();
  if (!masked.exit || !only_reads(loop)) return std::nullopt;
  for (llvm::BasicBlock* block : loop.blocks()) {
    const bool exiting = loop.isLoopExiting(block);
    if (exiting) {
      auto* branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
      if (!branch || !branch->isConditional()) return std::nullopt;
      masked.exiting.push_back(block);
    } else if (llvm::is_contained(divergence.divergent_branches(), block)) {
      return std::nullopt;  // lanes would part inside the loop, not only leave it
    }
    if (exiting && loops.getLoopFor(block) != &loop) return std::nullopt;  // an inner loop's exit leaves both
  }
  for (llvm::BasicBlock* predecessor : llvm::predecessors(loop.getHeader())) {
    if (!loop.contains(predecessor)) masked.entering.push_back(predecessor);
  }
  for (llvm::BasicBlock* block : loop.blocks()) {
    for (llvm::Instruction& instruction : *block) {
      const bool leaves = llvm::any_of(instruction.users(), [&](const llvm::User* user) {
        return !loop.contains(llvm::cast<llvm::Instruction>(user)->getParent());
      });
      if (leaves) masked.live_out.push_back(&instruction);
    }
  }
  return masked;
}

constexpr unsigned kMostFoldedInstructions = 8;

// An exit block `t` of `exiting`'s loop that computes a few values and goes on to another
// exit block: the branch can go there directly, the values computed before it.
bool foldable(llvm::BasicBlock& t, const llvm::LoopInfo& loops) {
  llvm::BasicBlock* exiting = t.getSinglePredecessor();
  llvm::BasicBlock* next = t.getSingleSuccessor();
  if (!exiting || !next || next == &t || t.size() > kMostFoldedInstructions + 1) return false;
  const llvm::Loop* loop = loops.getLoopFor(exiting);
  if (!loop || loop->contains(&t) || loop->contains(next)) return false;
  auto* branch = llvm::dyn_cast<llvm::BranchInst>(exiting->getTerminator());
  if (!branch || !branch->isConditional() || branch->getSuccessor(0) == next || branch->getSuccessor(1) == next) return false;
  for (const llvm::Instruction& instruction : t) {
    if (instruction.isTerminator() || llvm::isa<llvm::PHINode>(instruction)) continue;  // a phi of one way in
    if (!llvm::isSafeToSpeculativelyExecute(&instruction) || instruction.mayReadOrWriteMemory()) return false;
  }
  return true;
}

}  // namespace

bool fold_exit_trampolines(llvm::Function& function) {
  std::vector<llvm::BasicBlock*> folded;
  {
    const llvm::DominatorTree dominators(function);
    const llvm::LoopInfo loops(dominators);
    for (llvm::BasicBlock& block : function) {
      if (foldable(block, loops)) folded.push_back(&block);
    }
  }
  for (llvm::BasicBlock* t : folded) {
    llvm::BasicBlock* exiting = t->getSinglePredecessor();
    llvm::BasicBlock* next = t->getSingleSuccessor();
    llvm::FoldSingleEntryPHINodes(t);
    while (t->size() > 1) t->front().moveBefore(exiting->getTerminator());
    exiting->getTerminator()->replaceSuccessorWith(t, next);
    for (llvm::PHINode& phi : next->phis()) phi.replaceIncomingBlockWith(t, exiting);
    t->eraseFromParent();
  }
  return !folded.empty();
}

std::vector<MaskedLoop> find_masked_loops(const llvm::LoopInfo& loops, const WorkItemDivergence& divergence) {
  std::vector<MaskedLoop> masked;
  llvm::SmallPtrSet<const llvm::Loop*, 4> tried;
  for (const llvm::BasicBlock* block : divergence.divergent_branches()) {
    const llvm::Loop* loop = loops.getLoopFor(block);
    if (!loop || !loop->isLoopExiting(block) || !tried.insert(loop).second) continue;
    if (std::optional<MaskedLoop> qualified = qualify(*loop, loops, divergence)) masked.push_back(std::move(*qualified));
  }
  return masked;
}

llvm::DenseSet<const llvm::Value*> values_leaving(const std::vector<MaskedLoop>& masked) {
  llvm::DenseSet<const llvm::Value*> values;
  for (const MaskedLoop& loop : masked) {
    for (const llvm::Instruction* value : loop.live_out) values.insert(value);
    for (const llvm::PHINode& phi : loop.exit->phis()) values.insert(&phi);
  }
  return values;
}

}  // namespace cucl::backend::host

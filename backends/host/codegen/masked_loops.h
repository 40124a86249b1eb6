// Loops that the whole-function vectoriser (work_item_vectorizer.h) runs under a mask: loops
// that work-items leave at different iterations (a trip count or exit test that differs
// between them, as in a Mandelbrot set's escape loop). The vector form keeps iterating while
// any lane is still inside; lanes that have left are masked off (their loads are masked, the
// loop writes no memory) and the values they take out of the loop are kept from the
// iteration they left in. Without this, lanes that part would finish one at a time.
//
// A loop qualifies when every branch in it that differs between work-items is one of its own
// exits, its exits all go to one block, and it holds no store, atomic or call with side
// effects. Other divergent branches keep the vectoriser's fallback: lanes that
// part finish one by one (work_item_resume.h).
#pragma once

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>

#include <vector>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class Loop;
class LoopInfo;
class Value;
}  // namespace llvm

namespace cucl::backend::host {

class WorkItemDivergence;

struct MaskedLoop {
  const llvm::Loop* loop = nullptr;
  llvm::BasicBlock* exit = nullptr;                  // the one block its exits go to
  llvm::SmallVector<llvm::BasicBlock*, 4> exiting;   // its blocks that branch to `exit`
  llvm::SmallVector<llvm::BasicBlock*, 2> entering;  // blocks outside it that branch to its header
  // Values it computes that are used after it (each lane's from the iteration it left in).
  std::vector<llvm::Instruction*> live_out;
};

// Folds a loop's exit blocks that only compute a few values (speculatable, no memory) and
// go on to another exit block into the branches that leave for them, so that more loops have
// one exit block. LLVM leaves such blocks where an exit's value is computed apart (a counter
// truncated on one way out). Returns whether anything changed.
bool fold_exit_trampolines(llvm::Function& function);

// The loops of `function` that qualify, under `divergence`.
std::vector<MaskedLoop> find_masked_loops(const llvm::LoopInfo& loops, const WorkItemDivergence& divergence);

// What differs between work-items because they leave `masked` at different times: the
// values it takes out of its loops and the phis of their exit blocks.
llvm::DenseSet<const llvm::Value*> values_leaving(const std::vector<MaskedLoop>& masked);

}  // namespace cucl::backend::host

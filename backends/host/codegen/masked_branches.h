// Branches that the whole-function vectoriser (work_item_vectorizer.h) runs under a mask
// instead of letting lanes part: an `if` (with or without `else`) whose condition differs
// between work-items, as bounds checks are (`if (i < n) out[i] = ...`). The vector form runs
// each side for every lane when any lane goes there, with its loads and stores masked to the
// lanes that do, and the values that meet after it are chosen lane by lane.
//
// A branch qualifies when each of its ways is either the block where they meet (the join) or
// a block (a side) that only it reaches and that goes straight on to the join, and each side
// touches memory only through simple loads and through stores whose address differs between
// work-items (a store to one address would need the last lane that runs it). Atomics, calls
// with side effects, longer sides and branches inside masked loops keep the fallback: lanes
// that part finish one by one (work_item_resume.h).
#pragma once

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>

#include <vector>

#include "backends/host/codegen/masked_loops.h"

namespace llvm {
class BasicBlock;
class Function;
class Value;
}  // namespace llvm

namespace cucl::backend::host {

class WorkItemDivergence;

struct MaskedSide {
  llvm::BasicBlock* block = nullptr;  // runs for the lanes that go its way
  bool if_true = true;                // whether lanes go there where the condition holds
};

struct MaskedBranch {
  llvm::BasicBlock* head = nullptr;  // its branch differs between work-items
  llvm::BasicBlock* join = nullptr;  // where every lane goes on
  llvm::SmallVector<MaskedSide, 2> sides;  // one (an if without else: the other way is the join) or two
};

// The branches of `function` that qualify under `divergence`, outside the loops of `masked`.
std::vector<MaskedBranch> find_masked_branches(llvm::Function& function, const WorkItemDivergence& divergence,
                                               const std::vector<MaskedLoop>& masked);

// What differs between work-items because they took different ways at `branches`: the phis
// of their joins.
llvm::DenseSet<const llvm::Value*> values_joining(const std::vector<MaskedBranch>& branches);

}  // namespace cucl::backend::host

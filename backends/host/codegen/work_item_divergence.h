// Which values of a work-item function differ between neighbouring work-items of
// dimension 0, and how: the analysis behind the whole-function vectoriser
// (work_item_vectorizer.h). A value is uniform when every work-item of a row computes the
// same, varying otherwise; the local id x is the seed of everything varying.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Argument;
class BasicBlock;
class DataLayout;
class Function;
class Instruction;
class Value;
}  // namespace llvm

namespace cucl::backend::host {

// Adds to `values` every value computed from one of them (all users but those without a
// value of their own: stores, branches).
void spread_to_users(llvm::DenseSet<const llvm::Value*>& values);

// How a varying integer or pointer steps from one work-item (lane) to the next.
struct LaneStride {
  bool affine = false;  // lane l holds lane 0's value + step * l
  int64_t step = 0;     // in the value's units: bytes for pointers
  // False when narrower-than-64-bit arithmetic on the way may have wrapped between lanes,
  // so that the step holds only if a check at run time says so.
  bool proven = false;
};

class WorkItemDivergence {
 public:
  // `lane_index` is the work-item function's local-id-x parameter. `also_varying` are values
  // known to differ between work-items besides what flows from it (what leaves a loop that
  // work-items leave at different times: masked_loops.h).
  WorkItemDivergence(llvm::Function& work_item, const llvm::Argument& lane_index,
                     const llvm::DenseSet<const llvm::Value*>& also_varying = {});

  bool varying(const llvm::Value* value) const { return varying_.contains(value); }
  // Instructions that must run once per work-item, in lane order, whatever their operands:
  // atomics, volatile accesses and calls with side effects.
  static bool per_lane(const llvm::Instruction& instruction);
  LaneStride stride(const llvm::Value* value);
  // Empty when the function can be vectorised, else why not (for the debug log).
  const std::string& obstacle() const { return obstacle_; }
  // The blocks whose branch or switch depends on a varying value.
  const std::vector<const llvm::BasicBlock*>& divergent_branches() const { return divergent_branches_; }

 private:
  void find_obstacles(llvm::Function& work_item);
  LaneStride compute_stride(const llvm::Value* value);

  const llvm::Argument& lane_index_;
  const llvm::DataLayout& layout_;
  llvm::DenseSet<const llvm::Value*> varying_;
  llvm::DenseMap<const llvm::Value*, LaneStride> strides_;
  std::string obstacle_;
  std::vector<const llvm::BasicBlock*> divergent_branches_;
};

}  // namespace cucl::backend::host

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
class APInt;
class Argument;
class BasicBlock;
class DataLayout;
class Function;
class Instruction;
class PHINode;
class Type;
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
  // Lane 0's value is known to be a multiple of 2^aligned (of integers; 0 for pointers).
  unsigned aligned = 0;
  // All lanes' values agree in every bit from this one up (kAllBits: nothing known), also
  // where they are not affine: (x >> 2) & ~3 of ids x of one aligned block of 8.
  static constexpr unsigned kAllBits = 64;
  unsigned agree_from = kAllBits;
};

// The bytes a simple access of `type` through pointers of `stride` moves as one vector
// access (its store size when one lane's value follows the other's), else 0.
uint64_t consecutive_bytes(const llvm::DataLayout& layout, llvm::Type* type, const LaneStride& stride);

class WorkItemDivergence {
 public:
  // `lane_index` is the work-item function's local-id-x parameter. `also_varying` are values
  // known to differ between work-items besides what flows from it (what leaves a loop that
  // work-items leave at different times: masked_loops.h).
  WorkItemDivergence(llvm::Function& work_item, const llvm::Argument& lane_index,
                     const llvm::DenseSet<const llvm::Value*>& also_varying = {});

  // Strides are for vectors of `lanes` work-items, whose first is a multiple of `lanes` (the
  // row's vector forms run from x = 0 by their width): what the remainder or quotient of a
  // division of the local id by a multiple of `lanes` is turns on it. 1 until told.
  void set_lanes(unsigned lanes);
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
  LaneStride compute_operation_stride(const llvm::Instruction& instruction);
  LaneStride merged_stride(const llvm::PHINode& phi);
  LaneStride merged_incoming_stride(const llvm::PHINode& phi);
  void forget_since(size_t mark);  // the strides computed since computed_ had `mark` entries
  LaneStride divided(const llvm::Instruction& division, const LaneStride& dividend, uint64_t divisor);
  LaneStride masked(const llvm::Instruction& mask, const LaneStride& x, const llvm::APInt& bits);
  LaneStride shifted_right(const llvm::Instruction& shift, const LaneStride& x, unsigned bits);
  LaneStride uniform_stride(const llvm::Value* value) const;
  // Whether x's lanes, x0 + step * l for l < lanes_ exactly (proven), lie in one block of
  // 2^min(aligned, field_bits) numbers that starts at a multiple of its size: then no
  // multiple of that size, nor any wrap of a field at least that wide, falls between them.
  bool within_block(const LaneStride& x, unsigned field_bits) const;

  const llvm::Argument& lane_index_;
  const llvm::DataLayout& layout_;
  llvm::DenseSet<const llvm::Value*> seeds_;  // also_varying
  llvm::DenseSet<const llvm::Value*> varying_;
  unsigned lanes_ = 1;
  llvm::DenseMap<const llvm::Value*, LaneStride> strides_;
  std::vector<const llvm::Value*> computed_;  // strides_'s keys in the order computed
  std::string obstacle_;
  std::vector<const llvm::BasicBlock*> divergent_branches_;
};

}  // namespace cucl::backend::host

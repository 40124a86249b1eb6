// A work-item function with barriers (calls to cucl_host_barrier), split at them into
// regions. A work-group then runs region after region, each as a loop over its work-items
// like a kernel without barriers (work_group_lowering.cpp), vectorised the same way,
// instead of running each work-item on a fiber of its own.
//
// `<work-item>.regions(args, context, x, y, z, i32 point, i32 round) -> i32` runs work-item
// (x, y, z) from the start of the kernel (point 0) or from barrier number `point` (1, 2, ...)
// to its next barrier, whose number it returns, or to its end (0). `round` counts the times
// the group has gone over its work-items. The vector form returns the largest number of its
// lanes. What a work-item carries past a barrier is computed again after it where it comes
// from the arguments and the group's context alone (argument values, local-memory
// addresses, ids), else kept in `context->region_state`, laid out for a group of N
// work-items in R rows as
//   [N x i32: the barrier each work-item stopped at]
//   [for each value kept per work-item: N x its type]        (region_item_bytes per work-item;
//                                                             or by work-item: StateLayout)
//   [two areas of, for each value kept per row: R x its type] (region_row_bytes per row)
// A value that every work-item of a row computes alike is kept once per row, in the area of
// the round's parity, so that a work-item that comes to its next barrier does not overwrite
// what the rest of its row has yet to take back. The others, and those that may differ
// because the work-items' paths parted and met again, are kept once per work-item,
// consecutive work-items next to each other, so that the vector form keeps and takes back
// whole vectors. A work-item called for another barrier than the one it stopped at (it
// returned before a barrier the others reach, or waits at another: kernels the
// specification leaves undefined) does nothing and returns its own.
#pragma once

#include <cstdint>
#include <string>

namespace llvm {
class Function;
class StructType;
}  // namespace llvm

namespace cucl::backend::host {

struct BarrierRegions {
  llvm::Function* function = nullptr;  // null when the kernel cannot be split
  uint64_t item_bytes = 0;
  uint64_t row_bytes = 0;
  std::string summary;   // for the debug log: how many regions, values kept and computed again
  std::string obstacle;  // then: why not
};

// How the values kept per work-item lie: interleaved (each value's array of N, for the vector
// form, which takes consecutive work-items' values as one vector) or by work-item (each
// work-item's values together, for a form that runs one work-item at a time, whose values
// would otherwise each be on a cache line of their own; it keeps every value per work-item,
// none per row).
enum class StateLayout { Interleaved, ByWorkItem };

// Leaves `work_item` as it is; the caller erases whichever it does not use.
BarrierRegions split_at_barriers(llvm::Function& work_item, llvm::StructType* context_type, StateLayout layout);

}  // namespace cucl::backend::host

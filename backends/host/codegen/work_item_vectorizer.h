// Whole-function vectorisation of a work-item function (work_group_lowering.cpp).
//
// `<kernel>.cucl_wi(args, context, x, y, z, ...)` runs one work-item; its vector form, made
// here, has the same parameters and runs the `width` work-items x .. x+width-1 of row (y, z)
// at once. Parameters after z are the same for all of them; where the work-item returns a
// number (a barrier region, barrier_regions.h), the vector form returns the largest of its
// lanes'. What all of them compute alike (work_item_divergence.h) stays scalar; the rest
// becomes vectors of `width` lanes: arithmetic lane-wise, consecutive accesses as vector
// loads and stores (checked at run time where 32-bit index arithmetic might have wrapped),
// other accesses as gathers and scatters (OpenCL vectors a lane at a time), atomics and
// calls with side effects once per lane in lane order. Branches on values that differ
// between work-items run under masks where they qualify (masked_loops.h,
// masked_branches.h); elsewhere lanes that part finish one by one (work_item_resume.h). A
// kernel that keeps private memory, or vectors of pointers that differ between work-items,
// is not vectorised: it runs one work-item at a time.
#pragma once

#include <cstdint>
#include <string>

namespace llvm {
class Function;
}

namespace cucl::backend::host {

struct WorkItemVectorization {
  llvm::Function* function = nullptr;  // null when not vectorised
  unsigned width = 0;                  // work-items it runs at once
  std::string obstacle;                // then: why not
  // Then, where only its size ruled it out: that size and the most allowed. Its per-lane
  // part shrinks with the width, so half as wide is at least half as large.
  unsigned size = 0;
  unsigned size_bound = 0;
  unsigned masked_loops = 0;           // loops it runs under a mask (masked_loops.h)
  unsigned masked_branches = 0;        // branches it runs under a mask (masked_branches.h)
};

// `width` (a power of two) is how many work-items the vector form takes; a kernel whose
// varying values are OpenCL vectors of N elements takes at most kMaxLaneElements / N (its
// code, and the time to build it, grow with the length of the vectors), and none below
// kMinWidth.
WorkItemVectorization vectorize_work_item(llvm::Function& work_item, unsigned width);
// Why the work-item function could have no vector form at any width, as far as its analysis
// alone tells (private memory, vectors too long, values too many for the registers); empty
// when it may have one. Cheap beside vectorize_work_item.
std::string vectorization_obstacle(llvm::Function& work_item);
constexpr unsigned kMaxLaneElements = 32;
constexpr unsigned kMinWidth = 4;  // below that the vector form is not worth its code

// Work-items per vector on this CPU: four registers of 32-bit lanes (LLVM prefers 256-bit
// vectors on x86, AVX-512 included), so that a loop's dependent chain has four independent
// vectors in flight. Measured on the H100 machine's Xeon, a chain of 2048 multiply-adds per
// work-item ran at 146, 297, 575 and 1056 GFLOPS with 8, 16, 32 and 64 work-items, and
// kernels of many chains or of memory traffic were best at 32 or no worse. Wider than
// kMaxWidth, work-groups of 16 or 32 along x would find no whole vector: a kernel with a
// loop whose values fit the registers 4 or 2 times as wide gets a second, wide form beside
// this one (work_group_lowering.cpp).
unsigned host_vector_width();
constexpr unsigned kMaxWidth = 32;

// The bytes of one vector register as LLVM uses them on this CPU (32 with AVX, AVX-512
// included, else 16).
unsigned host_register_bytes();

// The bytes of this CPU's vector registers (16 or, with AVX-512, 32 of 16 or 32 bytes): a
// kernel takes a width at which the values its work-items hold at once
// (register_pressure.h) fit them, for a kernel that holds more spends its time spilling.
uint64_t host_vector_register_bytes();



}  // namespace cucl::backend::host

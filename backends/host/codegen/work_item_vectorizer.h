// Whole-function vectorisation of a work-item function (work_group_lowering.cpp).
//
// `<kernel>.cucl_wi(args, context, x, y, z)` runs one work-item; its vector form, made here,
// has the same parameters and runs the `width` work-items x .. x+width-1 of row (y, z) at
// once. What all of them compute alike (work_item_divergence.h) stays scalar; the rest
// becomes vectors of `width` lanes: arithmetic lane-wise, consecutive accesses as vector
// loads and stores (checked at run time where 32-bit index arithmetic might have wrapped),
// other accesses as gathers and scatters, atomics and calls with side effects once per lane
// in lane order. A kernel whose control flow differs between work-items, that keeps private
// memory, or holds vector values that differ between work-items is not vectorised (yet):
// it runs one work-item at a time as before.
#pragma once

#include <string>

namespace llvm {
class Function;
}

namespace cucl::backend::host {

struct WorkItemVectorization {
  llvm::Function* function = nullptr;  // null when not vectorised
  unsigned width = 0;                  // work-items it runs at once
  std::string obstacle;                // then: why not
};

// `width` (a power of two) is the most work-items the form may take; a kernel whose varying
// values are OpenCL vectors takes fewer, so that a vector of lanes stays within
// kMaxLaneElements elements (its code, and the time to build it, grow with that).
WorkItemVectorization vectorize_work_item(llvm::Function& work_item, unsigned width);
constexpr unsigned kMaxLaneElements = 16;
constexpr unsigned kMinWidth = 4;  // below that the vector form is not worth its code

// Work-items per vector on this machine's CPU: two vector registers of 32-bit lanes (so that a
// dependent chain of floating-point operations has two independent ones in flight), at most 16.
unsigned work_item_vector_width();

}  // namespace cucl::backend::host

// LLVM 15's NVPTX back end folds a vector load of halves that feeds an `fpext` into an
// extending load, which it selects for 8 or 16 halves (after splitting) as plain 16-bit
// loads into float or double registers: the halves' bits arrive unconverted (seen as
// degrees(half8) returning 0). This pass, run after optimisation, puts a `freeze` between
// each such load and its `fpext`, so the load stays a load and the conversion a `cvt`.
#pragma once

namespace llvm {
class Module;
}

namespace cucl::backend::cuda {

void keep_half_vector_loads_apart_from_fpext(llvm::Module& module);

}  // namespace cucl::backend::cuda

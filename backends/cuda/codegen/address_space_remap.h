// The front end and the SPIR-V reader number OpenCL address spaces the SPIR way
// (private 0, global 1, constant 2, local 3, generic 4). NVPTX numbers them generic 0,
// global 1, shared 3, const 4, local 5, with allocas (private memory) generic. This pass
// renumbers the module: __constant data lives in global memory (buffers passed as
// __constant arguments are ordinary device memory), generic becomes NVPTX's generic,
// private stays 0, and casts that became no-ops disappear.
#pragma once

namespace llvm {
class Module;
}

namespace cucl::backend::cuda {

void remap_address_spaces_for_nvptx(llvm::Module& module);

// After optimisation: every address-space cast becomes cvta intrinsics through the generic
// space (the optimiser may have folded two casts into one between two specific spaces,
// which NVPTX cannot select, and constant casts of NULL must stay NULL), keeping NULL NULL.
void legalize_address_space_casts(llvm::Module& module);

}  // namespace cucl::backend::cuda

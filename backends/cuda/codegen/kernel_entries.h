// Builds the PTX entry of each kernel (the launch ABI of backends/cuda/kernel_abi.h),
// dissolves every function into the entries, and replaces the work-item functions,
// barriers, address-space queries and printf with NVPTX code.
#pragma once

#include <string>

#include "backends/cuda/nvptx_program.h"

namespace llvm {
class Module;
}

namespace cucl::backend::cuda {

// Fills program.kernels and program.printf_sites; returns build-log errors, empty on success.
std::string build_kernel_entries(llvm::Module& module, NvptxProgram& program);

}  // namespace cucl::backend::cuda

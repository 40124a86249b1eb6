// OpenCL kernels as PTX: LLVM bitcode from the front end (or the SPIR-V reader) ->
// nvptx64 builtins and libdevice linked -> address spaces in NVPTX numbering -> kernel
// entries with the launch ABI of kernel_abi.h -> PTX for one compute capability.
#pragma once

#include <string>
#include <string_view>

#include "backends/kernel_code.h"

namespace cucl::backend::cuda {

struct NvptxTarget {
  unsigned sm = 0;   // the PTX target (sm_XX), at most what LLVM 15 knows (86)
  unsigned ptx = 0;  // the PTX ISA version, e.g. 75
};

// The newest target LLVM 15 can emit that a device of compute capability major.minor runs
// (the driver JIT-compiles PTX for newer GPUs).
NvptxTarget nvptx_target_for(int major, int minor);
// The code_target string of a device description: names the target exactly.
std::string nvptx_code_target(const NvptxTarget& target);

// `native` is encode_nvptx_program's format.
CodegenResult generate_nvptx_code(std::string_view bitcode, const CodegenOptions& options, const NvptxTarget& target);

}  // namespace cucl::backend::cuda

// The CUDA device's code format (CodegenResult::native): PTX text plus what the launch
// needs to know about each kernel, behind a header naming the code target.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/printf_format.h"

namespace cucl::backend::cuda {

struct NvptxKernel {
  std::string name;          // the PTX entry (the OpenCL kernel's name)
  bool uses_printf = false;  // the launch must provide LaunchContext::printf_buffer
  bool textured_variant = false;  // the PTX has its entry name + kTexturedEntrySuffix too
};

struct NvptxProgram {
  std::string ptx;
  std::vector<NvptxKernel> kernels;
  std::vector<PrintfCallSite> printf_sites;  // the program's printf table
};

std::string encode_nvptx_program(std::string_view code_target, const NvptxProgram& program);
// nullopt when `native` is not CUDA code for `code_target` or is damaged.
std::optional<NvptxProgram> decode_nvptx_program(std::string_view native, std::string_view code_target);

}  // namespace cucl::backend::cuda

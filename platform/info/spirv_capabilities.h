// cl_khr_spirv_queries: the SPIR-V extended instruction sets, extensions and capabilities a
// device accepts in clCreateProgramWithIL, derived from what it reports. They follow the
// OpenCL SPIR-V environment specification's list for each feature and extension, and are
// all things the SPIR-V reader (SPIRV-LLVM-Translator 15 plus platform/compiler/
// spirv_legalize.cpp) and the builtin libraries handle.
#pragma once

#include <CL/cl.h>

#include <vector>

#include "backends/device_description.h"

namespace cucl {

struct SpirvSupport {
  std::vector<const char*> extended_instruction_sets;
  std::vector<const char*> extensions;
  std::vector<cl_uint> capabilities;
};

SpirvSupport spirv_support(const backend::DeviceDescription& device);

}  // namespace cucl

// SPIR-V made by the real tools inside a test: spirv-as for assembly, clang-15 and
// llvm-spirv-15 for OpenCL C.
#pragma once

#include <string>

namespace cucl_test {

// Assembles SPIR-V assembly (spirv-as --target-env spv1.0); empty, with a test failure, if it fails.
std::string spirv_from_assembly(const std::string& assembly);

// OpenCL C 1.2 -> SPIR-V; empty, with a test failure, if either tool fails.
std::string spirv_from_opencl_c(const std::string& source);

}  // namespace cucl_test

// SPIR-V made by the real tools inside a test: spirv-as for assembly, clang-15 and
// llvm-spirv-15 for OpenCL C.
#pragma once

#include <string>
#include <vector>

#include "support/kernel_support.h"

namespace cucl_test {

// Whether the device lists SPIR-V 1.0 in CL_DEVICE_IL_VERSION.
bool lists_spirv(cl_device_id device);

// CL_DEVICE_SPIRV_CAPABILITIES_KHR (cl_khr_spirv_queries): the SPIR-V capabilities the device
// accepts; empty, with a test failure, where the query fails.
std::vector<cl_uint> spirv_capabilities(cl_device_id device);

// A DeviceTest that skips devices listing no SPIR-V.
class SpirvDeviceTest : public DeviceTest {
 protected:
  void SetUp() override;
  // Creates a program from `il` and builds it for the device; null (with a test failure,
  // and the build log) when either fails. The caller releases it.
  cl_program build_from_il(const std::string& il);
};

// Creates a program from `il` and builds it for env's device; null (with a test failure, and
// the build log) when either fails. The caller releases it.
cl_program program_from_il(const Env& env, const std::string& il);

// Assembles SPIR-V assembly (spirv-as --target-env `target`, spv1.0 by default); empty, with a
// test failure, if it fails.
std::string spirv_from_assembly(const std::string& assembly, const std::string& target = "spv1.0");

// OpenCL C (1.2 unless `cl_std` says otherwise) -> SPIR-V, with `translator_args` passed to
// llvm-spirv-15 (--spirv-ext=... for example); empty, with a test failure, if either tool fails.
std::string spirv_from_opencl_c(const std::string& source, const std::string& cl_std = "CL1.2",
                                const std::string& translator_args = "");

}  // namespace cucl_test

// CUCL_FP16=0 (set for this program by tests/CMakeLists.txt) turns half precision off on every
// device: no cl_khr_fp16, no half configuration, vector widths, half atomics, feature macros
// or SPIR-V Float16, and a kernel that uses half arithmetic fails to build with a log.
#include <CL/cl_ext.h>

#include <algorithm>

#include "support/builtin_reference.h"
#include "support/spirv_tools.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Fp16Off : public DeviceTest {};

TEST_P(Fp16Off, NothingOfHalfPrecisionIsReported) {
  EXPECT_FALSE(has_fp16(env.device));
  EXPECT_EQ(info_value<cl_device_fp_config>(clGetDeviceInfo, env.device, CL_DEVICE_HALF_FP_CONFIG), 0u);
  EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, env.device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
  EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, env.device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 0u);
  constexpr cl_device_info kHalfFpAtomicCapabilities = 0x4233;  // cl_ext_float_atomics
  EXPECT_EQ(info_value<cl_bitfield>(clGetDeviceInfo, env.device, kHalfFpAtomicCapabilities), 0u);
  for (const cl_name_version& feature : name_versions(env.device, CL_DEVICE_OPENCL_C_FEATURES)) {
    EXPECT_EQ(std::string(feature.name).find("fp16"), std::string::npos) << feature.name;
  }
  if (lists_spirv(env.device)) {
    const std::vector<cl_uint> capabilities = spirv_capabilities(env.device);
    for (cl_uint half_capability : {9u /* Float16 */, 6095u /* AtomicFloat16AddEXT */, 5616u /* MinMax */}) {
      EXPECT_EQ(std::count(capabilities.begin(), capabilities.end(), half_capability), 0) << half_capability;
    }
  }
}

TEST_P(Fp16Off, HalfArithmeticDoesNotBuild) {
  const char* source =
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "kernel void k(global half* h) { h[0] = h[0] * h[1]; }\n";
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(env.context, 1, &source, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(program, 1, &env.device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  size_t size = 0;
  ASSERT_EQ(clGetProgramBuildInfo(program, env.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size), CL_SUCCESS);
  std::string log(size, '\0');
  ASSERT_EQ(clGetProgramBuildInfo(program, env.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr), CL_SUCCESS);
  EXPECT_NE(log.find("half"), std::string::npos) << log;
  clReleaseProgram(program);
}

INSTANTIATE_TEST_SUITE_P(Devices, Fp16Off, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

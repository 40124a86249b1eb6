// clGetProgramInfo and clGetProgramBuildInfo through the loader: every query before and after
// a build, the size rules and the handle errors.
#include <set>
#include <sstream>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

constexpr const char* kTwoKernels =
    "kernel void first(global int* out) { out[0] = 1; }\n"
    "kernel void second(global int* out) { out[0] = 2; }\n";

class ProgramInfo : public DeviceTest {};

template <class T>
T program_value(cl_program program, cl_program_info param) {
  return info_value<T>(clGetProgramInfo, program, param);
}

TEST_P(ProgramInfo, QueriesBeforeBuild) {
  Program program = source_program(env.context, kTwoKernels);
  EXPECT_EQ(program_value<cl_uint>(program, CL_PROGRAM_REFERENCE_COUNT), 1u);
  EXPECT_EQ(program_value<cl_context>(program, CL_PROGRAM_CONTEXT), env.context);
  EXPECT_EQ(program_value<cl_uint>(program, CL_PROGRAM_NUM_DEVICES), 1u);
  EXPECT_EQ(program_value<cl_device_id>(program, CL_PROGRAM_DEVICES), env.device);
  EXPECT_EQ(program_string(program, CL_PROGRAM_SOURCE), kTwoKernels);
  EXPECT_EQ(program_value<size_t>(program, CL_PROGRAM_BINARY_SIZES), 0u);

  size_t size = 0;
  for (cl_program_info param : {CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
                                CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT}) {
    EXPECT_EQ(clGetProgramInfo(program, param, 0, nullptr, &size), CL_INVALID_PROGRAM_EXECUTABLE) << param;
  }
  EXPECT_EQ(build_status(program, env.device), CL_BUILD_NONE);
  EXPECT_EQ(build_options(program, env.device), "");
  EXPECT_EQ(build_log(program, env.device), "");
  EXPECT_EQ(binary_type(program, env.device), CL_PROGRAM_BINARY_TYPE_NONE);
}

TEST_P(ProgramInfo, SourceProgramsHaveNoIL) {
  Program program = source_program(env.context, kTwoKernels);
  char untouched[4] = {'x', 'y', 'z', 'w'};
  size_t size = 99;
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_IL, sizeof untouched, untouched, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(untouched[0], 'x');
}

TEST_P(ProgramInfo, QueriesAfterBuild) {
  Program program = source_program(env.context, kTwoKernels);
  ASSERT_EQ(build(program, env.device, "-DUNUSED=1"), CL_SUCCESS);
  EXPECT_EQ(program_value<size_t>(program, CL_PROGRAM_NUM_KERNELS), 2u);
  std::set<std::string> names;
  std::istringstream list(program_string(program, CL_PROGRAM_KERNEL_NAMES));
  for (std::string name; std::getline(list, name, ';');) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"first", "second"}));
  EXPECT_EQ(program_value<cl_bool>(program, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT), CL_FALSE);
  EXPECT_EQ(program_value<cl_bool>(program, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT), CL_FALSE);
  EXPECT_GT(program_value<size_t>(program, CL_PROGRAM_BINARY_SIZES), 0u);
  EXPECT_EQ(build_status(program, env.device), CL_BUILD_SUCCESS);
  EXPECT_EQ(build_options(program, env.device), "-DUNUSED=1");
  EXPECT_EQ(binary_type(program, env.device), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  EXPECT_EQ(build_info<size_t>(program, env.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE), 0u);
}

TEST_P(ProgramInfo, FailedBuildReportsErrorAndKeepsNoBinary) {
  Program program = source_program(env.context, "kernel void k() { undeclared_thing = 1; }");
  EXPECT_EQ(build(program, env.device, "-cl-opt-disable"), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(build_status(program, env.device), CL_BUILD_ERROR);
  EXPECT_EQ(build_options(program, env.device), "-cl-opt-disable");
  EXPECT_NE(build_log(program, env.device).find("undeclared_thing"), std::string::npos);
  EXPECT_EQ(binary_type(program, env.device), CL_PROGRAM_BINARY_TYPE_NONE);
  EXPECT_EQ(program_value<size_t>(program, CL_PROGRAM_BINARY_SIZES), 0u);
  size_t size = 0;
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, 0, nullptr, &size), CL_INVALID_PROGRAM_EXECUTABLE);
}

TEST_P(ProgramInfo, GlobalVariableTotalSizeCountsProgramScopeGlobals) {
  Program program = source_program(env.context,
                                   "global int counter;\n"
                                   "global float table[100] = {1.0f};\n"
                                   "constant int not_global[8] = {1};\n"
                                   "kernel void k(global int* out) { out[0] = counter + (int)table[0] + not_global[0]; }\n");
  ASSERT_EQ(build(program, env.device, "-cl-std=CL3.0"), CL_SUCCESS) << build_log(program, env.device);
  EXPECT_EQ(build_info<size_t>(program, env.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE),
            sizeof(cl_int) + 100 * sizeof(cl_float));
}

TEST_P(ProgramInfo, ReferenceCountFollowsRetainAndRelease) {
  Program program = source_program(env.context, kTwoKernels);
  ASSERT_EQ(clRetainProgram(program), CL_SUCCESS);
  EXPECT_EQ(program_value<cl_uint>(program, CL_PROGRAM_REFERENCE_COUNT), 2u);
  ASSERT_EQ(clReleaseProgram(program), CL_SUCCESS);
  EXPECT_EQ(program_value<cl_uint>(program, CL_PROGRAM_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainProgram(nullptr), CL_INVALID_PROGRAM);
  EXPECT_EQ(clReleaseProgram(nullptr), CL_INVALID_PROGRAM);
  EXPECT_EQ(clRetainProgram(reinterpret_cast<cl_program>(env.context)), CL_INVALID_PROGRAM);
}

TEST_P(ProgramInfo, SizeRulesForEveryQuery) {
  Program program = source_program(env.context, kTwoKernels);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  for (cl_program_info param :
       {CL_PROGRAM_REFERENCE_COUNT, CL_PROGRAM_CONTEXT, CL_PROGRAM_NUM_DEVICES, CL_PROGRAM_DEVICES, CL_PROGRAM_SOURCE,
        CL_PROGRAM_BINARY_SIZES, CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_BINARIES,
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT}) {
    size_t size = 0;
    ASSERT_EQ(clGetProgramInfo(program, param, 0, nullptr, &size), CL_SUCCESS) << param;
    ASSERT_GT(size, 0u) << param;
    std::vector<unsigned char> value(size);
    EXPECT_EQ(clGetProgramInfo(program, param, size - 1, value.data(), nullptr), CL_INVALID_VALUE) << param;
  }
  char value[64];
  EXPECT_EQ(clGetProgramInfo(program, 0x12345, sizeof value, value, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetProgramInfo(nullptr, CL_PROGRAM_SOURCE, sizeof value, value, nullptr), CL_INVALID_PROGRAM);
}

TEST_P(ProgramInfo, BuildInfoSizeRulesAndErrors) {
  Program program = source_program(env.context, kTwoKernels);
  ASSERT_EQ(build(program, env.device, "-DLONG_OPTION_TEXT=1"), CL_SUCCESS);
  for (cl_program_build_info param : {CL_PROGRAM_BUILD_STATUS, CL_PROGRAM_BUILD_OPTIONS, CL_PROGRAM_BUILD_LOG,
                                      CL_PROGRAM_BINARY_TYPE, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE}) {
    size_t size = 0;
    ASSERT_EQ(clGetProgramBuildInfo(program, env.device, param, 0, nullptr, &size), CL_SUCCESS) << param;
    ASSERT_GT(size, 0u);
    std::vector<unsigned char> value(size);
    if (size > 1) {
      EXPECT_EQ(clGetProgramBuildInfo(program, env.device, param, size - 1, value.data(), nullptr), CL_INVALID_VALUE)
          << param;
    }
  }
  cl_build_status status = 0;
  EXPECT_EQ(clGetProgramBuildInfo(program, env.device, 0x12345, sizeof status, &status, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetProgramBuildInfo(program, nullptr, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr),
            CL_INVALID_DEVICE);
  cl_device_id not_a_device = reinterpret_cast<cl_device_id>(env.queue);
  EXPECT_EQ(clGetProgramBuildInfo(program, not_a_device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(clGetProgramBuildInfo(nullptr, env.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr),
            CL_INVALID_PROGRAM);
}

TEST_P(ProgramInfo, BinariesQueryNeedsOnePointerPerDeviceAndSkipsNullEntries) {
  Program program = source_program(env.context, kTwoKernels);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(unsigned char*));
  unsigned char* none = nullptr;
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof none, &none, nullptr), CL_SUCCESS);
  const auto binary = program_binary(program);
  EXPECT_EQ(binary.size(), program_value<size_t>(program, CL_PROGRAM_BINARY_SIZES));
  EXPECT_EQ(program_binary(program), binary) << "the same build gives the same bytes";
}

TEST_P(ProgramInfo, ProgramPinsItsContext) {
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_context context = clCreateContext(nullptr, 1, &env.device, nullptr, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  Program program = source_program(context, kTwoKernels);
  EXPECT_EQ(ref_count(context), 2u);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  EXPECT_EQ(program_value<cl_context>(program, CL_PROGRAM_CONTEXT), context);
  EXPECT_EQ(ref_count(context), 1u);
  EXPECT_EQ(build(program, env.device), CL_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, ProgramInfo, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// clCreateProgramWithSource and clBuildProgram through the loader: argument rules, build
// failures and their logs, the notify callback, and rebuilding.
#include <atomic>
#include <regex>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

constexpr const char* kWriteSeven = "kernel void seven(global int* out) { out[get_global_id(0)] = 7; }";

class ProgramBuild : public DeviceTest {};

TEST_P(ProgramBuild, CreateWithSourceRejectsMissingStrings) {
  const char* text = kWriteSeven;
  const char* with_null[] = {text, nullptr};
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateProgramWithSource(env.context, 0, &text, nullptr, s); }),
            CL_INVALID_VALUE);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateProgramWithSource(env.context, 1, nullptr, nullptr, s); }),
            CL_INVALID_VALUE);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateProgramWithSource(env.context, 2, with_null, nullptr, s); }),
            CL_INVALID_VALUE);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateProgramWithSource(nullptr, 1, &text, nullptr, s); }),
            CL_INVALID_CONTEXT);
  cl_context not_a_context = reinterpret_cast<cl_context>(env.queue);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateProgramWithSource(not_a_context, 1, &text, nullptr, s); }),
            CL_INVALID_CONTEXT);
}

// A length of 0 means "NUL-terminated"; any other length counts characters and may cut a
// string short.
TEST_P(ProgramBuild, LengthsSelectCharactersAndZeroMeansTerminated) {
  const char* pieces[] = {"kernel void seven(global int* out) ", "{ out[get_global_id(0)] = 7; }THIS IS CUT OFF",
                          "\n// tail"};
  const size_t lengths[] = {0, 30, 0};
  cl_int status = CL_OUT_OF_RESOURCES;
  Program program(clCreateProgramWithSource(env.context, 3, pieces, lengths, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(program_string(program, CL_PROGRAM_SOURCE),
            "kernel void seven(global int* out) { out[get_global_id(0)] = 7; }\n// tail");
  ASSERT_EQ(build(program, env.device), CL_SUCCESS) << build_log(program, env.device);
  EXPECT_EQ(first_int(env, program, "seven"), 7);
}

TEST_P(ProgramBuild, NullLengthsMeansEveryStringIsTerminated) {
  const char* pieces[] = {"kernel void seven(global int* out)", " { out[0] = 7; }"};
  cl_int status = CL_OUT_OF_RESOURCES;
  Program program(clCreateProgramWithSource(env.context, 2, pieces, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(program_string(program, CL_PROGRAM_SOURCE), "kernel void seven(global int* out) { out[0] = 7; }");
}

TEST_P(ProgramBuild, DeviceListRules) {
  Program program = source_program(env.context, kWriteSeven);
  cl_device_id device = env.device;
  EXPECT_EQ(clBuildProgram(program, 0, &device, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clBuildProgram(program, 1, nullptr, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  cl_device_id not_a_device = reinterpret_cast<cl_device_id>(env.context);
  EXPECT_EQ(clBuildProgram(program, 1, &not_a_device, nullptr, nullptr, nullptr), CL_INVALID_DEVICE);
  cl_device_id with_bad[] = {device, nullptr};
  EXPECT_EQ(clBuildProgram(program, 2, with_bad, nullptr, nullptr, nullptr), CL_INVALID_DEVICE);
  int user_data = 0;
  EXPECT_EQ(clBuildProgram(program, 1, &device, nullptr, nullptr, &user_data), CL_INVALID_VALUE);
  EXPECT_EQ(clBuildProgram(nullptr, 1, &device, nullptr, nullptr, nullptr), CL_INVALID_PROGRAM);
  EXPECT_EQ(clBuildProgram(reinterpret_cast<cl_program>(env.queue), 1, &device, nullptr, nullptr, nullptr),
            CL_INVALID_PROGRAM);
  // None of the failed calls built anything.
  EXPECT_EQ(build_status(program, device), CL_BUILD_NONE);
  // A NULL list builds for every device of the program.
  ASSERT_EQ(clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(build_status(program, device), CL_BUILD_SUCCESS);
}

TEST_P(ProgramBuild, NullOptionsBuildLikeEmptyOptions) {
  Program program = source_program(env.context, kWriteSeven);
  ASSERT_EQ(build(program, env.device, nullptr), CL_SUCCESS);
  EXPECT_EQ(build_options(program, env.device), "");
  EXPECT_EQ(first_int(env, program, "seven"), 7);
}

TEST_P(ProgramBuild, InvalidOptionsAreRejected) {
  Program program = source_program(env.context, kWriteSeven);
  for (const char* options : {"-cl-no-such-option", "--help", "-D", "-I", "-cl-std=CL9.9", "-cl-std=",
                              "-create-library", "-enable-link-options", "-D 1BAD", "-Dok \"unterminated"}) {
    EXPECT_EQ(build(program, env.device, options), CL_INVALID_BUILD_OPTIONS) << options;
  }
  EXPECT_EQ(build(program, env.device, "-cl-mad-enable -cl-no-signed-zeros -w -DX=1 -cl-kernel-arg-info"), CL_SUCCESS);
}

TEST_P(ProgramBuild, SyntaxErrorFailsWithClangMessageInLog) {
  Program program = source_program(env.context,
                                   "kernel void broken(global int* out) {\n"
                                   "  out[0] = 1\n"
                                   "}\n");
  EXPECT_EQ(build(program, env.device), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(build_status(program, env.device), CL_BUILD_ERROR);
  EXPECT_EQ(binary_type(program, env.device), CL_PROGRAM_BINARY_TYPE_NONE);
  const std::string log = build_log(program, env.device);
  EXPECT_TRUE(std::regex_search(log, std::regex(R"(:2:13: error: expected ';')"))) << log;
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "broken", s); }),
            CL_INVALID_PROGRAM_EXECUTABLE);
}

TEST_P(ProgramBuild, WarningsReachTheLogOfASuccessfulBuild) {
  Program program = source_program(env.context, "#warning cucl test warning\nkernel void k(global int* p) { p[0] = 1; }");
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  const std::string log = build_log(program, env.device);
  EXPECT_NE(log.find("warning: cucl test warning"), std::string::npos) << log;
  EXPECT_TRUE(std::regex_search(log, std::regex(R"(:1:2: warning)"))) << log;
}

TEST_P(ProgramBuild, WerrorFailsOnWarningsAndWSilencesThem) {
  Program program = source_program(env.context, "#warning cucl test warning\nkernel void k(global int* p) { p[0] = 1; }");
  EXPECT_EQ(build(program, env.device, "-Werror"), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(build_log(program, env.device).find("error: cucl test warning"), std::string::npos);
  EXPECT_EQ(build_options(program, env.device), "-Werror");

  ASSERT_EQ(build(program, env.device, "-w"), CL_SUCCESS);
  EXPECT_EQ(build_log(program, env.device).find("cucl test warning"), std::string::npos);
}

void CL_CALLBACK count_notify(cl_program program, void* user_data) {
  auto* seen = static_cast<std::pair<std::atomic<int>, cl_program>*>(user_data);
  seen->second = program;
  seen->first.fetch_add(1);
}

TEST_P(ProgramBuild, NotifyCallbackGetsProgramAndUserDataOnSuccessAndFailure) {
  Program program = source_program(env.context, kWriteSeven);
  std::pair<std::atomic<int>, cl_program> seen{0, nullptr};
  cl_device_id device = env.device;
  ASSERT_EQ(clBuildProgram(program, 1, &device, nullptr, count_notify, &seen), CL_SUCCESS);
  clFinish(env.queue);
  EXPECT_EQ(seen.first.load(), 1);
  EXPECT_EQ(seen.second, program.get());

  Program broken = source_program(env.context, "kernel void k( {");
  seen.second = nullptr;
  const cl_int status = clBuildProgram(broken, 1, &device, nullptr, count_notify, &seen);
  // With a callback the call may return before the build ends; cucl builds synchronously.
  EXPECT_TRUE(status == CL_BUILD_PROGRAM_FAILURE || status == CL_SUCCESS) << status;
  EXPECT_EQ(seen.first.load(), 2);
  EXPECT_EQ(seen.second, broken.get());
  EXPECT_EQ(build_status(broken, device), CL_BUILD_ERROR);
}

TEST_P(ProgramBuild, BuildWhileAKernelExistsIsRejectedAndWorksAfterRelease) {
  Program program = source_program(env.context, "kernel void value(global int* out) { out[0] = VALUE; }");
  ASSERT_EQ(build(program, env.device, "-DVALUE=1"), CL_SUCCESS);
  {
    Kernel kernel = make_kernel(program, "value");
    Kernel clone(clCloneKernel(kernel, nullptr));
    EXPECT_EQ(build(program, env.device, "-DVALUE=2"), CL_INVALID_OPERATION);
    EXPECT_EQ(compile(program, env.device, "-DVALUE=2"), CL_INVALID_OPERATION);
    EXPECT_EQ(run_on_ints(env, kernel, 1)[0], 1);
    kernel = Kernel();
    EXPECT_EQ(build(program, env.device, "-DVALUE=2"), CL_INVALID_OPERATION) << "the clone is still attached";
  }
  EXPECT_EQ(build_options(program, env.device), "-DVALUE=1");
  ASSERT_EQ(build(program, env.device, "-DVALUE=2"), CL_SUCCESS);
  EXPECT_EQ(build_options(program, env.device), "-DVALUE=2");
  EXPECT_EQ(first_int(env, program, "value"), 2);
}

TEST_P(ProgramBuild, FailedRebuildLeavesNoExecutable) {
  Program program = source_program(env.context, "kernel void value(global int* out) { out[0] = VALUE; }");
  ASSERT_EQ(build(program, env.device, "-DVALUE=1"), CL_SUCCESS);
  EXPECT_EQ(build(program, env.device), CL_BUILD_PROGRAM_FAILURE);  // VALUE undefined
  EXPECT_NE(build_log(program, env.device).find("VALUE"), std::string::npos);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "value", s); }),
            CL_INVALID_PROGRAM_EXECUTABLE);
}

TEST_P(ProgramBuild, RecursionIsRejectedWithAClearLog) {
  Program program = source_program(env.context,
                                   "int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }\n"
                                   "kernel void k(global int* out) { out[0] = depth(out[0]); }\n");
  EXPECT_EQ(build(program, env.device), CL_BUILD_PROGRAM_FAILURE);
  const std::string log = build_log(program, env.device);
  EXPECT_NE(log.find("recurs"), std::string::npos) << log;
  EXPECT_NE(log.find("depth"), std::string::npos) << log;
}

TEST_P(ProgramBuild, CallToAnUndefinedFunctionFailsNamingIt) {
  Program program = source_program(env.context,
                                   "int cucl_missing_helper(int x);\n"
                                   "kernel void k(global int* out) { out[0] = cucl_missing_helper(out[0]); }\n");
  EXPECT_EQ(build(program, env.device), CL_BUILD_PROGRAM_FAILURE);
  const std::string log = build_log(program, env.device);
  EXPECT_NE(log.find("cucl_missing_helper"), std::string::npos) << log;
  EXPECT_EQ(build_status(program, env.device), CL_BUILD_ERROR);
}

TEST_P(ProgramBuild, ProgramWithoutKernelsBuilds) {
  Program program = source_program(env.context, "int helper(int x) { return x + 1; }");
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  size_t count = 99;
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr), CL_SUCCESS);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(program_string(program, CL_PROGRAM_KERNEL_NAMES), "");
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, ProgramBuild, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// printf in kernels: the formatting rules of the OpenCL C specification (vectors, length
// modifiers, %a/%e/%g, precision, strings), output after the kernel completes, and the
// return value when the printf buffer is full. stdout is captured around each launch.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "support/captured_stdout.h"
#include "support/kernel_support.h"

using namespace cucl_test;

namespace {

class Printf : public DeviceTest {
 protected:
  // Builds `body` as the kernel "p" (no arguments besides `parameters`) and returns what one work-item prints.
  std::string print_once(const std::string& body, const std::string& options = "-cl-std=CL3.0") {
    BuiltProgram program(env, "kernel void p() { " + body + " }", options);
    cl_kernel kernel = program.kernel("p");
    if (!kernel) return "<no kernel>";
    CapturedStdout captured;
    run_1d(env.queue, kernel, 1);
    return captured.text();
  }
};

TEST_P(Printf, IntegersWithFlagsWidthsAndLengthModifiers) {
  EXPECT_EQ(print_once(R"(printf("%d|%5d|%-5d|%05d|%+d|% d\n", 42, 42, 42, 42, 42, 42);)"),
            "42|   42|42   |00042|+42| 42\n");
  EXPECT_EQ(print_once(R"(printf("%u %x %X %#x %o %#o\n", -1, 255, 255, 255, 8, 8);)"),
            "4294967295 ff FF 0xff 10 010\n");
  EXPECT_EQ(print_once(R"(printf("%ld %lu %lx\n", -1234567890123L, 18446744073709551615UL, 0x123456789abcL);)"),
            "-1234567890123 18446744073709551615 123456789abc\n");
  EXPECT_EQ(print_once(R"(printf("%hhd %hd %hhu %hu\n", 300, 70000, 300, 70000);)"), "44 4464 44 4464\n");
  EXPECT_EQ(print_once(R"(printf("%c%c%c %%\n", 'a', 'b', 'c');)"), "abc %\n");
}

// OpenCL C 3.1's z (size_t) and t (ptrdiff_t) length modifiers.
TEST_P(Printf, SizeAndPtrdiffLengthModifiersOfOpenCLC31) {
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> versions(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, versions.data(), nullptr), CL_SUCCESS);
  if (std::none_of(versions.begin(), versions.end(),
                   [](const cl_name_version& v) { return v.version == CL_MAKE_VERSION(3, 1, 0); })) {
    GTEST_SKIP() << "no OpenCL C 3.1";
  }
  EXPECT_EQ(print_once(R"(size_t s = (size_t)1 << 40; ptrdiff_t d = -(ptrdiff_t)s;
                          printf("%zu %zx %td %5zd|\n", s, s, d, (size_t)7);)",
                       "-cl-std=CL3.1"),
            "1099511627776 10000000000 -1099511627776     7|\n");
}

TEST_P(Printf, FloatingPointConversions) {
  EXPECT_EQ(print_once(R"(printf("%f %.2f %10.3f %-10.1f|\n", 1.5f, 3.14159f, 2.5f, -1.25f);)"),
            "1.500000 3.14      2.500 -1.2      |\n");
  EXPECT_EQ(print_once(R"(printf("%e %.3E %g %G %g\n", 12345.678f, 0.000123f, 100000.0f, 1e-10f, 0.5f);)"),
            [] {
              char expected[128];
              std::snprintf(expected, sizeof expected, "%e %.3E %g %G %g\n", double(12345.678f), double(0.000123f),
                            100000.0, double(1e-10f), 0.5);
              return std::string(expected);
            }());
  EXPECT_EQ(print_once(R"(printf("%a %A\n", 1.0f, -0.5f);)"), "0x1p+0 -0X1P-1\n");
  EXPECT_EQ(print_once(R"(printf("%f %f %f\n", INFINITY, -INFINITY, NAN);)"), "inf -inf nan\n");
  EXPECT_EQ(print_once(R"(printf("%.10f %e\n", 0.1, 1e300);)"), "0.1000000000 1.000000e+300\n");
}

TEST_P(Printf, VectorsUseCommasAndTheElementLength) {
  EXPECT_EQ(print_once(R"(printf("%v4hlf\n", (float4)(1.0f, 2.5f, -3.0f, 0.25f));)"),
            "1.000000,2.500000,-3.000000,0.250000\n");
  EXPECT_EQ(print_once(R"(printf("%v2hld %v3hlx\n", (int2)(-1, 7), (uint3)(10, 11, 255));)"), "-1,7 a,b,ff\n");
  EXPECT_EQ(print_once(R"(printf("%v4hhd|%v2hd|%v2ld\n", (char4)(1, -2, 3, -4), (short2)(-300, 300), (long2)(-5, 6));)"),
            "1,-2,3,-4|-300,300|-5,6\n");
  EXPECT_EQ(print_once(R"(printf("%#v2hlx %.1v2hlf\n", (uint2)(1, 2), (float2)(0.25f, 1.75f));)"), "0x1,0x2 0.2,1.8\n");
  EXPECT_EQ(print_once(R"(printf("%v2lf\n", (double2)(0.5, -0.5));)"), "0.500000,-0.500000\n");
  // Wider than two SSE registers: the x86-64 variadic ABI passes these by reference.
  EXPECT_EQ(print_once(R"(printf("%v8hlg\n", (float8)(1.f, 2.f, 3.f, 4.f, 1.5f, 3.14f, 2.5f, 3.5f));)"),
            "1,2,3,4,1.5,3.14,2.5,3.5\n");
  EXPECT_EQ(print_once(R"(printf("%v16hlo\n", (uint16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 32, 64, 128, 256, 512, 1024));)"),
            "1,2,3,4,5,6,7,10,11,0,40,100,200,400,1000,2000\n");
  EXPECT_EQ(print_once(R"(printf("%v4lf\n", (double4)(1, 2, 3, 4));)"), "1.000000,2.000000,3.000000,4.000000\n");
}

TEST_P(Printf, StringsAndPointers) {
  EXPECT_EQ(print_once(R"(printf("%s|%10s|%-6s|%.3s\n", "hello", "right", "left", "truncate");)"),
            "hello|     right|left  |tru\n");
  EXPECT_EQ(print_once(R"(printf("no conversions\n");)"), "no conversions\n");
  const std::string pointer = print_once(R"(local int x; printf("%p\n", &x);)");
  EXPECT_FALSE(pointer.empty());
  EXPECT_EQ(pointer.back(), '\n');
}

TEST_P(Printf, EveryWorkItemPrintsAfterTheKernelAndReturnsZero) {
  BuiltProgram program(env, R"(
    kernel void p(global int* status) {
      int i = get_global_id(0);
      status[i] = printf("item %d of %d\n", i, (int)get_global_size(0));
    })");
  cl_kernel kernel = program.kernel("p");
  ASSERT_NE(kernel, nullptr);
  const size_t items = 256;
  DeviceBuffer status(env.context, items * sizeof(cl_int));
  set_args(kernel, status.get());
  CapturedStdout captured;
  run_1d(env.queue, kernel, items, 64);
  const std::string text = captured.text();
  std::set<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.insert(line);
  EXPECT_EQ(lines.size(), items);
  for (size_t i = 0; i < items; ++i) EXPECT_TRUE(lines.count("item " + std::to_string(i) + " of 256")) << i;
  for (cl_int value : read_buffer<cl_int>(env.queue, status.get(), items)) EXPECT_EQ(value, 0);
}

TEST_P(Printf, OneWorkItemsCallsComeOutInOrder) {
  EXPECT_EQ(print_once(R"(for (int i = 0; i < 5; ++i) printf("%d", i); printf("\n");)"), "01234\n");
}

TEST_P(Printf, AFullBufferMakesPrintfReturnMinusOneAndLosesNothingElse) {
  size_t buffer_size = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof buffer_size, &buffer_size, nullptr),
            CL_SUCCESS);
  BuiltProgram program(env, R"(
    kernel void p(global int* status) {
      int i = get_global_id(0);
      status[i] = printf("%d\n", i);
    })");
  cl_kernel kernel = program.kernel("p");
  ASSERT_NE(kernel, nullptr);
  // Far more calls than the buffer can hold, whatever the size of a record.
  const size_t items = buffer_size / 4;
  DeviceBuffer status(env.context, items * sizeof(cl_int));
  set_args(kernel, status.get());
  CapturedStdout captured;
  run_1d(env.queue, kernel, items);
  const std::string text = captured.text();
  const auto results = read_buffer<cl_int>(env.queue, status.get(), items);
  const size_t printed = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  const size_t succeeded = static_cast<size_t>(std::count(results.begin(), results.end(), 0));
  const size_t failed = static_cast<size_t>(std::count(results.begin(), results.end(), -1));
  EXPECT_EQ(succeeded + failed, items);
  EXPECT_GT(failed, 0u);
  EXPECT_GT(succeeded, 0u);
  EXPECT_EQ(printed, succeeded);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Printf, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

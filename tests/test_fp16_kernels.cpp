// cl_khr_fp16 in kernels on every device that reports it: the device queries, half
// arithmetic rounded once (against the exact reference of support/builtin_reference.h),
// half kernel arguments by value and in structs, vloadn/vstoren and shuffles of half
// vectors, printf of half values, and read_imageh/write_imageh.
#include <CL/cl_ext.h>

#include <algorithm>
#include <cmath>

#include "support/builtin_reference.h"
#include "support/captured_stdout.h"
#include "support/spirv_tools.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Fp16Kernels : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!has_fp16(env.device)) GTEST_SKIP() << "the device does not report cl_khr_fp16";
  }
};

uint16_t half_bits(double value) { return double_to_half(value, Rounding::kNearestEven); }

bool same_half(uint16_t a, uint16_t b) {
  const bool a_nan = (a & 0x7fff) > 0x7c00, b_nan = (b & 0x7fff) > 0x7c00;
  return a_nan || b_nan ? a_nan && b_nan : a == b;
}

TEST_P(Fp16Kernels, QueriesDescribeHalfPrecision) {
  cl_device_fp_config config = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_HALF_FP_CONFIG, sizeof config, &config, nullptr), CL_SUCCESS);
  // The minimum of cl_khr_fp16: round to nearest (or toward zero) with infinities and NaNs.
  EXPECT_TRUE(config & CL_FP_ROUND_TO_NEAREST);
  EXPECT_TRUE(config & CL_FP_INF_NAN);
  EXPECT_TRUE(config & CL_FP_DENORM);  // the arithmetic test below keeps subnormals
  for (cl_device_info width : {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF}) {
    cl_uint value = 0;
    ASSERT_EQ(clGetDeviceInfo(env.device, width, sizeof value, &value, nullptr), CL_SUCCESS);
    EXPECT_GE(value, 1u);
  }
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr), CL_SUCCESS);
  EXPECT_TRUE(std::any_of(features.begin(), features.end(),
                          [](const cl_name_version& f) { return std::string(f.name) == "__opencl_c_fp16"; }));
  // The feature macros a kernel sees agree with the queries.
  BuiltProgram program(env,
                       "#if !defined(cl_khr_fp16) || !defined(__opencl_c_fp16)\n#error no fp16 macros\n#endif\n"
                       "kernel void k(global int* out) { out[0] = 1; }\n",
                       "-cl-std=CL3.0");
  EXPECT_TRUE(program);
}

// Each operation of two halves is done exactly in double (every sum, difference and product
// of halves is a double; a quotient or square root rounds twice harmlessly since double has
// more than 2 * 11 + 2 bits) and rounded once to half.
TEST_P(Fp16Kernels, ArithmeticRoundsOnceToNearest) {
  std::vector<uint16_t> a, b;
  Random rng(11);
  const std::vector<uint16_t> specials = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01,
                                          0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555, 0x4248, 0x1400, 0x0200};
  for (uint16_t x : specials)
    for (uint16_t y : specials) a.push_back(x), b.push_back(y);
  while (a.size() < 8192) {
    a.push_back(static_cast<uint16_t>(rng()));
    b.push_back(static_cast<uint16_t>(rng()));
  }
  const size_t n = a.size();
  BuiltProgram program(env, std::string(kFp16Pragmas) +
                                "kernel void k(global const half* a, global const half* b, global half* out) {\n"
                                "  size_t g = get_global_id(0), n = get_global_size(0);\n"
                                "  half x = a[g], y = b[g];\n"
                                "  out[g] = x + y; out[n + g] = x - y; out[2 * n + g] = x * y; out[3 * n + g] = x / y;\n"
                                "  out[4 * n + g] = -x; out[5 * n + g] = (half)(x < y) + (half)(x == y) * 2.0h;\n"
                                "  half2 v = (half2)(x, y) * (half2)(y, x) + (half2)(1.0h);\n"
                                "  out[6 * n + g] = v.x; out[7 * n + g] = v.y;\n"
                                "  out[8 * n + g] = (half)((double)x * 3.0);\n"
                                "}\n");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.in(a).in(b).out<uint16_t>(9 * n);
  launch.run(n);
  const auto out = launch.result<uint16_t>(2);
  int failures = 0;
  for (size_t i = 0; i < n && failures < 10; ++i) {
    const double x = half_to_double(a[i]), y = half_to_double(b[i]);
    const double product = static_cast<double>(half_to_double(half_bits(x * y)));
    const uint16_t want[] = {half_bits(x + y),  half_bits(x - y),
                             half_bits(x * y),  half_bits(x / y),
                             static_cast<uint16_t>(a[i] ^ 0x8000),
                             half_bits((x < y ? 1.0 : 0.0) + (x == y ? 2.0 : 0.0)),
                             half_bits(product + 1.0), half_bits(product + 1.0),
                             half_bits(x * 3.0)};
    for (size_t op = 0; op < std::size(want); ++op) {
      // x * y + 1 may also be contracted into one fused operation (-ffp-contract=on).
      const bool fused_allowed = op == 6 || op == 7;
      const uint16_t got = out[op * n + i];
      if (!same_half(got, want[op]) && !(fused_allowed && same_half(got, half_bits(x * y + 1.0)))) {
        ADD_FAILURE() << "operation " << op << " of " << x << " and " << y << ": got 0x" << std::hex << got
                      << ", want 0x" << want[op] << std::dec;
        ++failures;
      }
    }
  }
}

// Whole half vectors loaded and widened: on GPUs LLVM 15 would load 8 or 16 halves' bits
// straight into float registers (backends/cuda/codegen/half_extending_loads.h).
TEST_P(Fp16Kernels, WidenedHalfVectorsKeepTheirValues) {
  const size_t n = 64;
  std::vector<uint16_t> in(16 * n);
  for (size_t i = 0; i < in.size(); ++i) in[i] = half_bits(static_cast<double>(i) * 0.75 - 300);
  BuiltProgram program(env, std::string(kFp16Pragmas) +
                                "kernel void k(global const half16* in, global float16* f, global double8* d) {\n"
                                "  size_t g = get_global_id(0);\n"
                                "  f[g] = convert_float16(in[g]);\n"
                                "  d[2 * g] = convert_double8(in[g].lo);\n"
                                "  d[2 * g + 1] = convert_double8(((global const half8*)in)[2 * g + 1]);\n"
                                "}\n");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.in(in).out<float>(16 * n).out<double>(16 * n);
  launch.run(n);
  const auto f = launch.result<float>(1);
  const auto d = launch.result<double>(2);
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(f[i], static_cast<float>(half_to_double(in[i]))) << i;
    EXPECT_EQ(d[i], half_to_double(in[i])) << i;
  }
}

struct HalfPair {
  cl_half first;
  cl_short gap;
  cl_half second;
};

TEST_P(Fp16Kernels, HalfArgumentsByValueAndInStructs) {
  BuiltProgram program(env, std::string(kFp16Pragmas) +
                                "typedef struct { half first; short gap; half second; } pair;\n"
                                "kernel void k(half scale, half4 offset, pair p, global half* out) {\n"
                                "  size_t g = get_global_id(0);\n"
                                "  out[g] = scale * (half)g + offset[g % 4] + p.first - p.second + (half)p.gap;\n"
                                "}\n");
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  const cl_half scale = half_bits(0.5), offset[4] = {half_bits(1), half_bits(2), half_bits(-4), half_bits(0.25)};
  const HalfPair pair = {half_bits(10), 3, half_bits(2.5)};
  DeviceBuffer out(env.context, 16 * sizeof(cl_half));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof scale, &scale), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof offset, offset), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, sizeof pair, &pair), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 3, sizeof(cl_mem), out.address()), CL_SUCCESS);
  run_1d(env.queue, kernel, 16);
  const auto values = read_buffer<uint16_t>(env.queue, out.get(), 16);
  for (size_t g = 0; g < 16; ++g) {
    const double offsets[4] = {1, 2, -4, 0.25};
    EXPECT_EQ(values[g], half_bits(0.5 * g + offsets[g % 4] + 10 - 2.5 + 3)) << "work-item " << g;
  }
  // A half argument has the size of a half.
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_float), &scale), CL_INVALID_ARG_SIZE);
}

TEST_P(Fp16Kernels, VectorLoadsStoresAndShufflesOfHalves) {
  const size_t n = 64;
  std::vector<uint16_t> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = half_bits(static_cast<double>(i) - 20.5);
  BuiltProgram program(env, std::string(kFp16Pragmas) +
                                "kernel void k(global const half* in, global half* out, local half* scratch) {\n"
                                "  half16 v = vload16(0, in + 16 * get_group_id(0));\n"
                                "  half8 s = shuffle(v, (ushort8)(15, 0, 14, 1, 13, 2, 12, 3));\n"
                                "  half4 t = shuffle2(v.lo.lo, v.hi.hi, (ushort4)(7, 0, 6, 1));\n"
                                "  vstore8(s, 0, out + 16 * get_group_id(0));\n"
                                "  vstore3(t.xyz, 0, scratch);\n"
                                "  event_t e = async_work_group_copy(out + 16 * get_group_id(0) + 8, scratch, 3, 0);\n"
                                "  wait_group_events(1, &e);\n"
                                "}\n");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.in(in).out<uint16_t>(n, 0xffff).local(3 * sizeof(cl_half));
  launch.run(n / 16, 1);
  const auto out = launch.result<uint16_t>(1);
  for (size_t group = 0; group < n / 16; ++group) {
    const uint16_t* v = &in[16 * group];
    const uint16_t want[11] = {v[15], v[0], v[14], v[1], v[13], v[2], v[12], v[3], v[15], v[0], v[14]};
    for (size_t i = 0; i < 11; ++i) EXPECT_EQ(out[16 * group + i], want[i]) << "group " << group << " lane " << i;
    EXPECT_EQ(out[16 * group + 11], 0xffff);
  }
}

TEST_P(Fp16Kernels, PrintfShowsHalfValues) {
  BuiltProgram program(env, std::string(kFp16Pragmas) +
                                "kernel void k(half x) {\n"
                                "  half4 v = (half4)(x, -x, x * 2.0h, 0.125h);\n"
                                "  printf(\"scalar %.3f vector %v4hf\\n\", x, v);\n"
                                "}\n");
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  const cl_half x = half_bits(1.5);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof x, &x), CL_SUCCESS);
  CapturedStdout captured;
  run_1d(env.queue, kernel, 1);
  EXPECT_EQ(captured.text(), "scalar 1.500 vector 1.500000,-1.500000,3.000000,0.125000\n");
}

TEST_P(Fp16Kernels, ImagesReadAndWriteHalves) {
  cl_bool images = CL_FALSE;
  clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr);
  if (!images) GTEST_SKIP() << "no image support";
  const size_t width = 8, height = 4;
  cl_image_format format = {CL_RGBA, CL_HALF_FLOAT};
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  cl_int status = CL_SUCCESS;
  cl_mem source = clCreateImage(env.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  cl_mem target = clCreateImage(env.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  std::vector<uint16_t> pixels(width * height * 4);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = half_bits(static_cast<double>(i) * 0.375 - 7);
  const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  ASSERT_EQ(clEnqueueWriteImage(env.queue, source, CL_TRUE, origin, region, 0, 0, pixels.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  BuiltProgram program(env, std::string(kFp16Pragmas) +
                                "constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE "
                                "| CLK_FILTER_NEAREST;\n"
                                "kernel void k(read_only image2d_t in, write_only image2d_t out) {\n"
                                "  int2 at = (int2)(get_global_id(0), get_global_id(1));\n"
                                "  half4 a = read_imageh(in, at);\n"
                                "  half4 b = read_imageh(in, nearest, convert_float2(at) + 0.5f);\n"
                                "  write_imageh(out, at, a + b * 0.5h);\n"
                                "}\n");
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof source, &source), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof target, &target), CL_SUCCESS);
  const size_t global[2] = {width, height};
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint16_t> result(pixels.size());
  ASSERT_EQ(clEnqueueReadImage(env.queue, target, CL_TRUE, origin, region, 0, 0, result.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double p = half_to_double(pixels[i]);
    EXPECT_EQ(result[i], half_bits(p + half_to_double(half_bits(p * 0.5)))) << "channel " << i;
  }
  clReleaseMemObject(source);
  clReleaseMemObject(target);
}

// SPIR-V's Float16 capability: half arithmetic and conversions from a module the SPIR-V
// translator made of OpenCL C, and the capability in the device's SPIR-V queries.
TEST_P(Fp16Kernels, SpirvModulesWithFloat16Run) {
  if (!lists_spirv(env.device)) GTEST_SKIP() << "no SPIR-V";
  const std::vector<cl_uint> capabilities = spirv_capabilities(env.device);
  constexpr cl_uint kFloat16 = 9;
  EXPECT_NE(std::find(capabilities.begin(), capabilities.end(), kFloat16), capabilities.end());

  const std::string il = spirv_from_opencl_c(
      std::string(kFp16Pragmas) +
      "kernel void k(global const half* a, global half* out, global float* widened) {\n"
      "  size_t g = get_global_id(0), n = get_global_size(0);\n"
      "  half x = a[g];\n"
      "  out[g] = x * x + (half)1;\n"
      "  out[n + g] = convert_half_rtz((float)g * 1.001f);\n"
      "  widened[g] = x;\n"
      "}\n");
  ASSERT_FALSE(il.empty());
  BuiltProgram program = BuiltProgram::from_il(env, il);
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  const size_t n = 2048;
  std::vector<uint16_t> a(n);
  for (size_t i = 0; i < n; ++i) a[i] = half_bits(static_cast<double>(i) / 16 - 50);
  Launch launch(env, kernel);
  launch.in(a).out<uint16_t>(2 * n).out<float>(n);
  launch.run(n);
  const auto out = launch.result<uint16_t>(1);
  const auto widened = launch.result<float>(2);
  for (size_t i = 0; i < n; ++i) {
    const double x = half_to_double(a[i]);
    const double square = half_to_double(half_bits(x * x));
    // x * x + 1 may be one fused operation.
    if (out[i] != half_bits(square + 1)) {
      EXPECT_EQ(out[i], half_bits(x * x + 1)) << "x = " << x;
    }
    EXPECT_EQ(out[n + i], double_to_half(static_cast<float>(i) * 1.001f, Rounding::kTowardZero)) << i;
    EXPECT_EQ(widened[i], static_cast<float>(x));
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, Fp16Kernels, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// Kernels on a GPU: NDRanges the launch splits into several CUDA launches (non-uniform
// work-groups, global offsets, grids past CUDA's limits), __local arguments as dynamic
// shared memory (beyond the 48 KiB default too), by-value arguments, printf, the kernel
// work-group queries, and the work-group size cucl picks for a NULL local size.
// Kernel tests that run on every device live in the other test_*.cpp files.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "support/captured_stdout.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;

namespace {

constexpr const char* kCl3 = "-cl-std=CL3.0";

class CudaKernels : public GpuTest {
 protected:
  // Enqueues `kernel` and waits; the enqueue's status.
  cl_int run(cl_kernel kernel, cl_uint dims, const size_t* offset, const size_t* global, const size_t* local) {
    cl_int status = clEnqueueNDRangeKernel(queue(), kernel, dims, offset, global, local, 0, nullptr, nullptr);
    if (status == CL_SUCCESS) {
      EXPECT_EQ(clFinish(queue()), CL_SUCCESS);
    }
    return status;
  }

  template <class T>
  T group_info(cl_kernel kernel, cl_kernel_work_group_info param) {
    T value{};
    EXPECT_EQ(clGetKernelWorkGroupInfo(kernel, gpu, param, sizeof value, &value, nullptr), CL_SUCCESS) << param;
    return value;
  }

  template <class T>
  T device_info(cl_device_info param) {
    return info_value<T>(clGetDeviceInfo, gpu, param);
  }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every work-item function, one record of kFields values per work-item.
constexpr size_t kFields = 16;
constexpr const char* kWorkItemSource = R"CL(
kernel void items(global uint* out) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  global uint* r = out + (y * get_global_size(0) + x) * 16;
  r[0] = get_global_id(0);         r[1] = get_global_id(1);
  r[2] = get_local_id(0);          r[3] = get_local_id(1);
  r[4] = get_local_size(0);        r[5] = get_local_size(1);
  r[6] = get_group_id(0);          r[7] = get_group_id(1);
  r[8] = get_num_groups(0);        r[9] = get_num_groups(1);
  r[10] = get_enqueued_local_size(0); r[11] = get_enqueued_local_size(1);
  r[12] = get_global_size(0);      r[13] = get_global_size(1);
  r[14] = get_work_dim();          r[15] = get_local_linear_id();
}
)CL";

TEST_F(CudaKernels, NonUniformTwoDimensionalRangeWithAnOffset) {
  BuiltProgram program(*env, kWorkItemSource, kCl3);
  cl_kernel kernel = program.kernel("items");
  ASSERT_NE(kernel, nullptr);
  const size_t global[2] = {37, 19}, local[2] = {8, 4}, offset[2] = {5, 3};
  const size_t items = global[0] * global[1];
  DeviceBuffer out(context(), items * kFields * sizeof(cl_uint));
  set_args(kernel, out.get());
  ASSERT_EQ(run(kernel, 2, offset, global, local), CL_SUCCESS);
  auto values = read_buffer<cl_uint>(queue(), out.get(), items * kFields);
  for (size_t y = 0; y < global[1]; ++y) {
    for (size_t x = 0; x < global[0]; ++x) {
      const cl_uint* r = &values[(y * global[0] + x) * kFields];
      const size_t position[2] = {x, y};
      SCOPED_TRACE("work-item " + std::to_string(x) + "," + std::to_string(y));
      for (unsigned d = 0; d < 2; ++d) {
        const size_t group = position[d] / local[d];
        const size_t groups = (global[d] + local[d] - 1) / local[d];
        const size_t size = std::min(local[d], global[d] - group * local[d]);
        EXPECT_EQ(r[0 + d], offset[d] + position[d]);
        EXPECT_EQ(r[2 + d], position[d] % local[d]);
        EXPECT_EQ(r[4 + d], size) << "get_local_size(" << d << ")";
        EXPECT_EQ(r[6 + d], group);
        EXPECT_EQ(r[8 + d], groups);
        EXPECT_EQ(r[10 + d], local[d]);
        EXPECT_EQ(r[12 + d], global[d]);
      }
      EXPECT_EQ(r[14], 2u);
      const size_t width = std::min(local[0], global[0] - x / local[0] * local[0]);
      EXPECT_EQ(r[15], (y % local[1]) * width + x % local[0]);
    }
  }
}

TEST_F(CudaKernels, GridsBeyondCudaLimitsAreSplit) {
  // 70000 groups along y: more than one CUDA launch may have (65535).
  BuiltProgram program(*env, kWorkItemSource, kCl3);
  cl_kernel kernel = program.kernel("items");
  ASSERT_NE(kernel, nullptr);
  const size_t global[2] = {2, 70000}, local[2] = {2, 1};
  const size_t items = global[0] * global[1];
  DeviceBuffer out(context(), items * kFields * sizeof(cl_uint));
  set_args(kernel, out.get());
  ASSERT_EQ(run(kernel, 2, nullptr, global, local), CL_SUCCESS);
  auto values = read_buffer<cl_uint>(queue(), out.get(), items * kFields);
  size_t wrong = 0;
  for (size_t y = 0; y < global[1]; ++y) {
    for (size_t x = 0; x < global[0]; ++x) {
      const cl_uint* r = &values[(y * global[0] + x) * kFields];
      wrong += r[0] != x || r[1] != y || r[6] != 0 || r[7] != y || r[9] != global[1];
    }
  }
  EXPECT_EQ(wrong, 0u);
}

TEST_F(CudaKernels, LocalArgumentsAndAKernelScopeLocalArray) {
  BuiltProgram program(*env, R"CL(
kernel void reduce(global const int* in, global int* out, local int* a, local uchar* b, global int* errors) {
  local int scratch[64];
  size_t l = get_local_id(0), g = get_group_id(0);
  a[l] = in[get_global_id(0)];
  if (l == 0) a[64] = 12345;
  if (l < 37) b[l] = (uchar)(l + 100);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 32; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) {
    int sum = 0, bad = a[64] != 12345;
    for (int i = 0; i < 64; ++i) sum += a[i];
    for (int i = 0; i < 37; ++i) bad += b[i] != i + 100;
    out[2 * g] = scratch[0];
    out[2 * g + 1] = sum;
    errors[g] = bad;
  }
}
)CL");
  cl_kernel kernel = program.kernel("reduce");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t kGroups = 40, kLocal = 64, kItems = kGroups * kLocal;
  std::vector<cl_int> input(kItems);
  std::iota(input.begin(), input.end(), -1000);
  DeviceBuffer in(context(), kItems * sizeof(cl_int), input.data());
  DeviceBuffer out(context(), 2 * kGroups * sizeof(cl_int));
  DeviceBuffer errors(context(), kGroups * sizeof(cl_int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), in.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, 65 * sizeof(cl_int), nullptr), CL_SUCCESS);  // 260 bytes
  ASSERT_EQ(clSetKernelArg(kernel, 3, 37, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 4, sizeof(cl_mem), errors.address()), CL_SUCCESS);
  EXPECT_GE(group_info<cl_ulong>(kernel, CL_KERNEL_LOCAL_MEM_SIZE), 64u * 4 + 260 + 37);
  const size_t global = kItems, local = kLocal;
  ASSERT_EQ(run(kernel, 1, nullptr, &global, &local), CL_SUCCESS);
  auto sums = read_buffer<cl_int>(queue(), out.get(), 2 * kGroups);
  auto bad = read_buffer<cl_int>(queue(), errors.get(), kGroups);
  for (size_t g = 0; g < kGroups; ++g) {
    const cl_int expected = std::accumulate(input.begin() + g * kLocal, input.begin() + (g + 1) * kLocal, 0);
    EXPECT_EQ(sums[2 * g], expected) << "group " << g;
    EXPECT_EQ(sums[2 * g + 1], expected) << "group " << g;
    EXPECT_EQ(bad[g], 0) << "group " << g << ": the __local arguments overlap";
  }
}

TEST_F(CudaKernels, LocalArgumentsBeyondTheDefault48KiB) {
  constexpr size_t kBytes = 64 * 1024;
  if (device_info<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE) < kBytes + 1024) GTEST_SKIP() << "less than 65 KiB of __local memory";
  BuiltProgram program(*env, R"CL(
kernel void big(local float* scratch, uint count, global float* out) {
  size_t l = get_local_id(0), n = get_local_size(0);
  for (uint i = l; i < count; i += n) scratch[i] = (float)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = l; i < count; i += n) out[get_group_id(0) * count + i] = scratch[count - 1 - i];
}
)CL");
  cl_kernel kernel = program.kernel("big");
  ASSERT_NE(kernel, nullptr);
  const cl_uint count = kBytes / sizeof(float);
  constexpr size_t kGroups = 3;
  DeviceBuffer out(context(), kGroups * count * sizeof(float));
  ASSERT_EQ(clSetKernelArg(kernel, 0, kBytes, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof count, &count), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, sizeof(cl_mem), out.address()), CL_SUCCESS);
  const size_t global = kGroups * 256, local = 256;
  ASSERT_EQ(run(kernel, 1, nullptr, &global, &local), CL_SUCCESS);
  auto values = read_buffer<float>(queue(), out.get(), kGroups * count);
  size_t wrong = 0;
  for (size_t g = 0; g < kGroups; ++g) {
    for (size_t i = 0; i < count; ++i) wrong += values[g * count + i] != static_cast<float>(count - 1 - i);
  }
  EXPECT_EQ(wrong, 0u);

  // More than the device has: refused at enqueue, and the queue still works afterwards.
  const cl_ulong too_much = device_info<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE) + 4;
  ASSERT_EQ(clSetKernelArg(kernel, 0, too_much, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue(), kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_OUT_OF_RESOURCES);
  ASSERT_EQ(clSetKernelArg(kernel, 0, kBytes, nullptr), CL_SUCCESS);
  EXPECT_EQ(run(kernel, 1, nullptr, &global, &local), CL_SUCCESS);
}

TEST_F(CudaKernels, ByValueStructsAndVectors) {
  BuiltProgram program(*env, R"CL(
typedef struct { int a; float b; long c; char d; } Mixed;
kernel void values(char tag, Mixed s, float4 v4, float3 v3, double d, global float* out, global long* whole) {
  out[0] = s.b;
  out[1] = v4.x; out[2] = v4.y; out[3] = v4.z; out[4] = v4.w;
  out[5] = v3.x; out[6] = v3.y; out[7] = v3.z;
  whole[0] = s.a; whole[1] = s.c; whole[2] = s.d; whole[3] = tag; whole[4] = (long)(d * 1000.0);
}
)CL");
  cl_kernel kernel = program.kernel("values");
  ASSERT_NE(kernel, nullptr);
  struct Mixed {
    cl_int a;
    cl_float b;
    cl_long c;
    cl_char d;
  } mixed{-7, 2.5f, 0x123456789abcLL, 'q'};
  cl_float4 v4{{1.5f, -2.5f, 3.25f, 4.0f}};
  cl_float3 v3{{7.0f, 8.5f, -9.0f}};
  cl_char tag = 42;
  cl_double d = 3.25;
  DeviceBuffer out(context(), 8 * sizeof(float));
  DeviceBuffer whole(context(), 5 * sizeof(cl_long));
  set_args(kernel, tag, mixed, v4, v3, d, out.get(), whole.get());
  const size_t one = 1;
  ASSERT_EQ(run(kernel, 1, nullptr, &one, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<float>(queue(), out.get(), 8),
            (std::vector<float>{2.5f, 1.5f, -2.5f, 3.25f, 4.0f, 7.0f, 8.5f, -9.0f}));
  EXPECT_EQ(read_buffer<cl_long>(queue(), whole.get(), 5),
            (std::vector<cl_long>{-7, 0x123456789abcLL, 'q', 42, 3250}));
}

TEST_F(CudaKernels, ManyArguments) {
  // More arguments than the launch keeps inline (32).
  std::string parameters, sum;
  constexpr int kCount = 40;
  for (int i = 0; i < kCount; ++i) {
    parameters += "int a" + std::to_string(i) + ", ";
    sum += (i ? " + a" : "a") + std::to_string(i) + " * " + std::to_string(i + 1);
  }
  BuiltProgram program(*env, "kernel void many(" + parameters + "global int* out) { out[get_global_id(0)] = " + sum +
                                 "; }");
  cl_kernel kernel = program.kernel("many");
  ASSERT_NE(kernel, nullptr);
  cl_int expected = 0;
  for (cl_int i = 0; i < kCount; ++i) {
    const cl_int value = 3 * i - 17;
    ASSERT_EQ(clSetKernelArg(kernel, i, sizeof value, &value), CL_SUCCESS);
    expected += value * (i + 1);
  }
  DeviceBuffer out(context(), 100 * sizeof(cl_int));
  ASSERT_EQ(clSetKernelArg(kernel, kCount, sizeof(cl_mem), out.address()), CL_SUCCESS);
  const size_t global = 100;
  ASSERT_EQ(run(kernel, 1, nullptr, &global, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<cl_int>(queue(), out.get(), 100), std::vector<cl_int>(100, expected));
}

TEST_F(CudaKernels, PrintfOutputComesInLaunchOrder) {
  BuiltProgram program(*env, R"CL(
kernel void hello(int launch, float f) {
  if (get_global_id(0) == 0) printf("launch %d: %.2f %s %v4d\n", launch, f, "ok", (int4)(1, 2, 3, 4));
}
kernel void every(int launch) { printf("%d/%d\n", launch, (int)get_global_id(0)); }
)CL", kCl3);
  cl_kernel hello = program.kernel("hello");
  cl_kernel every = program.kernel("every");
  ASSERT_TRUE(hello && every);
  std::string text;
  {
    CapturedStdout captured;
    const size_t global = 64;
    for (cl_int launch = 0; launch < 3; ++launch) {  // the printf buffer is reused between launches
      set_args(hello, launch, 0.5f + launch);
      ASSERT_EQ(clEnqueueNDRangeKernel(queue(), hello, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
                CL_SUCCESS);
    }
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
    text = captured.text();
  }
  EXPECT_EQ(text, "launch 0: 0.50 ok 1,2,3,4\nlaunch 1: 1.50 ok 1,2,3,4\nlaunch 2: 2.50 ok 1,2,3,4\n");

  {
    CapturedStdout captured;
    const size_t global = 100, local = 32;  // non-uniform: the edge group prints too
    set_args(every, cl_int{7});
    ASSERT_EQ(run(every, 1, nullptr, &global, &local), CL_SUCCESS);
    text = captured.text();
  }
  auto lines = lines_of(text);
  std::sort(lines.begin(), lines.end());
  std::vector<std::string> expected;
  for (size_t i = 0; i < 100; ++i) expected.push_back("7/" + std::to_string(i));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(lines, expected);
}

TEST_F(CudaKernels, WorkGroupQueries) {
  BuiltProgram program(*env, R"CL(
kernel void plain(global int* out) { out[get_global_id(0)] = 1; }
kernel void heavy(global int* out, local int* extra, int index) {
  local int table[1000];
  int priv[256];
  for (int i = 0; i < 256; ++i) priv[i] = out[i] * i;
  table[get_local_id(0)] = priv[index & 255];
  extra[get_local_id(0)] = table[index % 1000];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = extra[0] + priv[(index + 7) & 255];
}
)CL");
  cl_kernel plain = program.kernel("plain");
  cl_kernel heavy = program.kernel("heavy");
  ASSERT_TRUE(plain && heavy);
  const size_t device_max = device_info<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  for (cl_kernel kernel : {plain, heavy}) {
    const size_t size = group_info<size_t>(kernel, CL_KERNEL_WORK_GROUP_SIZE);
    EXPECT_GE(size, 1u);
    EXPECT_LE(size, device_max);
    EXPECT_EQ(group_info<size_t>(kernel, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), 32u);
  }
  EXPECT_EQ(group_info<cl_ulong>(plain, CL_KERNEL_LOCAL_MEM_SIZE), 0u);
  EXPECT_GE(group_info<cl_ulong>(heavy, CL_KERNEL_LOCAL_MEM_SIZE), 4000u);
  const cl_ulong without_argument = group_info<cl_ulong>(heavy, CL_KERNEL_LOCAL_MEM_SIZE);
  ASSERT_EQ(clSetKernelArg(heavy, 1, 512, nullptr), CL_SUCCESS);
  EXPECT_EQ(group_info<cl_ulong>(heavy, CL_KERNEL_LOCAL_MEM_SIZE), without_argument + 512);
  // A dynamically indexed private array lives in local (per-thread) memory.
  EXPECT_GE(group_info<cl_ulong>(heavy, CL_KERNEL_PRIVATE_MEM_SIZE), 1024u);

  // A work-group larger than the kernel allows is refused.
  const size_t limit = group_info<size_t>(heavy, CL_KERNEL_WORK_GROUP_SIZE);
  if (limit < device_max) {
    DeviceBuffer out(context(), 4096 * sizeof(cl_int));
    const cl_int index = 3;
    ASSERT_EQ(clSetKernelArg(heavy, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(heavy, 2, sizeof index, &index), CL_SUCCESS);
    const size_t local = device_max, global = device_max;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue(), heavy, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_INVALID_WORK_GROUP_SIZE);
  }
}

TEST_F(CudaKernels, NullLocalSize) {
  BuiltProgram program(*env, R"CL(
kernel void sizes(global uint* out) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[3 * i] = (uint)get_local_size(0);
  out[3 * i + 1] = (uint)get_local_size(1);
  out[3 * i + 2] = (uint)(i + 1);
}
)CL");
  cl_kernel kernel = program.kernel("sizes");
  ASSERT_NE(kernel, nullptr);
  const size_t kernel_limit = group_info<size_t>(kernel, CL_KERNEL_WORK_GROUP_SIZE);
  for (auto [x, y] : {std::pair<size_t, size_t>{1 << 20, 1}, {1000, 300}, {7, 13}}) {
    SCOPED_TRACE(std::to_string(x) + "x" + std::to_string(y));
    const size_t global[2] = {x, y};
    DeviceBuffer out(context(), 3 * x * y * sizeof(cl_uint));
    set_args(kernel, out.get());
    ASSERT_EQ(run(kernel, 2, nullptr, global, nullptr), CL_SUCCESS);
    auto values = read_buffer<cl_uint>(queue(), out.get(), 3 * x * y);
    const cl_uint local_x = values[0], local_y = values[1];
    EXPECT_GE(local_x, 1u);
    EXPECT_GE(local_y, 1u);
    EXPECT_LE(size_t{local_x} * local_y, kernel_limit);
    EXPECT_EQ(x % local_x, 0u) << "uniform groups";
    EXPECT_EQ(y % local_y, 0u) << "uniform groups";
    size_t wrong = 0;
    for (size_t i = 0; i < x * y; ++i) {
      wrong += values[3 * i] != local_x || values[3 * i + 1] != local_y || values[3 * i + 2] != i + 1;
    }
    EXPECT_EQ(wrong, 0u);
  }
}

// A NULL local size over a power-of-two range takes blocks of a power of two up to 256 (the
// largest that keeps as many threads resident as the occupancy calculator's size), never a
// larger divisor that would keep fewer (512 of a 768-thread calculator size: one block per SM).
TEST_F(CudaKernels, NullLocalSizeOfAPowerOfTwoRangeIsAPowerOfTwoUpTo256) {
  BuiltProgram program(*env, R"CL(
kernel void sizes(global uint* out) {
  if (get_global_id(0) == 0 && get_global_id(1) == 0) out[0] = (uint)(get_local_size(0) * get_local_size(1));
}
)CL");
  cl_kernel kernel = program.kernel("sizes");
  ASSERT_NE(kernel, nullptr);
  const size_t global[2] = {4096, 4096};
  DeviceBuffer out(context(), sizeof(cl_uint));
  set_args(kernel, out.get());
  ASSERT_EQ(run(kernel, 2, nullptr, global, nullptr), CL_SUCCESS);
  const cl_uint group = read_buffer<cl_uint>(queue(), out.get(), 1)[0];
  EXPECT_LE(group, 256u);
  EXPECT_GE(group, 32u);
  EXPECT_EQ(group & (group - 1), 0u) << group << " is not a power of two";
}

TEST_F(CudaKernels, ProgramBinariesLoadAgain) {
  BuiltProgram built(*env, "kernel void twice(global int* p) { p[get_global_id(0)] *= 2; }");
  ASSERT_TRUE(built);
  size_t length = 0;
  ASSERT_EQ(clGetProgramInfo(built.program(), CL_PROGRAM_BINARY_SIZES, sizeof length, &length, nullptr), CL_SUCCESS);
  std::vector<unsigned char> binary(length);
  unsigned char* data = binary.data();
  ASSERT_EQ(clGetProgramInfo(built.program(), CL_PROGRAM_BINARIES, sizeof data, &data, nullptr), CL_SUCCESS);
  const unsigned char* input = binary.data();
  cl_int status = CL_SUCCESS, binary_status = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context(), 1, &gpu, &length, &input, &binary_status, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(binary_status, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 1, &gpu, nullptr, nullptr, nullptr), CL_SUCCESS) << build_log(program, gpu);
  cl_kernel kernel = clCreateKernel(program, "twice", &status);
  ASSERT_EQ(status, CL_SUCCESS);
  std::vector<cl_int> values(256);
  std::iota(values.begin(), values.end(), 0);
  DeviceBuffer buffer(context(), values.size() * sizeof(cl_int), values.data());
  set_args(kernel, buffer.get());
  const size_t global = values.size();
  EXPECT_EQ(run(kernel, 1, nullptr, &global, nullptr), CL_SUCCESS);
  auto doubled = read_buffer<cl_int>(queue(), buffer.get(), values.size());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(doubled[i], 2 * values[i]) << i;
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

}  // namespace

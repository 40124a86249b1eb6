// clSetKernelArg through the loader: every kind of argument, its size rules and errors, and
// the values the kernel then sees.
#include <cstring>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

class KernelArgs : public DeviceTest {};

// Every by-value kind: the kernel writes what it got, as bytes, to `out`.
constexpr const char* kValueKinds = R"(
  typedef struct { char c; int i; short s; double d; float f; } Mixed;
  kernel void values(global uchar* out, char c, short s, int i, long l, float f, double d, float2 f2, float3 f3,
                     float4 f4, int8 i8, uchar16 u16, Mixed m) {
    int at = 0;
    #define PUT(v) { __typeof__(v) copy = v; for (int b = 0; b < (int)sizeof(copy); ++b) out[at++] = ((uchar*)&copy)[b]; }
    PUT(c) PUT(s) PUT(i) PUT(l) PUT(f) PUT(d) PUT(f2) PUT(f3.x) PUT(f3.y) PUT(f3.z) PUT(f4) PUT(i8) PUT(u16)
    PUT(m.c) PUT(m.i) PUT(m.s) PUT(m.d) PUT(m.f)
  })";

struct Mixed {
  cl_char c;
  cl_int i;
  cl_short s;
  cl_double d;
  cl_float f;
};

template <class T>
void append(std::vector<unsigned char>& bytes, const T& value) {
  const auto* raw = reinterpret_cast<const unsigned char*>(&value);
  bytes.insert(bytes.end(), raw, raw + sizeof value);
}

TEST_P(KernelArgs, EveryByValueKindArrivesIntact) {
  BuiltProgram program(env, kValueKinds);
  cl_kernel kernel = program.kernel("values");
  ASSERT_NE(kernel, nullptr);
  const cl_char c = -5;
  const cl_short s = -1234;
  const cl_int i = 123456789;
  const cl_long l = -1234567890123456789LL;
  const cl_float f = 3.25f;
  const cl_double d = -2.5e100;
  const cl_float2 f2 = {{1.5f, -2.5f}};
  const cl_float3 f3 = {{7.0f, 8.0f, 9.0f}};
  const cl_float4 f4 = {{1.0f, 2.0f, 3.0f, 4.0f}};
  cl_int8 i8;
  for (int k = 0; k < 8; ++k) i8.s[k] = k * 1000 - 3;
  cl_uchar16 u16;
  for (int k = 0; k < 16; ++k) u16.s[k] = static_cast<cl_uchar>(250 - k);
  const Mixed m{-7, 77, 777, 7.75, -0.5f};
  DeviceBuffer out(env.context, 256);
  set_args(kernel, out.get(), c, s, i, l, f, d, f2, f3, f4, i8, u16, m);
  EXPECT_EQ(sizeof f3, 16u);

  std::vector<unsigned char> expected;
  append(expected, c), append(expected, s), append(expected, i), append(expected, l), append(expected, f);
  append(expected, d), append(expected, f2), append(expected, f3.s[0]), append(expected, f3.s[1]);
  append(expected, f3.s[2]), append(expected, f4), append(expected, i8), append(expected, u16);
  append(expected, m.c), append(expected, m.i), append(expected, m.s), append(expected, m.d), append(expected, m.f);
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_SUCCESS);
  const auto bytes = read_buffer<unsigned char>(env.queue, out.get(), expected.size());
  EXPECT_EQ(bytes, expected);
}

TEST_P(KernelArgs, ByValueSizesMustMatchExactly) {
  BuiltProgram program(env, kValueKinds);
  cl_kernel kernel = program.kernel("values");
  ASSERT_NE(kernel, nullptr);
  unsigned char zeros[128] = {};
  struct Expect {
    cl_uint index;
    size_t size;
  };
  // char, short, int, long, float, double, float2, float3 (16 bytes, as cl_float3), float4,
  // int8, uchar16, the struct.
  for (Expect e : {Expect{1, 1}, Expect{2, 2}, Expect{3, 4}, Expect{4, 8}, Expect{5, 4}, Expect{6, 8}, Expect{7, 8},
                   Expect{8, 16}, Expect{9, 16}, Expect{10, 32}, Expect{11, 16}, Expect{12, sizeof(Mixed)}}) {
    EXPECT_EQ(clSetKernelArg(kernel, e.index, e.size, zeros), CL_SUCCESS) << e.index;
    for (size_t wrong : {size_t{0}, e.size - 1, e.size + 1, e.size * 2}) {
      if (wrong == e.size) continue;
      EXPECT_EQ(clSetKernelArg(kernel, e.index, wrong, zeros), CL_INVALID_ARG_SIZE) << e.index << " " << wrong;
    }
    EXPECT_EQ(clSetKernelArg(kernel, e.index, e.size, nullptr), CL_INVALID_ARG_VALUE) << e.index;
  }
  EXPECT_EQ(clSetKernelArg(kernel, 8, 12, zeros), CL_INVALID_ARG_SIZE) << "a float3 takes 16 bytes, not 12";
  EXPECT_EQ(clSetKernelArg(kernel, 13, 4, zeros), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(kernel, ~0u, 4, zeros), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(nullptr, 0, 4, zeros), CL_INVALID_KERNEL);
  EXPECT_EQ(clSetKernelArg(reinterpret_cast<cl_kernel>(env.queue), 0, 4, zeros), CL_INVALID_KERNEL);
}

constexpr const char* kPointers = R"(
  kernel void pointers(global int* out, global const int* maybe_null, constant int* table, local int* scratch) {
    size_t l = get_local_id(0);
    scratch[l] = table[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (maybe_null ? maybe_null[0] : -1) + scratch[get_local_size(0) - 1 - l];
  })";

TEST_P(KernelArgs, BufferConstantAndLocalArguments) {
  BuiltProgram program(env, kPointers);
  cl_kernel kernel = program.kernel("pointers");
  ASSERT_NE(kernel, nullptr);
  std::vector<int> table(16);
  for (int i = 0; i < 16; ++i) table[i] = i * 10;
  const int hundred = 100;
  DeviceBuffer out(env.context, 32 * sizeof(int));
  DeviceBuffer one(env.context, sizeof(int), &hundred);
  DeviceBuffer constants(env.context, table.size() * sizeof(int), table.data());
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), one.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, sizeof(cl_mem), constants.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 3, 16 * sizeof(int), nullptr), CL_SUCCESS);
  run_1d(env.queue, kernel, 32, 16);
  auto values = read_buffer<int>(env.queue, out.get(), 32);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(values[i], 100 + (15 - i % 16) * 10) << i;

  // NULL as arg_value, or a pointer to a NULL cl_mem, passes a NULL pointer.
  const cl_mem null_mem = nullptr;
  for (const void* value : {static_cast<const void*>(nullptr), static_cast<const void*>(&null_mem)}) {
    ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), value), CL_SUCCESS);
    run_1d(env.queue, kernel, 32, 16);
    values = read_buffer<int>(env.queue, out.get(), 32);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(values[i], -1 + (15 - i % 16) * 10) << i;
  }
}

TEST_P(KernelArgs, PointerArgumentErrors) {
  BuiltProgram program(env, kPointers);
  cl_kernel kernel = program.kernel("pointers");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer buffer(env.context, 64);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem) - 1, buffer.address()), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem) + 1, buffer.address()), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(kernel, 2, 0, buffer.address()), CL_INVALID_ARG_SIZE);
  const cl_mem not_memory = reinterpret_cast<cl_mem>(env.queue);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &not_memory), CL_INVALID_MEM_OBJECT);
  const cl_mem garbage = reinterpret_cast<cl_mem>(uintptr_t{0x1234});
  EXPECT_EQ(clSetKernelArg(kernel, 2, sizeof(cl_mem), &garbage), CL_INVALID_MEM_OBJECT);
  Env other(env.device);
  DeviceBuffer foreign(other.context, 64);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), foreign.address()), CL_INVALID_CONTEXT);
  EXPECT_EQ(clSetKernelArg(kernel, 2, sizeof(cl_mem), foreign.address()), CL_INVALID_CONTEXT);
  // __local: a size (zero too, on an OpenCL 3.1 platform) and no value.
  EXPECT_EQ(clSetKernelArg(kernel, 3, 0, nullptr), CL_SUCCESS);
  int value = 0;
  EXPECT_EQ(clSetKernelArg(kernel, 3, sizeof value, &value), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(kernel, 3, 1, nullptr), CL_SUCCESS);
}

// OpenCL 3.1: a __local argument of size zero launches (a kernel that does not touch it).
TEST_P(KernelArgs, AnEmptyLocalArgumentLaunches) {
  BuiltProgram program(env, R"(
    kernel void k(global int* out, local int* unused, local int* used) {
      used[get_local_id(0)] = (int)get_global_id(0);
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = used[get_local_size(0) - 1 - get_local_id(0)] + (unused == 0 ? 0 : 0);
    })");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  const size_t global = 256, local = 64;
  DeviceBuffer out(env.context, global * sizeof(cl_int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, 0, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, local * sizeof(cl_int), nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  auto r = read_buffer<cl_int>(env.queue, out.get(), global);
  for (size_t i = 0; i < global; ++i) ASSERT_EQ(r[i], cl_int(i / local * local + local - 1 - i % local)) << i;
}

TEST_P(KernelArgs, UnsetArgumentsBlockTheLaunch) {
  BuiltProgram program(env, kPointers);
  cl_kernel kernel = program.kernel("pointers");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer buffer(env.context, 64 * sizeof(int));
  const size_t global = 16;
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), buffer.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 3, 64, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &global, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  EXPECT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_INVALID_KERNEL_ARGS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, sizeof(cl_mem), buffer.address()), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &global, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
}

TEST_P(KernelArgs, AFailedSetKeepsThePreviousValue) {
  BuiltProgram program(env, "kernel void k(global int* out, int v) { out[0] = v; }");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer out(env.context, sizeof(int));
  const int v = 41;
  const long wrong = 99;
  set_args(kernel, out.get(), v);
  EXPECT_EQ(clSetKernelArg(kernel, 1, sizeof wrong, &wrong), CL_INVALID_ARG_SIZE);
  const cl_mem not_memory = reinterpret_cast<cl_mem>(env.queue);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &not_memory), CL_INVALID_MEM_OBJECT);
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<int>(env.queue, out.get(), 1)[0], 41);
}

TEST_P(KernelArgs, ArgumentValuesAreCopiedAtSetTime) {
  BuiltProgram program(env, "kernel void k(global int* out, int v) { out[0] = v; }");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer out(env.context, sizeof(int));
  int v = 5;
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof v, &v), CL_SUCCESS);
  v = 6;
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<int>(env.queue, out.get(), 1)[0], 5);
  // A launch uses the values set when it was enqueued, whatever is set afterwards.
  cl_event gate = user_event(env.context);
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 1, &gate, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof v, &v), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(read_buffer<int>(env.queue, out.get(), 1)[0], 5);
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<int>(env.queue, out.get(), 1)[0], 6);
  clReleaseEvent(gate);
}

// Setting a buffer argument does not keep the buffer: released, its destructor callback
// runs while the kernel still names it, and a launch then finds no buffer there.
TEST_P(KernelArgs, ABufferArgumentDoesNotKeepTheBufferAlive) {
  BuiltProgram program(env, "kernel void k(global int* out) { out[0] = 1; }");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  cl_int status = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(env.context, CL_MEM_READ_WRITE, sizeof(int), nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  bool destroyed = false;
  ASSERT_EQ(clSetMemObjectDestructorCallback(
                buffer, [](cl_mem, void* flag) { *static_cast<bool*>(flag) = true; }, &destroyed),
            CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffer), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  EXPECT_TRUE(destroyed);
  EXPECT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_INVALID_KERNEL_ARGS);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, KernelArgs, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

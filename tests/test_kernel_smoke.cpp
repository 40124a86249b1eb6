// The kernel pipeline end to end on every device: build, set arguments, run, read back.
#include "support/kernel_support.h"

using namespace cucl_test;

namespace {

class KernelSmoke : public DeviceTest {};

TEST_P(KernelSmoke, ScaledAddOverOneMillionItems) {
  BuiltProgram program(env, R"(
    kernel void scale(global const float* a, global float* b, float s) {
      size_t i = get_global_id(0);
      b[i] = a[i] * s + 1.0f;
    })");
  cl_kernel kernel = program.kernel("scale");
  ASSERT_NE(kernel, nullptr);
  const size_t n = 1 << 20;
  std::vector<float> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = static_cast<float>(i % 1000) * 0.5f;
  DeviceBuffer a(env.context, n * sizeof(float), input.data());
  DeviceBuffer b(env.context, n * sizeof(float));
  const float s = 3.0f;
  set_args(kernel, a.get(), b.get(), s);
  run_1d(env.queue, kernel, n);
  auto output = read_buffer<float>(env.queue, b.get(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(output[i], input[i] * 3.0f + 1.0f) << "at " << i;
}

TEST_P(KernelSmoke, BarrierReversesEachWorkGroupThroughLocalMemory) {
  BuiltProgram program(env, R"(
    kernel void reverse(global int* data, local int* scratch) {
      local int copy[64];
      size_t l = get_local_id(0), n = get_local_size(0);
      copy[l] = data[get_global_id(0)];
      scratch[l] = (int)l;
      barrier(CLK_LOCAL_MEM_FENCE);
      data[get_global_id(0)] = copy[n - 1 - l] + 1000 * scratch[n - 1 - l];
    })");
  cl_kernel kernel = program.kernel("reverse");
  ASSERT_NE(kernel, nullptr);
  std::vector<int> values(512);
  for (int i = 0; i < 512; ++i) values[i] = i;
  DeviceBuffer data(env.context, values.size() * sizeof(int), values.data());
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), data.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, 64 * sizeof(int), nullptr), CL_SUCCESS);
  run_1d(env.queue, kernel, 512, 64);
  auto output = read_buffer<int>(env.queue, data.get(), 512);
  for (int i = 0; i < 512; ++i) {
    const int group = i / 64, l = i % 64;
    ASSERT_EQ(output[i], group * 64 + 63 - l + 1000 * (63 - l)) << "at " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, KernelSmoke, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

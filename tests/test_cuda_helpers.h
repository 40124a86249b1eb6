// Shared by the CUDA device tests (test_cuda_*.cpp). Every test needs a cucl GPU device;
// where there is none (CI has no GPU) it is skipped with the reason.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "buffer_test_helpers.h"
#include "support/test_support.h"

namespace cuda_test {

// The first cucl GPU device, or null.
inline cl_device_id first_gpu() {
  auto gpus = cucl_test::cucl_devices(CL_DEVICE_TYPE_GPU);
  return gpus.empty() ? nullptr : gpus[0];
}

#define CUCL_REQUIRE_GPU(device)                                                                 \
  if (!(device)) GTEST_SKIP() << "no CUDA device: cucl lists no GPU (no driver or no GPU here; " \
                                 "CUCL_DEBUG=1 says why)"

// A context and a queue on the first GPU, made in SetUp so a missing GPU skips the test.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu = first_gpu();
    CUCL_REQUIRE_GPU(gpu);
    env = std::make_unique<cucl_test::Env>(gpu, queue_properties());
    ASSERT_NE(env->queue, nullptr);
  }
  virtual cl_command_queue_properties queue_properties() const { return 0; }
  cl_context context() const { return env->context; }
  cl_command_queue queue() const { return env->queue; }

  cl_device_id gpu = nullptr;
  std::unique_ptr<cucl_test::Env> env;
};

// A context of two devices, one queue on each (open() them in SetUp), released at the end.
class TwoDeviceContextTest : public ::testing::Test {
 protected:
  void open(std::array<cl_device_id, 2> chosen) {
    devices = chosen;
    cl_int status = CL_SUCCESS;
    context = clCreateContext(nullptr, 2, devices.data(), nullptr, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    for (size_t i = 0; i < 2; ++i) {
      queues[i] = clCreateCommandQueue(context, devices[i], 0, &status);
      ASSERT_EQ(status, CL_SUCCESS);
    }
  }
  void TearDown() override {
    for (cl_command_queue queue : queues) {
      if (queue) clReleaseCommandQueue(queue);
    }
    if (context) clReleaseContext(context);
  }

  std::array<cl_device_id, 2> devices{};
  cl_context context = nullptr;
  std::array<cl_command_queue, 2> queues{};
};

// A context with the host device and the first GPU, one queue on each.
class MixedContextTest : public TwoDeviceContextTest {
 protected:
  void SetUp() override {
    cl_device_id gpu = first_gpu();
    CUCL_REQUIRE_GPU(gpu);
    open({cucl_test::host_device(), gpu});
  }
  cl_command_queue host_queue() const { return queues[0]; }
  cl_command_queue gpu_queue() const { return queues[1]; }
};

// A profiling timestamp of `event` (param: CL_PROFILING_COMMAND_*), in nanoseconds.
inline cl_ulong profile(cl_event event, cl_profiling_info param) {
  cl_ulong value = 0;
  EXPECT_EQ(clGetEventProfilingInfo(event, param, sizeof value, &value, nullptr), CL_SUCCESS);
  return value;
}

// The device timer of clGetDeviceAndHostTimer, in nanoseconds.
inline cl_ulong device_timer(cl_device_id device) {
  cl_ulong device_ns = 0, host_ns = 0;
  EXPECT_EQ(clGetDeviceAndHostTimer(device, &device_ns, &host_ns), CL_SUCCESS);
  return device_ns;
}

// The multiplier and increment of the tests' long-running kernels' dependent step (a 32-bit LCG's).
constexpr cl_uint kAffineMul = 1664525u, kAffineInc = 1013904223u;

// x -> mul * x + inc applied `steps` times in 32-bit arithmetic, in O(log steps): what a
// kernel's loop of that dependent step (the tests' long-running kernels) leaves in x.
inline cl_uint affine_steps(cl_uint x, cl_uint steps, cl_uint mul, cl_uint inc) {
  cl_uint total_mul = 1, total_inc = 0;          // the steps taken so far
  cl_uint step_mul = mul, step_inc = inc;        // 2^k steps
  for (; steps; steps >>= 1) {
    if (steps & 1) {
      total_mul *= step_mul;
      total_inc = total_inc * step_mul + step_inc;
    }
    step_inc = step_inc * step_mul + step_inc;
    step_mul *= step_mul;
  }
  return total_mul * x + total_inc;
}

// Bytes that change with their position at every scale, so a misplaced chunk or vector shows.
inline std::vector<uint8_t> position_pattern(size_t size, uint32_t seed) {
  std::vector<uint8_t> bytes(size);
  uint32_t state = seed;
  for (size_t i = 0; i < size; i += 4) {
    state = state * 1664525u + 1013904223u;
    std::memcpy(bytes.data() + i, &state, std::min<size_t>(4, size - i));
  }
  return bytes;
}

}  // namespace cuda_test

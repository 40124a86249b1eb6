// Shared by the CUDA device tests (test_cuda_*.cpp). Every test needs a cucl GPU device;
// where there is none (CI has no GPU) it is skipped with the reason.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <memory>

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

}  // namespace cuda_test

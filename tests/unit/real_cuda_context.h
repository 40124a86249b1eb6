// A CudaContext on the first real CUDA device, for unit tests of backends/cuda/ internals:
// a test on it is skipped where there is no CUDA driver or GPU (CI).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_driver.h"
#include "backends/cuda/cuda_host_registry.h"

namespace cucl::backend::cuda {

class RealCudaContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    driver_ = load_cuda_driver(why_not);
    if (!driver_) GTEST_SKIP() << "no CUDA driver: " << why_not;
    int count = 0;
    if (driver_->cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) GTEST_SKIP() << "no CUDA device";
    ASSERT_EQ(driver_->cuDeviceGet(&device_, 0), CUDA_SUCCESS);
    context_ = std::make_unique<CudaContext>(driver_, device_, std::make_shared<HostRegistry>(*driver_),
                                             std::make_shared<FinishingThreads>());
    context_->make_current();
  }

  std::shared_ptr<const CudaDriver> driver_;
  CUdevice device_ = 0;
  std::unique_ptr<CudaContext> context_;
};

}  // namespace cucl::backend::cuda

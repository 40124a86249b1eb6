// The module of the fill kernels (cuda_fill_ptx.h) that enqueue_fill (cuda_fill.h) launches
// for patterns the driver's memset cannot write.
#pragma once

#include "backends/cuda/cuda_driver.h"

namespace cucl::backend::cuda {

// The fill module of one context; the context must be current when it is made and destroyed.
class FillKernels {
 public:
  explicit FillKernels(const CudaDriver& driver);
  ~FillKernels();
  FillKernels(const FillKernels&) = delete;
  FillKernels& operator=(const FillKernels&) = delete;

  CUfunction words() const { return words_; }
  CUfunction bytes() const { return bytes_; }

 private:
  const CudaDriver& driver_;
  CUmodule module_ = nullptr;
  CUfunction words_ = nullptr;
  CUfunction bytes_ = nullptr;
};

}  // namespace cucl::backend::cuda

#include "backends/cuda/cuda_fill_kernels.h"

#include "backends/cuda/cuda_fill_ptx.h"

namespace cucl::backend::cuda {

FillKernels::FillKernels(const CudaDriver& driver) : driver_(driver) {
  check_cuda(driver_, driver_.cuModuleLoadData(&module_, fill_ptx().c_str()), "cuModuleLoadData (fill kernels)");
  try {
    check_cuda(driver_, driver_.cuModuleGetFunction(&words_, module_, "cucl_fill_u32"), "cuModuleGetFunction");
    check_cuda(driver_, driver_.cuModuleGetFunction(&bytes_, module_, "cucl_fill_u8"), "cuModuleGetFunction");
  } catch (...) {
    driver_.cuModuleUnload(module_);
    throw;
  }
}

FillKernels::~FillKernels() { driver_.cuModuleUnload(module_); }

}  // namespace cucl::backend::cuda

#include "backends/cuda/cuda_transfer.h"

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_staging.h"

namespace cucl::backend::cuda {
namespace {

// Below this the driver's own handling of pageable memory is as fast as staging.
constexpr size_t kStagedTransferMinimum = 1u << 20;

// Whether the driver knows all of [pointer, pointer + size) as page-locked host memory
// (ours, another buffer's mapping, or the application's own CUDA allocations).
bool page_locked(const CudaDriver& driver, const void* pointer, size_t size) {
  auto known = [&](const void* address) {
    unsigned int type = 0;
    return driver.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                        reinterpret_cast<CUdeviceptr>(address)) == CUDA_SUCCESS;
  };
  return known(pointer) && known(static_cast<const char*>(pointer) + size - 1);
}

}  // namespace

Pending host_to_device(CudaContext& context, CUstream stream, CUdeviceptr dst, const void* src, size_t size) {
  const CudaDriver& driver = context.driver();
  if (size < kStagedTransferMinimum || page_locked(driver, src, size)) {
    context.check(driver.cuMemcpyHtoDAsync(dst, src, size, stream), "cuMemcpyHtoDAsync");
    return Pending::StreamWork;
  }
  staged_host_to_device(context, stream, dst, src, size);
  return Pending::Nothing;
}

Pending device_to_host(CudaContext& context, CUstream stream, void* dst, CUdeviceptr src, size_t size) {
  const CudaDriver& driver = context.driver();
  if (size < kStagedTransferMinimum || page_locked(driver, dst, size)) {
    context.check(driver.cuMemcpyDtoHAsync(dst, src, size, stream), "cuMemcpyDtoHAsync");
    return Pending::StreamWork;
  }
  staged_device_to_host(context, stream, dst, src, size);
  return Pending::Nothing;
}

void copy_host_to_device_now(CudaContext& context, CUdeviceptr dst, const void* src, size_t size) {
  const CudaDriver& driver = context.driver();
  // On the legacy default stream, which our non-blocking streams do not wait for: so the
  // copy must have landed before this returns (cuMemcpyHtoD from pageable memory may
  // return while its DMA still runs).
  if (size < kStagedTransferMinimum) {
    context.check(driver.cuMemcpyHtoD(dst, src, size), "cuMemcpyHtoD");
  } else {
    staged_host_to_device(context, nullptr, dst, src, size);
  }
  context.check(driver.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
}

}  // namespace cucl::backend::cuda

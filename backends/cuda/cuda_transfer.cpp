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

// How a transfer treats the host side.
enum class HostSide {
  Direct,  // the DMA engine takes it as it is (small, or page-locked)
  Staged,  // large and pageable: through page-locked chunks
  // Partly inside pages registered for a USE_HOST_PTR buffer (a neighbour's, sharing a
  // page): the driver refuses a range that starts or ends in a registration and leaves it.
  PartlyRegistered,
};

HostSide host_side(CudaContext& context, const void* pointer, size_t size) {
  switch (context.host_registry().coverage(pointer, size)) {
    case HostRegistry::Coverage::Whole: return HostSide::Direct;
    case HostRegistry::Coverage::Partial: return HostSide::PartlyRegistered;
    case HostRegistry::Coverage::None: break;
  }
  if (size < kStagedTransferMinimum || page_locked(context.driver(), pointer, size)) return HostSide::Direct;
  return HostSide::Staged;
}

}  // namespace

Pending host_to_device(CudaContext& context, CUstream stream, CUdeviceptr dst, const void* src, size_t size) {
  const CudaDriver& driver = context.driver();
  switch (host_side(context, src, size)) {
    case HostSide::Direct:
      context.check(driver.cuMemcpyHtoDAsync(dst, src, size, stream), "cuMemcpyHtoDAsync");
      return Pending::StreamWork;
    case HostSide::PartlyRegistered:
      // Staging reads the source now: earlier work on the stream (a kernel writing the
      // registered part through its device mapping) must be done first.
      context.check(driver.cuStreamSynchronize(stream), "cuStreamSynchronize");
      break;
    case HostSide::Staged:
      break;
  }
  staged_host_to_device(context, stream, dst, src, size);
  return Pending::Nothing;
}

Pending device_to_host(CudaContext& context, CUstream stream, void* dst, CUdeviceptr src, size_t size) {
  if (host_side(context, dst, size) == HostSide::Direct) {
    context.check(context.driver().cuMemcpyDtoHAsync(dst, src, size, stream), "cuMemcpyDtoHAsync");
    return Pending::StreamWork;
  }
  // Staging writes `dst` once the stream has brought each chunk, after its earlier work.
  staged_device_to_host(context, stream, dst, src, size);
  return Pending::Nothing;
}

bool host_to_device_waits(CudaContext& context, const void* src, size_t size) {
  return host_side(context, src, size) != HostSide::Direct;
}

bool device_to_host_waits(CudaContext& context, const void* dst, size_t size) {
  switch (context.host_registry().coverage(dst, size)) {
    case HostRegistry::Coverage::Whole: return false;
    case HostRegistry::Coverage::Partial: return true;
    case HostRegistry::Coverage::None: break;
  }
  return size != 0 && !page_locked(context.driver(), dst, size);
}

void copy_host_to_device_now(CudaContext& context, CUdeviceptr dst, const void* src, size_t size) {
  const CudaDriver& driver = context.driver();
  // On the legacy default stream, which our non-blocking streams do not wait for: so the
  // copy must have landed before this returns (cuMemcpyHtoD from pageable memory may
  // return while its DMA still runs).
  if (host_side(context, src, size) == HostSide::Direct) {
    context.check(driver.cuMemcpyHtoD(dst, src, size), "cuMemcpyHtoD");
  } else {
    staged_host_to_device(context, nullptr, dst, src, size);
  }
  context.check(driver.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
}

}  // namespace cucl::backend::cuda

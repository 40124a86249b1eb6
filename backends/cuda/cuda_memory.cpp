#include "backends/cuda/cuda_memory.h"

#include <cstdint>
#include <cstring>

#include "backends/cuda/cuda_transfer.h"

namespace cucl::backend::cuda {

std::unique_ptr<CudaMemory> CudaMemory::create(std::shared_ptr<CudaContext> context, size_t size, void* host_ptr,
                                               bool alloc_host_ptr) {
  context->make_current();
  const CudaDriver& driver = context->driver();
  std::unique_ptr<CudaMemory> memory(new CudaMemory(context, size, static_cast<char*>(host_ptr)));
  // Kernels load up to 16 bytes at once (vectors, pixels), which PTX wants at their natural
  // alignment: application memory on a coarser alignment is copied instead of mapped.
  constexpr uintptr_t kKernelAlignment = 16;
  const bool aligned = reinterpret_cast<uintptr_t>(host_ptr) % kKernelAlignment == 0;
  if (host_ptr && aligned && context->host_registry().acquire(host_ptr, size)) {
    CUdeviceptr mapped = 0;
    if (driver.cuMemHostGetDevicePointer(&mapped, host_ptr, 0) == CUDA_SUCCESS) {
      memory->registered_ = true;
      memory->device_ = mapped;
      return memory;
    }
    context->host_registry().release(host_ptr, size);
  }
  CUresult result = driver.cuMemAlloc(&memory->device_, size);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
  context->check(result, "cuMemAlloc");
  if (host_ptr) {
    memory->write_now(0, host_ptr, size);  // USE_HOST_PTR starts with the application's data
  } else {
    memory->map_regions_ = std::make_unique<MapRegions>(*memory->context_, alloc_host_ptr ? size : 0);
  }
  return memory;
}

CudaMemory::~CudaMemory() {
  try {
    context_->make_current();
  } catch (const CudaError&) {
    (void)map_regions_.release();  // the context is gone: so is everything allocated in it
    return;
  }
  const CudaDriver& driver = context_->driver();
  map_regions_.reset();
  if (registered_) {
    context_->host_registry().release(host_ptr_, size_);
  } else if (device_) {
    driver.cuMemFree(device_);
  }
}

void* CudaMemory::map_pointer(size_t offset, size_t size) {
  if (host_ptr_) return host_ptr_ + offset;
  return map_regions_->acquire(offset, size);
}

void CudaMemory::unmap_pointer(void* mapped) {
  if (map_regions_) map_regions_->release(mapped);  // USE_HOST_PTR memory: nothing was allocated
}

void CudaMemory::write_now(size_t offset, const void* src, size_t size) {
  if (registered_) {
    std::memmove(host_ptr_ + offset, src, size);
    return;
  }
  context_->make_current();
  copy_host_to_device_now(*context_, device_ + offset, src, size);
}

}  // namespace cucl::backend::cuda

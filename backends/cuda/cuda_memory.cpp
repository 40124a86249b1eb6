#include "backends/cuda/cuda_memory.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <system_error>

#include "backends/cuda/cuda_transfer.h"

namespace cucl::backend::cuda {
namespace {

bool is_managed(const CudaDriver& driver, const void* pointer) {
  unsigned int managed = 0;
  return driver.cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                      reinterpret_cast<CUdeviceptr>(pointer)) == CUDA_SUCCESS &&
         managed != 0;
}

// cuMemAllocManaged aligns to at least this (as cuMemAlloc does).
constexpr size_t kManagedAlignment = 256;

}  // namespace

std::unique_ptr<CudaMemory> CudaMemory::create_shared(std::shared_ptr<CudaContext> context, size_t size,
                                                      size_t alignment) {
  context->make_current();
  const CudaDriver& driver = context->driver();
  const size_t bytes = size + (alignment > kManagedAlignment ? alignment : 0);
  size_t free = 0, total = 0;
  context->check(context->free_memory(&free, &total), "cuMemGetInfo");
  if (bytes < size || !context->managed_budget().reserve(bytes, free, total)) return nullptr;
  CUdeviceptr allocation = 0;
  CUresult result = driver.cuMemAllocManaged(&allocation, bytes, CU_MEM_ATTACH_GLOBAL);
  if (result != CUDA_SUCCESS) {
    context->managed_budget().release(bytes);
    if (result == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
    context->check(result, "cuMemAllocManaged");
  }
  const CUdeviceptr aligned = (allocation + alignment - 1) / alignment * alignment;
  std::unique_ptr<CudaMemory> memory(new CudaMemory(context, size, reinterpret_cast<char*>(aligned)));
  memory->managed_ = true;
  memory->device_ = aligned;
  memory->owned_managed_ = allocation;
  memory->owned_managed_bytes_ = bytes;
  return memory;
}

std::unique_ptr<CudaMemory> CudaMemory::create_coarse_shared(std::shared_ptr<CudaContext> context, size_t size,
                                                             size_t alignment) {
  std::shared_ptr<SvmDualView> view;
  for (int attempt = 0; !view && attempt < 2; ++attempt) {
    try {
      view = SvmDualView::create(context, size, alignment);
    } catch (const CudaError&) {
      if (context->lost()) throw;
      // The driver has no virtual memory management here, or no room: managed memory serves,
      // unless room comes from the buffer allocations kept for reuse.
      context->make_current();
      if (!context->device_allocations().free_kept()) break;
    } catch (const std::system_error&) {  // the host side could not be placed: likewise
      break;
    }
  }
  if (!view) return create_shared(std::move(context), size, alignment);
  const CUdeviceptr address = view->address();
  std::unique_ptr<CudaMemory> memory(new CudaMemory(context, size, reinterpret_cast<char*>(address)));
  memory->device_ = address;
  memory->view_ = std::move(view);
  return memory;
}

std::unique_ptr<CudaMemory> CudaMemory::create(std::shared_ptr<CudaContext> context, size_t size, void* host_ptr,
                                               bool alloc_host_ptr) {
  context->make_current();
  const CudaDriver& driver = context->driver();
  std::unique_ptr<CudaMemory> memory(new CudaMemory(context, size, static_cast<char*>(host_ptr)));
  // Kernels load up to 16 bytes at once (vectors, pixels), which PTX wants at their natural
  // alignment: application memory on a coarser alignment is copied instead of mapped.
  constexpr uintptr_t kKernelAlignment = 16;
  const bool aligned = reinterpret_cast<uintptr_t>(host_ptr) % kKernelAlignment == 0;
  if (host_ptr && is_managed(driver, host_ptr)) {
    memory->managed_ = true;
    memory->device_ = reinterpret_cast<CUdeviceptr>(host_ptr);
    return memory;
  }
  if (host_ptr) {
    auto [view, offset] = context->svm_views().find(host_ptr);
    if (view && size <= view->size() - offset) {
      memory->device_ = view->address() + offset;
      memory->view_ = std::move(view);
      memory->view_offset_ = offset;
      return memory;
    }
  }
  if (host_ptr && aligned && context->host_registry().acquire(host_ptr, size)) {
    CUdeviceptr mapped = 0;
    if (driver.cuMemHostGetDevicePointer(&mapped, host_ptr, 0) == CUDA_SUCCESS) {
      memory->registered_ = true;
      memory->device_ = mapped;
      return memory;
    }
    context->host_registry().release(host_ptr, size);
  }
  CUresult result = context->device_allocations().allocate(&memory->device_, size);
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
  if (managed_) {
    if (owned_managed_ && driver.cuMemFree(owned_managed_) == CUDA_SUCCESS) {
      context_->managed_budget().release(owned_managed_bytes_);
    }
  } else if (registered_) {
    context_->host_registry().release(host_ptr_, size_);
  } else if (view_) {
    view_.reset();  // the last user of a view frees it, the context current
  } else if (device_) {
    context_->device_allocations().release(device_, size_);
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
  note_write();
  if (registered_ || managed_) {
    std::memmove(host_ptr_ + offset, src, size);
    return;
  }
  context_->make_current();
  copy_host_to_device_now(*context_, device_ + offset, src, size);
}

}  // namespace cucl::backend::cuda

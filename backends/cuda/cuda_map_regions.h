// Page-locked host memory for the maps of one device allocation. Page-locking fresh memory
// costs far more than copying into it (cuMemHostAlloc of 1 GiB takes longer than moving
// 1 GiB over the bus), so a region given back by an unmap is kept for the next map: the
// largest one only, so a buffer mapped any number of times holds no more page-locked
// memory than its largest mappings in flight at once. A buffer created with
// CL_MEM_ALLOC_HOST_PTR asks for host-accessible memory: it gets one region of its whole
// size when it is made, and every map of it is a view into that region.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_context.h"

namespace cucl::backend::cuda {

class MapRegions {
 public:
  // `whole_size` > 0: the region of the whole allocation is made now (it falls back to
  // regions per map where the host has no page-locked memory to give).
  MapRegions(CudaContext& context, size_t whole_size);
  ~MapRegions();  // the context is current
  MapRegions(const MapRegions&) = delete;
  MapRegions& operator=(const MapRegions&) = delete;

  // Host memory for bytes [offset, offset + size) of the allocation. Throws CudaError when
  // no page-locked memory can be had.
  void* acquire(size_t offset, size_t size);
  // Gives back what acquire returned; the context is made current where memory is freed.
  void release(void* mapped);

  // For tests: the page-locked bytes held, in use or kept.
  size_t bytes_held() const;

 private:
  struct Region {
    void* memory = nullptr;
    size_t size = 0;
  };
  void free_region(const Region& region);

  CudaContext& context_;
  Region whole_;  // CL_MEM_ALLOC_HOST_PTR: the whole allocation, for every map
  mutable std::mutex mutex_;
  std::vector<Region> in_use_;
  Region spare_;  // the largest region given back, for the next map that fits
};

}  // namespace cucl::backend::cuda

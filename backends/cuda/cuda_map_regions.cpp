#include "backends/cuda/cuda_map_regions.h"

#include <algorithm>
#include <utility>

namespace cucl::backend::cuda {

MapRegions::MapRegions(CudaContext& context, size_t whole_size) : context_(context) {
  if (whole_size == 0) return;
  void* memory = nullptr;
  if (context_.driver().cuMemHostAlloc(&memory, whole_size, CU_MEMHOSTALLOC_PORTABLE) == CUDA_SUCCESS) {
    whole_ = {memory, whole_size};
  }
}

MapRegions::~MapRegions() {
  free_region(whole_);
  free_region(spare_);
  for (const Region& region : in_use_) free_region(region);
}

void* MapRegions::acquire(size_t offset, size_t size) {
  if (whole_.memory) return static_cast<char*>(whole_.memory) + offset;
  size = std::max<size_t>(size, 1);
  {
    std::lock_guard lock(mutex_);
    if (spare_.memory && spare_.size >= size) {
      in_use_.push_back(std::exchange(spare_, Region{}));
      return in_use_.back().memory;
    }
  }
  context_.make_current();
  Region region{nullptr, size};
  context_.check(context_.driver().cuMemHostAlloc(&region.memory, size, CU_MEMHOSTALLOC_PORTABLE), "cuMemHostAlloc");
  std::lock_guard lock(mutex_);
  try {
    in_use_.push_back(region);
  } catch (...) {
    free_region(region);
    throw;
  }
  return region.memory;
}

void MapRegions::release(void* mapped) {
  Region unwanted;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(in_use_.begin(), in_use_.end(), [&](const Region& r) { return r.memory == mapped; });
    if (it == in_use_.end()) return;  // a view into the whole region: nothing to give back
    unwanted = *it;
    in_use_.erase(it);
    if (!spare_.memory || unwanted.size > spare_.size) std::swap(unwanted, spare_);
  }
  if (!unwanted.memory) return;
  context_.make_current();
  free_region(unwanted);
}

size_t MapRegions::bytes_held() const {
  std::lock_guard lock(mutex_);
  size_t bytes = whole_.size + spare_.size;
  for (const Region& region : in_use_) bytes += region.size;
  return bytes;
}

void MapRegions::free_region(const Region& region) {
  if (region.memory) context_.driver().cuMemFreeHost(region.memory);
}

}  // namespace cucl::backend::cuda

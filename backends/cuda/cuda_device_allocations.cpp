#include "backends/cuda/cuda_device_allocations.h"

#include <algorithm>
#include <utility>

namespace cucl::backend::cuda {

DeviceAllocations::DeviceAllocations(const CudaDriver& driver, size_t card_bytes, std::function<void()> settle)
    : driver_(driver), limit_(std::min(card_bytes / 64, size_t{1} << 30)), settle_(std::move(settle)) {}

CUresult DeviceAllocations::allocate(CUdeviceptr* address, size_t size) {
  {
    std::lock_guard lock(mutex_);
    // The newest of that size: the likeliest to be in the GPU's caches and TLBs still.
    for (auto kept = kept_.rbegin(); kept != kept_.rend(); ++kept) {
      if (kept->size != size) continue;
      *address = kept->address;
      kept_bytes_ -= size;
      kept_.erase(std::next(kept).base());
      ++live_;
      return CUDA_SUCCESS;
    }
  }
  CUresult result = driver_.cuMemAlloc(address, size);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) {
    // Buffers released while their last commands were still being finished let go (freeing
    // their memory, or keeping it, which free_kept then frees); then the driver is asked again.
    const bool settles = static_cast<bool>(settle_);
    if (settles) settle_();
    if (free_kept() || settles) result = driver_.cuMemAlloc(address, size);
  }
  if (result == CUDA_SUCCESS) {
    std::lock_guard lock(mutex_);
    ++live_;
  }
  return result;
}

void DeviceAllocations::release(CUdeviceptr address, size_t size) {
  std::vector<Kept> to_free;
  {
    std::lock_guard lock(mutex_);
    if (live_ > 0) --live_;
    if (live_ == 0) {
      // The application has let go of every buffer here: the card's memory goes back.
      to_free = std::exchange(kept_, {});
      kept_bytes_ = 0;
      to_free.push_back({address, size});
    } else if (size > limit_) {
      to_free.push_back({address, size});
    } else {
      kept_.push_back({address, size});
      kept_bytes_ += size;
      size_t oldest = 0;
      while (kept_bytes_ > limit_ || kept_.size() - oldest > kMaxKept) {
        kept_bytes_ -= kept_[oldest].size;
        to_free.push_back(kept_[oldest++]);
      }
      kept_.erase(kept_.begin(), kept_.begin() + static_cast<std::ptrdiff_t>(oldest));
    }
  }
  free_all(to_free);
}

bool DeviceAllocations::free_kept() {
  std::vector<Kept> to_free;
  {
    std::lock_guard lock(mutex_);
    to_free = std::exchange(kept_, {});
    kept_bytes_ = 0;
  }
  const bool freed = !to_free.empty();
  free_all(to_free);
  return freed;
}

size_t DeviceAllocations::kept_bytes() const {
  std::lock_guard lock(mutex_);
  return kept_bytes_;
}

void DeviceAllocations::free_all(std::vector<Kept>& allocations) const {
  // Outside the lock: cuMemFree may wait for the GPU, and other threads allocate meanwhile.
  for (const Kept& allocation : allocations) driver_.cuMemFree(allocation.address);
  allocations.clear();
}

}  // namespace cucl::backend::cuda

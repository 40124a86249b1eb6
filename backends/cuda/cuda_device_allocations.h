// Device memory for buffers (cuMemAlloc), where the allocation of a released buffer is kept
// for the next buffer of the same size. Libraries make temporaries per call and release them
// at its end (CLBlast's GEMM: two 64 MiB buffers per 4096^3 call), and cuMemAlloc + cuMemFree
// of 256 MiB costs about as much as writing it whole. What is kept is bounded (a 64th of the
// card, at most 1 GiB, at most 16 allocations; the oldest go first), freed when an allocation
// fails for want of memory (then tried again, once the buffers released meanwhile have let go),
// when the device holds no buffer any more, and before anyone reads what the card has free
// (managed memory and CUDA arrays decide by it).
// The platform releases a buffer's memory only once every command that used it has ended,
// so a kept allocation is never still in use on the GPU.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_driver.h"

namespace cucl::backend::cuda {

class DeviceAllocations {
 public:
  // `card_bytes`: the card's memory (cuDeviceTotalMem), which bounds what is kept. `settle`,
  // when the driver has no room: lets go of memory that released buffers may still hold for a
  // moment (FinishingThreads::settle_all), before the allocation is tried again.
  DeviceAllocations(const CudaDriver& driver, size_t card_bytes, std::function<void()> settle = {});
  DeviceAllocations(const DeviceAllocations&) = delete;
  DeviceAllocations& operator=(const DeviceAllocations&) = delete;

  // The context is current for all of these.
  // A kept allocation of exactly `size` bytes, or a new one; the driver's result otherwise
  // (CUDA_ERROR_OUT_OF_MEMORY once nothing is kept and the driver still has no room).
  CUresult allocate(CUdeviceptr* address, size_t size);
  // `address` (from allocate, `size` bytes) is no longer used: kept or freed.
  void release(CUdeviceptr address, size_t size);
  // Frees everything kept; whether there was anything.
  bool free_kept();

  size_t kept_bytes() const;
  size_t kept_limit() const { return limit_; }
  static constexpr size_t kMaxKept = 16;

 private:
  struct Kept {
    CUdeviceptr address;
    size_t size;
  };
  void free_all(std::vector<Kept>& allocations) const;

  const CudaDriver& driver_;
  const size_t limit_;
  const std::function<void()> settle_;
  mutable std::mutex mutex_;
  std::vector<Kept> kept_;  // oldest first
  size_t kept_bytes_ = 0;
  size_t live_ = 0;  // allocations handed out and not released
};

}  // namespace cucl::backend::cuda

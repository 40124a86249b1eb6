#include "backends/cuda/cuda_read_bounce.h"

namespace cucl::backend::cuda {

ReadBounce::~ReadBounce() {
  void* memory = memory_.load(std::memory_order_acquire);
  if (!memory) return;
  try {
    context_->make_current();
    context_->driver().cuMemFreeHost(memory);
  } catch (const CudaError&) {
  }
}

int ReadBounce::acquire() {
  if (!memory_.load(std::memory_order_acquire)) {
    std::lock_guard lock(mutex_);
    if (!memory_.load(std::memory_order_relaxed) && !refused_) {
      void* memory = nullptr;
      if (context_->driver().cuMemHostAlloc(&memory, kSlotSize * kSlots, 0) == CUDA_SUCCESS) {
        memory_.store(memory, std::memory_order_release);
      } else {
        refused_ = true;
      }
    }
    if (!memory_.load(std::memory_order_relaxed)) return -1;
  }
  uint32_t used = used_.load(std::memory_order_relaxed);
  for (;;) {
    const uint32_t free = ~used & ((1u << kSlots) - 1);
    if (free == 0) return -1;
    const int index = __builtin_ctz(free);
    if (used_.compare_exchange_weak(used, used | (1u << index), std::memory_order_acquire)) return index;
  }
}

}  // namespace cucl::backend::cuda

#include "backends/cuda/cuda_read_bounce.h"

namespace cucl::backend::cuda {

ReadBounce::~ReadBounce() {
  if (!memory_) return;
  try {
    context_->make_current();
    context_->driver().cuMemFreeHost(memory_);
  } catch (const CudaError&) {
  }
}

ReadBounce::Lease ReadBounce::acquire() {
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || refused_) return {};
  if (!memory_ && context_->driver().cuMemHostAlloc(&memory_, kCapacity, 0) != CUDA_SUCCESS) {
    memory_ = nullptr;
    refused_ = true;
    return {};
  }
  return Lease(std::move(lock), memory_);
}

}  // namespace cucl::backend::cuda

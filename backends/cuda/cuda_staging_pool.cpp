#include "backends/cuda/cuda_staging_pool.h"

namespace cucl::backend::cuda {

StagingPool::~StagingPool() {
  for (auto& set : free_) destroy(*set);
}

std::unique_ptr<StagingSet> StagingPool::create() {
  const CudaDriver& driver = driver_;
  auto set = std::make_unique<StagingSet>();
  for (size_t i = 0; i < StagingSet::kChunks; ++i) {
    if (driver.cuMemHostAlloc(&set->chunks[i], StagingSet::kChunkSize, CU_MEMHOSTALLOC_PORTABLE) != CUDA_SUCCESS ||
        driver.cuEventCreate(&set->done[i], CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
      destroy(*set);
      return nullptr;
    }
  }
  return set;
}

void StagingPool::destroy(StagingSet& set) {
  const CudaDriver& driver = driver_;
  for (size_t i = 0; i < StagingSet::kChunks; ++i) {
    if (set.chunks[i]) driver.cuMemFreeHost(set.chunks[i]);
    if (set.done[i]) driver.cuEventDestroy(set.done[i]);
  }
}

StagingPool::Lease StagingPool::acquire() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      auto set = std::move(free_.back());
      free_.pop_back();
      return Lease(this, std::move(set));
    }
  }
  return Lease(this, create());
}

StagingPool::Lease::~Lease() {
  if (!set_) return;
  // After a failed transfer DMAs may still be reading or writing the chunks.
  for (CUevent event : set_->done) pool_->driver_.cuEventSynchronize(event);
  std::lock_guard lock(pool_->mutex_);
  pool_->free_.push_back(std::move(set_));
}

}  // namespace cucl::backend::cuda

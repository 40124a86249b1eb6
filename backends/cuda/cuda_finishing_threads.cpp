#include "backends/cuda/cuda_finishing_threads.h"

#include <algorithm>

namespace cucl::backend::cuda {

void FinishingThreads::track(std::weak_ptr<FinishingThread> thread) {
  std::lock_guard lock(mutex_);
  std::erase_if(threads_, [](const std::weak_ptr<FinishingThread>& tracked) { return tracked.expired(); });
  threads_.push_back(std::move(thread));
}

void FinishingThreads::settle_all() {
  std::vector<std::shared_ptr<FinishingThread>> live;
  {
    std::lock_guard lock(mutex_);
    for (const auto& tracked : threads_) {
      if (auto thread = tracked.lock()) live.push_back(std::move(thread));
    }
  }
  // Outside the lock: a settling thread may start a stream (and track it) meanwhile.
  for (const auto& thread : live) thread->settle();
}

}  // namespace cucl::backend::cuda

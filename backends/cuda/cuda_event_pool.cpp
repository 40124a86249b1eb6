#include "backends/cuda/cuda_event_pool.h"

namespace cucl::backend::cuda {

EventPool::~EventPool() {
  if (free_.empty()) return;
  try {
    context_->make_current();  // the last user may be any thread
  } catch (const CudaError&) {
    return;
  }
  for (CUevent event : free_) context_->driver().cuEventDestroy(event);
}

CUevent EventPool::take() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      CUevent event = free_.back();
      free_.pop_back();
      return event;
    }
  }
  CUevent event = nullptr;
  context_->check(context_->driver().cuEventCreate(&event, flags_), "cuEventCreate");
  return event;
}

CUevent EventPool::record(CUstream stream) {
  CUevent event = nullptr;
  try {
    event = take();
  } catch (const CudaError&) {
    return nullptr;
  }
  const CUresult recorded = context_->driver().cuEventRecord(event, stream);
  if (recorded == CUDA_SUCCESS) return event;
  context_->note_result(recorded);
  give_back(event);
  return nullptr;
}

void EventPool::give_back(CUevent event) {
  std::lock_guard lock(mutex_);
  free_.push_back(event);
}

}  // namespace cucl::backend::cuda

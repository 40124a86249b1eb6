#include "backends/cuda/cuda_completion.h"

#include <chrono>

namespace cucl::backend::cuda {

std::shared_ptr<CompletionQueue> CompletionQueue::start(std::shared_ptr<CudaContext> context) {
  std::shared_ptr<CompletionQueue> queue(new CompletionQueue(std::move(context)));
  queue->thread_ = std::thread(run, queue);
  return queue;
}

CompletionQueue::~CompletionQueue() {
  // The last owner may be the thread itself (see stop()), which has the context current.
  try {
    context_->make_current();
  } catch (const CudaError&) {
    return;
  }
  for (CUevent event : free_events_) context_->driver().cuEventDestroy(event);
}

void CompletionQueue::push(const Item& item) {
  bool asleep;
  {
    std::lock_guard lock(mutex_);
    items_.push_back(item);
    queued_.store(items_.size(), std::memory_order_release);
    asleep = sleeping_;
  }
  if (asleep) wake_.notify_one();  // a spinning thread sees queued_ without a system call
}

bool CompletionQueue::take(Item& item) {
  // Commands often come back to back (the next one is submitted when this one finishes):
  // a short spin catches them without the cost of sleeping and being woken.
  constexpr auto kSpin = std::chrono::microseconds(50);
  if (queued_.load(std::memory_order_acquire) == 0) {
    auto until = std::chrono::steady_clock::now() + kSpin;
    for (unsigned i = 1; queued_.load(std::memory_order_acquire) == 0; ++i) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
      if (i % 64 == 0 && std::chrono::steady_clock::now() > until) break;
    }
  }
  std::unique_lock lock(mutex_);
  while (items_.empty() && !stopping_) {
    sleeping_ = true;
    wake_.wait(lock);
    sleeping_ = false;
  }
  if (items_.empty()) return false;  // stopping, and nothing left
  item = items_.front();
  items_.pop_front();
  queued_.store(items_.size(), std::memory_order_release);
  return true;
}

CUevent CompletionQueue::take_event() {
  {
    std::lock_guard lock(mutex_);
    if (!free_events_.empty()) {
      CUevent event = free_events_.back();
      free_events_.pop_back();
      return event;
    }
  }
  CUevent event = nullptr;
  context_->check(context_->driver().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

void CompletionQueue::give_back_event(CUevent event) {
  std::lock_guard lock(mutex_);
  free_events_.push_back(event);
}

void CompletionQueue::stop() {
  std::thread thread;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    thread = std::move(thread_);
  }
  wake_.notify_one();
  if (thread.get_id() == std::this_thread::get_id()) {
    thread.detach();  // run() returns once the queue is empty and owns this object till then
  } else if (thread.joinable()) {
    thread.join();
  }
}

cl_int CompletionQueue::complete(const Item& item) {
  if (item.status < 0) return item.status;
  cl_int status = CL_SUCCESS;
  if (item.event) {
    // A fault anywhere in the context (CUDA_ERROR_ILLEGAL_ADDRESS...) shows up here.
    if (context_->driver().cuEventSynchronize(item.event) != CUDA_SUCCESS) status = CL_OUT_OF_RESOURCES;
    give_back_event(item.event);
  }
  if (item.host && status == CL_SUCCESS) {
    try {
      item.host->run();
    } catch (...) {
      status = CL_OUT_OF_RESOURCES;
    }
  }
  return status;
}

void CompletionQueue::run(std::shared_ptr<CompletionQueue> self) {
  Item item{};
  while (self->take(item)) {
    // Every time: a host function may have made another context current.
    bool current = false;
    try {
      self->context_->make_current();
      current = true;
    } catch (const CudaError&) {
      // Without the context nothing can be waited for: the item fails.
    }
    cl_int status = current ? self->complete(item) : CL_OUT_OF_RESOURCES;
    item.work->finished(status);
  }
}

}  // namespace cucl::backend::cuda

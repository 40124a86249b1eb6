// Finishes a stream's work on one host thread, in submission order: for each item it
// waits for the CUDA event recorded after the item's operations (if any), runs a host
// function (if any), and calls Work::finished. No CUDA callback is involved, so finished()
// and whatever it triggers (the next command's submission) may call the driver freely.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/backend.h"
#include "backends/cuda/cuda_context.h"

namespace cucl::backend::cuda {

class CompletionQueue {
 public:
  struct Item {
    Work* work;
    cl_int status;                       // negative: finish with it, waiting for nothing
    CUevent event = nullptr;             // wait for it first (then it returns to the pool)
    const op::HostFunction* host = nullptr;  // run it after the earlier items
  };

  // Starts the thread; the queue lives as long as the thread or its owner needs it.
  static std::shared_ptr<CompletionQueue> start(std::shared_ptr<CudaContext> context);
  ~CompletionQueue();
  CompletionQueue(const CompletionQueue&) = delete;
  CompletionQueue& operator=(const CompletionQueue&) = delete;

  void push(const Item& item);
  // An event for push(), from a pool of reusable events. The context is current.
  CUevent take_event();
  void give_back_event(CUevent event);
  // The thread finishes what is queued and ends. Callable from the thread itself (the last
  // finished() may release the stream that owns this queue).
  void stop();

 private:
  explicit CompletionQueue(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {}
  static void run(std::shared_ptr<CompletionQueue> self);
  // Waits for an item (or stop()) and takes it; false when stopped with nothing left.
  bool take(Item& item);
  cl_int complete(const Item& item);

  std::shared_ptr<CudaContext> context_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> items_;
  std::vector<CUevent> free_events_;
  bool stopping_ = false;
  bool sleeping_ = false;          // the thread waits on wake_ (push() then notifies)
  std::atomic<size_t> queued_{0};  // items_.size(), readable without the lock
  std::thread thread_;
};

}  // namespace cucl::backend::cuda

// Page-locked slots of one stream through which small reads into application memory land
// (CudaStream::read_through_bounce). The driver's own read into pageable memory waits on the
// calling thread for the stream's earlier work, spinning through a long kernel as the
// context's scheduling says; a read into page-locked memory is enqueued behind that work at
// once, and its bytes are copied out once the stream has passed it: by a blocking call's
// own thread, which waits as cucl's waiters do, or by the completion thread, in order.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "backends/cuda/cuda_context.h"

namespace cucl::backend::cuda {

class ReadBounce {
 public:
  // Larger reads gain little: the transfer outlasts the hand-offs a slot saves.
  static constexpr size_t kSlotSize = 64u << 10;
  static constexpr int kSlots = 8;

  explicit ReadBounce(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {}
  ~ReadBounce();  // every slot is back; the context need not be current
  ReadBounce(const ReadBounce&) = delete;
  ReadBounce& operator=(const ReadBounce&) = delete;

  // A free slot, or -1 (all in use, or no page-locked memory to be had). The context is
  // current: the memory is allocated at the first call.
  int acquire();
  void* slot(int index) const {
    return static_cast<char*>(memory_.load(std::memory_order_acquire)) + static_cast<size_t>(index) * kSlotSize;
  }
  void release(int index) { used_.fetch_and(~(1u << index), std::memory_order_release); }

 private:
  std::shared_ptr<CudaContext> context_;
  std::mutex mutex_;                   // the first allocation
  std::atomic<void*> memory_{nullptr};  // made at the first acquire()
  bool refused_ = false;               // the driver had no page-locked memory for it (under mutex_)
  std::atomic<uint32_t> used_{0};
};

// A read that landed in a slot: `size` bytes for `to`.
struct BouncedRead {
  int slot = -1;
  void* to = nullptr;
  size_t size = 0;
};

// Gives a slot back unless it was handed on (take()).
class BounceSlot {
 public:
  BounceSlot(ReadBounce& bounce, int index) : bounce_(bounce), index_(index) {}
  ~BounceSlot() {
    if (index_ >= 0) bounce_.release(index_);
  }
  BounceSlot(const BounceSlot&) = delete;
  BounceSlot& operator=(const BounceSlot&) = delete;
  explicit operator bool() const { return index_ >= 0; }
  int index() const { return index_; }
  int take() { return std::exchange(index_, -1); }

 private:
  ReadBounce& bounce_;
  int index_;
};

}  // namespace cucl::backend::cuda

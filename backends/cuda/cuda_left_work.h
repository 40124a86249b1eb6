// Work that a stream's completion thread has seen end and leaves to its submitters to finish
// (CompletionQueue::reap). The thread hands over a chain of it at a time, and a submitter takes
// everything handed over at once. Lock-free: a submitter never waits for the thread there (a
// lock shared with it cost each reaping launch ~0.7 us on an H200, the thread holding it to take
// that launch's item).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "backends/backend.h"

namespace cucl::backend::cuda {

class LeftWork {
  static constexpr size_t kCacheLine = 64;

 public:
  // What the completion thread builds up and hands over: newest first.
  class Handover {
   public:
    bool empty() const { return newest_ == nullptr; }

   private:
    friend class LeftWork;
    void add(Work& work) {
      work.left_next = newest_;
      newest_ = &work;
      if (!oldest_) oldest_ = &work;
    }
    Work* newest_ = nullptr;
    Work* oldest_ = nullptr;
  };
  // What a taker gets: oldest first.
  class Chain {
   public:
    bool empty() const { return first_ == nullptr; }
    size_t size() const { return size_; }
    // Calls `visit` on each work in order; `visit` may end the work (left_next is read first).
    template <class Visit>
    void for_each(Visit visit) const {
      for (Work* work = first_; work;) {
        Work* next = work->left_next;
        visit(*work);
        work = next;
      }
    }

   private:
    friend class LeftWork;
    Work* first_ = nullptr;
    size_t size_ = 0;
  };

  // The completion thread: `work` joins `handover` and counts as outstanding from now on, before
  // its item counts as finished (finished_through): settle() then waits for it.
  void leave(Handover& handover, Work& work) {
    handed_.store(handed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    handover.add(work);
  }
  // The completion thread: publishes what `handover` holds.
  void hand_over(Handover& handover) {
    if (handover.empty()) return;
    // The whole list stays newest first: what was handed over earlier goes after the oldest.
    handover.oldest_->left_next = head_.load(std::memory_order_relaxed);
    while (!head_.compare_exchange_weak(handover.oldest_->left_next, handover.newest_, std::memory_order_release,
                                        std::memory_order_relaxed)) {
    }
    handover = Handover{};
  }
  // Any thread: everything handed over and not yet taken, oldest first.
  Chain take_all() {
    Chain taken;
    if (head_.load(std::memory_order_relaxed) == nullptr) return taken;
    Work* newest = head_.exchange(nullptr, std::memory_order_acquire);
    while (newest) {
      Work* older = newest->left_next;
      newest->left_next = taken.first_;
      taken.first_ = newest;
      ++taken.size_;
      newest = older;
    }
    return taken;
  }
  bool empty() const { return head_.load(std::memory_order_acquire) == nullptr; }
  // Whoever finished taken work (after finished() returned).
  void count_finished(size_t count) {
    if (count) finished_.fetch_add(count, std::memory_order_acq_rel);
  }
  // Every work handed over so far has been finished.
  bool all_finished() const {
    const uint64_t handed = handed_.load(std::memory_order_acquire);
    return finished_.load(std::memory_order_acquire) >= handed;
  }

 private:
  // Written by the thread once per hand-over and by a submitter once per reap, which also counts.
  alignas(kCacheLine) std::atomic<Work*> head_{nullptr};
  std::atomic<uint64_t> finished_{0};
  // The completion thread's alone (read by settle()).
  alignas(kCacheLine) std::atomic<uint64_t> handed_{0};
};

}  // namespace cucl::backend::cuda

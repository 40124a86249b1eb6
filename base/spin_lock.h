// A lock for critical sections of a few dozen instructions that two threads take in turn
// for every command (the enqueuing thread and the one that finishes commands). Under
// contention std::mutex sleeps in the kernel and its unlock wakes the sleeper with a system
// call: in a virtual machine each costs microseconds, many times the critical section. This
// one spins (pausing) and, should the holder have lost its core, yields. Not for sections
// that block or run callbacks of unknown length.
#pragma once

#include <atomic>
#include <thread>

#include "base/spin_wait.h"

namespace cucl {

class SpinLock {
 public:
  SpinLock() = default;
  SpinLock(const SpinLock&) = delete;
  SpinLock& operator=(const SpinLock&) = delete;

  void lock() noexcept {
    for (unsigned spins = 0;; ++spins) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      while (locked_.load(std::memory_order_relaxed)) {
        cpu_relax();
        if (++spins % 256 == 0) std::this_thread::yield();
      }
    }
  }
  bool try_lock() noexcept {
    return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire);
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace cucl

// How many of a queue's direct commands (direct_command.h) have finished. The stream finishes
// them in the order they were submitted, so "N have finished" means "the first N have":
// clFinish waits for the count it read when it was called.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "backends/backend.h"

namespace cucl {

class FinishedCount {
 public:
  // One more has finished (the thread that finishes commands).
  void add_one();
  // Blocks until `count` have finished, or, when they finish nothing on the host, until
  // `stream` has ended everything up to `mark` (backend::Stream::ended_through; the commands
  // counted were submitted by then). `stream` is told that someone waits.
  void wait_for(uint64_t count, backend::Stream& stream, uint64_t mark);

 private:
  bool reached(uint64_t count) const { return finished_.load(std::memory_order_seq_cst) >= count; }

  std::atomic<uint64_t> finished_{0};
  // Sleepers register before they look at the count, add_one() looks at sleepers after it
  // counts: one of the two sees the other, so no wake-up is lost.
  std::atomic<unsigned> sleepers_{0};
  std::mutex mutex_;
  std::condition_variable changed_;
};

}  // namespace cucl

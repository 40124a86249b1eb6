#include "platform/queue/finished_count.h"

#include "platform/queue/stream_wait.h"

namespace cucl {

void FinishedCount::add_one() {
  finished_.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
  // Taking the lock orders the notification after a sleeper's look at the count.
  { std::lock_guard lock(mutex_); }
  changed_.notify_all();
}

void FinishedCount::wait_for(uint64_t count, backend::Stream& stream, uint64_t mark) {
  if (reached(count)) return;
  StreamWaitNotice notice(&stream);
  // Seeing the device done saves waiting for the stream's thread to finish the commands.
  if (notice.watch([&] { return reached(count) || stream.ended_through(mark); })) return;
  std::unique_lock lock(mutex_);
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  changed_.wait(lock, [&] { return reached(count); });
  sleepers_.fetch_sub(1, std::memory_order_seq_cst);
}

}  // namespace cucl

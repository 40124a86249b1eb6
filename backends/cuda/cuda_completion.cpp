#include "backends/cuda/cuda_completion.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "backends/cuda/cuda_execute.h"
#include "backends/cuda/cuda_prefetch.h"
#include "base/debug_log.h"
#include "base/clock.h"
#include "base/spin_wait.h"

namespace cucl::backend::cuda {
namespace {

// Commands often come back to back (the next is submitted when this one finishes): a
// short spin catches them without the cost of sleeping and being woken.
constexpr auto kIdleSpin = std::chrono::microseconds(50);
// Most stream work is short: watching an event catches its end within a microsecond or so;
// sleeping on it (CU_EVENT_BLOCKING_SYNC) costs no processor but a wake-up of tens of
// microseconds in a virtual machine (backends/spin_wait.h).
constexpr auto kEventSpin = std::chrono::microseconds(2000);
// A transfer between host memory and the GPU lasts at least its bytes over the bus: a waiter
// watches it that much longer (at this rate, below any current link's; at most kMaxWatch),
// so the end of a large map, unmap, read or write is seen as it comes rather than after a
// wake-up. Kernels' lengths are unknown: they get kEventSpin and then sleep.
constexpr double kSlowestBusBytesPerUs = 20e3;  // 20 GB/s
constexpr auto kMaxWatch = std::chrono::microseconds(50000);
static_assert(kMaxWatch > kEventSpin);
// While the stream is far behind its submitter, every few items carry a checkpoint event,
// so that the first of a long run of queued items finishes when it is done, not when the
// whole run is. Below that depth the completion thread keeps up and records one event per
// batch itself.
constexpr size_t kDeepBacklog = 16;
constexpr unsigned kCheckpointSpacing = 8;
// cuStreamQuery takes a lock in the driver that the submitter's launches and copies need
// too: polling it while the submitter works slows both (an H100 launched every 6.8 us
// instead of 4.0 us while another thread polled the stream; an event query does not do
// that). So while nobody waits for the stream or for the oldest unfinished item (a thread
// in Event::wait, a dependent command, a callback), it is polled only once the submitter
// has pushed nothing for kSubmitterPause, and work that arrives meanwhile joins the wait...
constexpr auto kSubmitterPause = std::chrono::microseconds(20);
// ...until the oldest unfinished item has waited this long: then a recorded event marks its
// end, so a steady stream of new work cannot hold it back. Commands nothing names (nobody sees
// when they finish) wait longer: each close of the window (an event recorded and polled, a
// batch finished beside the submitter) slows the submitter's next launches (launch_spacing.cpp,
// +record 200us: 0.3-0.4 us per launch on an H200).
constexpr auto kMergeWindow = std::chrono::microseconds(200);
constexpr auto kUnnamedMergeWindow = std::chrono::microseconds(1000);
// A waiter that looked at the stream this recently still looks (each look is one
// cuStreamQuery, ~1.3-1.5 us on an H200): this thread leaves the driver to it.
constexpr uint64_t kLookingNs = 5000;
// An allocation the card refused waits at most this long for a thread to finish what has ended
// on the device (settle()): finishing takes microseconds, unless it runs deferred work first.
constexpr auto kSettleLimit = std::chrono::microseconds(20000);
// The most items of one batch left for the submitter to finish (see finish_batch).
constexpr size_t kMostLeft = 4;
// While nobody waits, the thread reads the clock only every this many turns of its watch
// (about a microsecond), and looks at the submitters' side (queued_, pushed_) only every
// kQuietLook: each look at the cache lines that they write on every push costs their next push
// a miss, which an H200's host made ~0.3 us (tools/probes/launch_spacing.cpp, +spinner).
constexpr unsigned kQuietTurns = 16;
constexpr auto kQuietLook = std::chrono::microseconds(10);
static_assert(kQuietLook < kSubmitterPause);
// A waiter writes a line (its count, the look's time, the mark it saw) that this thread reads on
// every turn of its watch, and each read there costs the waiter's next write a miss. Where only
// commands nothing names are left (a waiter's clFinish ends on its own look, ended_through),
// the thread reads it, and whether their finishing can still wait, only this often; it still
// watches the queued count on every turn, so new items are taken at once.
constexpr auto kWaiterPace = std::chrono::microseconds(5);

// A check made at most once per period: due(now) says whether one is due, and starts the next
// period when it is.
class Every {
 public:
  explicit Every(std::chrono::microseconds period) : period_(period) {}
  bool due(std::chrono::steady_clock::time_point now) {
    if (now < next_) return false;
    next_ = now + period_;
    return true;
  }

 private:
  std::chrono::microseconds period_;
  std::chrono::steady_clock::time_point next_{};
};

size_t host_transfer_bytes(const CudaDriver& driver, const Operation& operation) {
  if (const auto* migrate = std::get_if<op::Migrate>(&operation)) return shared_bytes_moved(driver, *migrate);
  if (const auto* copy = std::get_if<op::Copy>(&operation)) {
    return copy->src.memory && copy->dst.memory ? 0 : copy->size;
  }
  if (const auto* map = std::get_if<op::Map>(&operation)) return map->needs_read ? map->size : 0;
  if (const auto* unmap = std::get_if<op::Unmap>(&operation)) return unmap->needs_write ? unmap->size : 0;
  return 0;
}

std::chrono::microseconds watch_for_bytes(double bytes) {
  const auto transfer = std::chrono::microseconds(static_cast<int64_t>(bytes / kSlowestBusBytesPerUs));
  return std::min(kEventSpin + transfer, kMaxWatch);
}

}  // namespace

std::chrono::microseconds CompletionQueue::watch_for(const std::vector<Item>& batch, size_t index) const {
  double bytes = 0;
  for (size_t i = index; i < batch.size(); ++i) bytes += static_cast<double>(batch[i].transfer_bytes);
  return watch_for_bytes(bytes);
}

std::chrono::microseconds CompletionQueue::watch_time() const {
  return watch_for_bytes(static_cast<double>(transfer_bytes_.load(std::memory_order_acquire)));
}

std::shared_ptr<CompletionQueue> CompletionQueue::start(std::shared_ptr<CudaContext> context, CUstream stream,
                                                        std::shared_ptr<DeviceClock> clock) {
  std::shared_ptr<CompletionQueue> queue(new CompletionQueue(std::move(context), stream, std::move(clock)));
  queue->thread_ = std::thread(run, queue);
  queue->context_->finishing_threads().track(queue);
  return queue;
}

void CompletionQueue::push(Work& work, cl_int status, Kind kind, bool started, const TimingEvents& timing,
                           CopyOut copy_out) {
  std::unique_lock lock(mutex_);
  Item item{&work, status, kind, nullptr, timing, started, 0, 0, copy_out};
  // Only work that something may wait for alone needs a checkpoint: the rest (a direct
  // command, which clFinish counts) is finished with the work around it.
  if (kind == Kind::StreamWork && ++since_checkpoint_ >= kCheckpointSpacing && work.observable() &&
      outstanding_.load(std::memory_order_relaxed) >= kDeepBacklog) {
    item.checkpoint = record_checkpoint_locked();
  }
  append(lock, item);
}

void CompletionQueue::push_seen_done(Work& work, cl_int status, bool started, const TimingEvents& timing,
                                     uint64_t dry_through, CopyOut copy_out) {
  std::unique_lock lock(mutex_);
  // Nothing pushed since the stream was seen dry: a waiter's look has nothing left to see.
  const bool last = pushed_.load(std::memory_order_relaxed) == dry_through;
  append(lock, {&work, status, Kind::Done, nullptr, timing, started, 0, 0, copy_out});
  if (last) note_done_through(dry_through + 1);
}

void CompletionQueue::push_gated(Work& work, Kind kind, bool started) {
  std::unique_lock lock(mutex_);
  append(lock, {&work, CL_SUCCESS, kind, nullptr, {}, started, 0, 0, {}});
}

CUevent CompletionQueue::record_checkpoint_locked() {
  // Under the lock: it follows the work of every item pushed before it. Without it the
  // completion thread's own wait covers the item.
  CUevent event = events_.record(stream_);
  if (event) since_checkpoint_ = 0;
  return event;
}

void CompletionQueue::append(std::unique_lock<std::mutex>& lock, const Item& item) {
  items_.push_back(item);
  Item& queued = items_.back();
  queued.ordinal = pushed_.load(std::memory_order_relaxed) + 1;
  queued.transfer_bytes = host_transfer_bytes(context_->driver(), item.work->operation());
  if (queued.transfer_bytes) transfer_bytes_.fetch_add(queued.transfer_bytes, std::memory_order_acq_rel);
  // Counted while the lock keeps the thread from taking the item, and before the ordinal is
  // published: whoever reads it (ended_through) sees them.
  const bool gating = item.kind == Kind::Host || item.kind == Kind::Deferred;
  if (gating) gated_.fetch_add(1, std::memory_order_acq_rel);
  if (item.copy_out.slot >= 0) copy_outs_.fetch_add(1, std::memory_order_acq_rel);
  queued.finishes_on_host = gating || item.copy_out.slot >= 0 || item.work->finishes_on_host();
  if (queued.finishes_on_host) host_finishes_.fetch_add(1, std::memory_order_acq_rel);
  outstanding_.fetch_add(1, std::memory_order_relaxed);
  // After the item's work was enqueued: a look that reads the ordinal comes after that work.
  pushed_.store(queued.ordinal, std::memory_order_release);
  if (item.work->observable()) observable_queued_.fetch_add(1, std::memory_order_relaxed);
  queued_.store(items_.size(), std::memory_order_release);
  const bool asleep = sleeping_;
  lock.unlock();
  if (asleep) wake_.notify_one();  // a spinning thread sees queued_ without a system call
}

bool CompletionQueue::take_all(std::vector<Item>& batch) {
  if (!batch.empty()) {
    std::lock_guard lock(mutex_);
    if (!items_.empty()) {
      batch.insert(batch.end(), items_.begin(), items_.end());
      items_.clear();
      observable_queued_.store(0, std::memory_order_relaxed);
      queued_.store(0, std::memory_order_release);
      last_take_ = std::chrono::steady_clock::now();
    }
    return true;
  }
  if (queued_.load(std::memory_order_acquire) == 0) {
    spin_until(
        [this] {
          return queued_.load(std::memory_order_acquire) != 0 || returned_count_.load(std::memory_order_acquire) != 0;
        },
        kIdleSpin);
  }
  std::unique_lock lock(mutex_);
  while (items_.empty() && returned_.empty() && !stopping_) {
    sleeping_ = true;
    wake_.wait(lock);
    sleeping_ = false;
  }
  if (items_.empty()) return !returned_.empty();  // returned work only (finish_batch takes it), or stopping
  batch.swap(items_);                // both keep their capacity: no allocation per batch
  observable_queued_.store(0, std::memory_order_relaxed);
  queued_.store(0, std::memory_order_release);
  last_take_ = std::chrono::steady_clock::now();
  return true;
}

void CompletionQueue::look() {
  const uint64_t pushed = pushed_.load(std::memory_order_acquire);
  if (pushed <= idle_through_.load(std::memory_order_acquire)) return;  // nothing new to look for
  try {
    context_->make_current();
  } catch (const CudaError&) {
    return;
  }
  // A failure is left to this queue's thread, which asks the driver itself and reports it.
  uint64_t through = 0;
  query_stream(through);
}

cl_int CompletionQueue::wait_until_dry(uint64_t& dry_through) {
  struct Waiting {
    CompletionQueue& queue;
    explicit Waiting(CompletionQueue& queue) : queue(queue) { queue.wait_began(); }
    ~Waiting() { queue.wait_ended(); }
  } waiting(*this);
  CUresult result = CUDA_ERROR_NOT_READY;
  const auto answered = [&] { return (result = query_stream(dry_through)) != CUDA_ERROR_NOT_READY; };
  if (watching_pays() ? spin_until(answered, watch_time()) : answered()) return status_of(result);
  // An event recorded now follows everything enqueued so far.
  dry_through = pushed_.load(std::memory_order_acquire);
  const CudaDriver& driver = context_->driver();
  if (CUevent event = events_.record(stream_)) {
    result = driver.cuEventSynchronize(event);
    events_.give_back(event);
  } else {
    result = driver.cuStreamSynchronize(stream_);
  }
  if (result == CUDA_SUCCESS) note_done_through(dry_through);
  return status_of(result);
}

CUresult CompletionQueue::query_stream(uint64_t& through) {
  through = pushed_.load(std::memory_order_acquire);
  const CUresult result = context_->driver().cuStreamQuery(stream_);
  if (result == CUDA_SUCCESS || result == CUDA_ERROR_NOT_READY) looked_ns_.store(now_ns(), std::memory_order_release);
  if (result == CUDA_SUCCESS) note_done_through(through);
  return result;
}

void CompletionQueue::note_done_through(uint64_t ordinal) {
  uint64_t through = idle_through_.load(std::memory_order_acquire);
  while (through < ordinal && !idle_through_.compare_exchange_weak(through, ordinal, std::memory_order_acq_rel)) {
  }
}

bool CompletionQueue::waiter_looks() const {
  return now_ns() - looked_ns_.load(std::memory_order_acquire) < kLookingNs;
}

cl_int CompletionQueue::wait_for(CUevent event, uint64_t ordinal, const Work* unhurried) {
  const CudaDriver& driver = context_->driver();
  CUresult result = CUDA_ERROR_NOT_READY;
  Every query(kQuietLook);
  spin_until(
      [&] {
        if (seen_done(ordinal)) {
          result = CUDA_SUCCESS;
          return true;
        }
        if (unhurried && waiters_.load(std::memory_order_acquire) == 0 && !unhurried->awaited() &&
            !query.due(std::chrono::steady_clock::now())) {
          return false;
        }
        return (result = driver.cuEventQuery(event)) != CUDA_ERROR_NOT_READY;
      },
      kEventSpin);
  // A fault anywhere in the context (CUDA_ERROR_ILLEGAL_ADDRESS...) shows up here.
  if (result == CUDA_ERROR_NOT_READY) result = driver.cuEventSynchronize(event);
  if (result == CUDA_SUCCESS) note_done_through(ordinal);
  return status_of(result);
}

cl_int CompletionQueue::wait_for_stream(uint64_t ordinal, const Work* unhurried) {
  CUevent event = nullptr;
  try {
    event = events_.take();
  } catch (const CudaError&) {
    return status_of(context_->driver().cuStreamSynchronize(stream_));
  }
  const CUresult recorded = context_->driver().cuEventRecord(event, stream_);
  cl_int status = recorded == CUDA_SUCCESS ? wait_for(event, ordinal, unhurried) : status_of(recorded);
  events_.give_back(event);
  return status;
}

std::optional<cl_int> CompletionQueue::wait_through(const std::vector<Item>& batch, size_t index,
                                                    size_t& covered) {
  // Every item of the batch was enqueued before it was pushed, so before the batch was
  // taken: an event recorded now covers them all, and a checkpoint covers what came before.
  for (size_t i = index; i < batch.size(); ++i) {
    if (batch[i].checkpoint) {
      covered = i + 1;
      tail_since_ = std::chrono::steady_clock::time_point{};  // what is left waits anew
      return wait_for(batch[i].checkpoint, batch[i].ordinal);
    }
  }
  covered = batch.size();
  // The stream running dry is the sign, and watching it needs no event recorded first (the
  // common case of one command and a wait for it).
  using Clock = std::chrono::steady_clock;
  if (tail_since_ == Clock::time_point{}) tail_since_ = Clock::now();
  const CudaDriver& driver = context_->driver();
  CUresult result = CUDA_ERROR_NOT_READY;
  bool merge = false;
  // The first item may become awaited while this waits (a command on another queue that
  // depends on it); the others are looked at once.
  const bool later_awaited = std::any_of(batch.begin() + static_cast<std::ptrdiff_t>(index) + 1, batch.end(),
                                         [](const Item& item) { return item.work->awaited(); });
  // The StreamWork items of the batch were all pushed by then (Deferred ones, whose work this
  // thread enqueues later, do not count on it; see finish_batch).
  const uint64_t last = batch.back().ordinal;
  // Only commands nothing names (see finishing_can_wait).
  const bool unnamed = std::none_of(batch.begin() + static_cast<std::ptrdiff_t>(index), batch.end(),
                                    [](const Item& item) { return item.work->observable(); });
  const auto merge_window = unnamed ? kUnnamedMergeWindow : kMergeWindow;
  const bool finishes_on_host = std::any_of(batch.begin() + static_cast<std::ptrdiff_t>(index), batch.end(),
                                            [](const Item& item) { return item.finishes_on_host; });
  // The submitter counts as busy until it has pushed nothing for kSubmitterPause.
  Clock::time_point pushed_at = last_take_;
  Every quiet_look(kQuietLook);
  // Unnamed items only: until then this thread need not read the lines waiters write (see
  // kWaiterPace), nor ask again whether finishing can wait.
  Clock::time_point paced_until{};
  Every can_wait_check(kWaiterPace);
  uint64_t seen_pushed = last;
  unsigned turn = 0;
  bool quiet_last = false;  // at the watch's last turn
  // The watch's turn. A batch of commands nothing names needs only its queued count watched on
  // every turn (new items are taken at once); the rest (whether the stream was seen to end,
  // waiters, the submitter's pause) every kWaiterPace.
  const auto turn_of_watch = [&] {
    if (seen_done(last)) {
      quiet_last = false;  // the quiet watch's own pace is not needed here
      if (!unnamed) {
        result = CUDA_SUCCESS;
        return true;
      }
      if (can_wait_check.due(Clock::now()) && !finishing_can_wait()) {
        // Finishing became urgent. When nothing here finishes on the host and nobody sleeps on
        // it, that is for an item pushed since (a blocking read raises host_finishes_), which
        // then joins this batch instead of waiting for a second one.
        merge = !finishes_on_host && queued_.load(std::memory_order_acquire) != 0 && !waiter_sleeps();
        if (!merge) result = CUDA_SUCCESS;
        return true;
      }
      // The submitter's next items come first; these are finished as they are taken.
      merge = queued_.load(std::memory_order_acquire) != 0;
      return merge;
    }
    const bool quiet = waiters_.load(std::memory_order_acquire) == 0 && !later_awaited &&
                       !batch[index].work->awaited();
    quiet_last = quiet;
    if (quiet && ++turn % kQuietTurns != 0) return false;
    const auto now = Clock::now();
    if (quiet && !quiet_look.due(now)) return false;
    if (queued_.load(std::memory_order_acquire) != 0) {
      // New items join this wait. While nobody waits and none of them is observable, they
      // are taken only when the stream is asked (a query covers every item pushed before
      // it) or the merge window closes, so a busy submitter's pushes find its lines alone.
      if (!quiet || observable_queued_.load(std::memory_order_relaxed) != 0 ||
          now - tail_since_ >= merge_window) {
        merge = now - tail_since_ < merge_window;
        return true;
      }
      const uint64_t pushed = pushed_.load(std::memory_order_relaxed);
      if (pushed != seen_pushed) {
        seen_pushed = pushed;
        pushed_at = now;
      }
    }
    if (quiet && now - pushed_at < kSubmitterPause) return false;
    if (waiter_looks()) return false;
    const uint64_t through = pushed_.load(std::memory_order_acquire);
    result = driver.cuStreamQuery(stream_);
    if (result == CUDA_SUCCESS) note_done_through(through);
    return result != CUDA_ERROR_NOT_READY;
  };
  spin_until(
      [&] {
        if (paced_until != Clock::time_point{}) {
          // New items end the pace at once: a blocking read pushed by the waiter itself (once its
          // own wait saw the stream dry) must not wait out the pace to be finished.
          if (queued_.load(std::memory_order_acquire) == 0 && Clock::now() < paced_until) return false;
          paced_until = Clock::time_point{};
        }
        if (turn_of_watch()) return true;
        // A quiet watch keeps its own pace (kQuietTurns, kQuietLook).
        if (unnamed && !quiet_last) paced_until = Clock::now() + kWaiterPace;
        return false;
      },
      watch_for(batch, index));
  if (merge) return std::nullopt;
  tail_since_ = Clock::time_point{};
  if (result != CUDA_ERROR_NOT_READY) return status_of(result);
  // An event recorded now follows every item pushed so far, taken or not. While nobody waits
  // for them, it is asked about only every kQuietLook: a thread polling cuEventQuery made each
  // launch of the submitter 0.5-0.95 us dearer on an H200 (launch_spacing.cpp, +eventpoll).
  return wait_for_stream(pushed_.load(std::memory_order_acquire), quiet_last ? batch[index].work : nullptr);
}

bool CompletionQueue::finishing_can_wait() const {
  // A waiter that sleeps needs the count that finishing raises, and one that waits for work
  // finished on the host needs that work finished.
  if (host_finishes_.load(std::memory_order_acquire) != 0) return false;
  if (waiter_sleeps()) return false;
  return std::chrono::steady_clock::now() - last_take_ < kSubmitterPause;
}

cl_int CompletionQueue::status_of(CUresult result) const {
  if (result == CUDA_SUCCESS) return CL_SUCCESS;
  context_->note_result(result);
  return CL_OUT_OF_RESOURCES;
}

void CompletionQueue::report_loss(Work& work) {
  if (loss_reported_ || !context_->lost()) return;
  loss_reported_ = true;
  work.report_error(context_->loss_message());
}

cl_int CompletionQueue::run_deferred(Item& item) {
  cl_int status = CL_OUT_OF_RESOURCES;
  try {
    Enqueued enqueued = enqueue_work(*context_, stream_, *item.work, *clock_, item.timing);
    status = enqueued.status;
    if (status >= 0 && (enqueued.pending == Pending::StreamWork || item.timing.ended)) status = wait_for_stream(0);
  } catch (const std::exception& error) {
    debug_log(std::string("a CUDA command failed: ") + error.what());
  } catch (...) {
  }
  return status;
}

void CompletionQueue::finish_batch(std::vector<Item>& batch) {
  // Every time: a host function or finished() may have made another context current.
  bool current = false;
  try {
    context_->make_current();
    current = true;
  } catch (const CudaError&) {
    // Without the context nothing can be waited for: the items fail.
  }
  // Work nothing names, with nothing to do on the host, is left for a busy submitter to finish
  // itself at its next command (reap()): finished here, beside that command, the lines of the
  // command block, the queue's count and the objects' holds would move between the two threads.
  // A few per batch: a burst's batches are long, and reaping one whole would hold up the
  // submitter's next command, while finishing it here costs the submitter little.
  size_t may_leave =
      std::chrono::steady_clock::now() - last_take_ < kSubmitterPause && !waiter_sleeps() ? kMostLeft : 0;
  LeftWork::Handover handover;
  finish_returned();
  size_t covered = 0;                  // items before it are known to be done on the stream
  cl_int covered_status = CL_SUCCESS;  // how the wait that covered them ended
  size_t finished = 0;
  for (; finished < batch.size(); ++finished) {
    Item& item = batch[finished];
    // Everything before it has ended: it is running now, unless it waits for another stream.
    if (!item.started && item.work->device_waits().empty()) start(item);
    cl_int status = current ? item.status : CL_OUT_OF_RESOURCES;
    if (item.kind == Kind::StreamWork && status >= 0 && finished >= covered) {
      if (seen_done(item.ordinal)) {
        // A look saw it end (while this thread let it wait, see finishing_can_wait).
        covered = finished + 1;
        covered_status = CL_SUCCESS;
        tail_since_ = std::chrono::steady_clock::time_point{};
      } else {
        std::optional<cl_int> waited = wait_through(batch, finished, covered);
        if (!waited) break;  // newer items join this wait: the rest stays in the batch
        covered_status = *waited;
      }
    }
    switch (item.kind) {
      case Kind::Done:
        break;
      case Kind::StreamWork:
        if (status >= 0 && covered_status < 0) status = covered_status;
        break;
      case Kind::Host:
        // Every earlier item is finished, and later ones wait (gated): it runs alone.
        if (status >= 0) {
          const uint64_t began = now_ns();
          try {
            std::get<op::HostFunction>(item.work->operation()).run();
          } catch (...) {
            status = CL_OUT_OF_RESOURCES;
          }
          if (item.work->wants_times()) item.work->timed(began, now_ns());
        }
        gated_.fetch_sub(1, std::memory_order_acq_rel);
        break;
      case Kind::Deferred:
        if (status >= 0) status = run_deferred(item);
        gated_.fetch_sub(1, std::memory_order_acq_rel);
        break;
    }
    if (item.copy_out.slot >= 0) copy_out(item.copy_out, status);
    outstanding_.fetch_sub(1, std::memory_order_release);
    if (item.transfer_bytes) transfer_bytes_.fetch_sub(item.transfer_bytes, std::memory_order_acq_rel);
    if (status < 0) report_loss(*item.work);
    report_times(item, status);
    if (!item.started) start(item);
    // Not while anything pushed finishes on the host (every item that anything sees finish
    // does, Host and Deferred items included): that item would have to wait for this one to be
    // finished (finish_left_here).
    if (may_leave != 0 && status >= 0 && !item.finishes_on_host && !item.timing.began &&
        !item.work->observable() && host_finishes_.load(std::memory_order_acquire) == 0) {
      --may_leave;
      left_.leave(handover, *item.work);
      finished_through_.store(item.ordinal, std::memory_order_release);
      continue;
    }
    if (item.finishes_on_host || item.work->observable()) {
      // Something sees this item finish: every item before it is finished first.
      finish_left_here(handover);
    } else {
      // Handed over before this one is finished, which may wake a waiter whose next command reaps.
      left_.hand_over(handover);
    }
    item.work->finished(status);
    if (item.finishes_on_host) host_finishes_.fetch_sub(1, std::memory_order_acq_rel);
    finished_through_.store(item.ordinal, std::memory_order_release);
  }
  for (size_t i = 0; i < finished; ++i) {
    if (batch[i].checkpoint) events_.give_back(batch[i].checkpoint);
  }
  batch.erase(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(finished));
  left_.hand_over(handover);
}

void CompletionQueue::reap() {
  const LeftWork::Chain left = left_.take_all();
  if (left.empty()) return;
  // Not where finishing would destroy an object the application made: its destructor
  // callbacks would run inside this unrelated call of the application's, which may hold a lock
  // that they take. This thread's own lines only (the objects' holds), no shared ones.
  std::vector<Work*> returned;
  left.for_each([&](Work& work) {
    if (work.finishing_may_destroy()) {
      returned.push_back(&work);
    } else {
      work.finished(CL_SUCCESS);
    }
  });
  left_.count_finished(left.size() - returned.size());
  if (!returned.empty()) return_to_thread(returned);
}

void CompletionQueue::return_to_thread(const std::vector<Work*>& works) {
  bool asleep = false;
  {
    std::lock_guard lock(mutex_);
    returned_.insert(returned_.end(), works.begin(), works.end());
    returned_count_.store(returned_.size(), std::memory_order_release);
    asleep = sleeping_;
  }
  if (asleep) wake_.notify_one();
}

void CompletionQueue::take_back_left_locked() {
  left_.take_all().for_each([&](Work& work) { returned_.push_back(&work); });
  returned_count_.store(returned_.size(), std::memory_order_release);
}

void CompletionQueue::finish_returned() {
  if (returned_count_.load(std::memory_order_acquire) == 0) return;
  std::vector<Work*> returned;
  {
    std::lock_guard lock(mutex_);
    returned.swap(returned_);
    returned_count_.store(0, std::memory_order_relaxed);
  }
  for (Work* work : returned) work->finished(CL_SUCCESS);
  left_.count_finished(returned.size());
}

void CompletionQueue::reap_left() {
  // A waiter that sleeps needs the count that finishing raises now.
  if (!waiter_sleeps()) {
    // Only the queued count is watched (as take_all does): the list's line is the reaping
    // submitter's to write.
    const auto deadline = std::chrono::steady_clock::now() + kSubmitterPause;
    spin_until(
        [&] { return queued_.load(std::memory_order_acquire) != 0 || std::chrono::steady_clock::now() >= deadline; },
        kSubmitterPause);
    if (queued_.load(std::memory_order_acquire) != 0) return;  // the submitter is back: it reaps
  }
  LeftWork::Handover nothing_new;
  finish_left_here(nothing_new);
}

void CompletionQueue::finish_left_here(LeftWork::Handover& handover) {
  finish_returned();  // what a submitter gave back (it would destroy an object) comes first too
  if (handover.empty() && left_.empty()) return;
  left_.hand_over(handover);
  const LeftWork::Chain left = left_.take_all();
  left.for_each([](Work& work) { work.finished(CL_SUCCESS); });
  left_.count_finished(left.size());
}

void CompletionQueue::copy_out(const CopyOut& copy, cl_int status) {
  if (status >= 0) std::memcpy(copy.to, bounce_.slot(copy.slot), copy.size);
  bounce_.release(copy.slot);
  copy_outs_.fetch_sub(1, std::memory_order_acq_rel);
}

void CompletionQueue::report_times(Item& item, cl_int status) {
  if (!item.timing.began) return;
  if (status >= 0 && item.timing.ended) {
    const uint64_t began = clock_->host_ns(item.timing.began);
    const uint64_t ended = clock_->host_ns(item.timing.ended);
    if (began && ended) item.work->timed(began, ended);
  }
  clock_->give_back(item.timing);
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

void CompletionQueue::settle() {
  if (thread_id_.load(std::memory_order_acquire) == std::this_thread::get_id()) return;
  const uint64_t ended = idle_through_.load(std::memory_order_acquire);
  // What waits to be reaped goes back to this queue's thread, which finishes it now.
  bool asleep = false;
  {
    std::lock_guard lock(mutex_);
    take_back_left_locked();
    asleep = sleeping_;
  }
  if (asleep) wake_.notify_one();
  spin_until(
      [&] { return finished_through_.load(std::memory_order_acquire) >= ended && left_.all_finished(); },
      kSettleLimit);
}

void CompletionQueue::run(std::shared_ptr<CompletionQueue> self) {
  self->thread_id_.store(std::this_thread::get_id(), std::memory_order_release);
  std::vector<Item> batch;
  while (true) {
    if (batch.empty() && !self->left_.empty()) self->reap_left();
    if (!self->take_all(batch)) break;
    self->finish_batch(batch);
  }
  LeftWork::Handover nothing_new;
  self->finish_left_here(nothing_new);
}

}  // namespace cucl::backend::cuda

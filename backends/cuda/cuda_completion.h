// Finishes a stream's work on one host thread, in submission order. The submitting thread
// enqueues an operation on the CUDA stream and pushes an item; the completion thread takes
// every item queued so far at once, waits until the stream has passed them (the stream
// running dry, one CUDA event it records itself, or a checkpoint event an item carries),
// and calls Work::finished for each (a few commands nothing names it leaves to their submitter's
// next command instead, reap(), but never past an item whose finish anything sees). So the
// common command costs its submitter no CUDA event, and a burst of commands costs the
// completion thread one wait. No CUDA callback is
// involved, so finished() and whatever it triggers (the next command's submission) may
// call the driver freely.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "backends/backend.h"
#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_device_clock.h"
#include "backends/cuda/cuda_event_pool.h"
#include "backends/cuda/cuda_left_work.h"
#include "backends/cuda/cuda_read_bounce.h"
#include "base/clock.h"

namespace cucl::backend::cuda {

class CompletionQueue final : public FinishingThread {
  static constexpr size_t kCacheLine = 64;

 public:
  enum class Kind : uint8_t {
    Done,        // nothing of it is left on the stream (or it failed: negative status)
    StreamWork,  // done once the stream has passed the point where it was pushed
    Host,        // a host function: runs here once everything before it is done
    // Enqueued by this thread once everything before it is done: work submitted while a
    // host function was pending (so the stream keeps submission order around it), and work
    // whose enqueue would make its submitter wait for the stream (reads into pageable
    // memory, staged transfers), so that submitting it never blocks on earlier commands.
    Deferred,
  };

  // Starts the thread; the queue lives as long as the thread or its owner needs it.
  // `stream` outlives every item pushed; `clock` is the device's.
  static std::shared_ptr<CompletionQueue> start(std::shared_ptr<CudaContext> context, CUstream stream,
                                                std::shared_ptr<DeviceClock> clock);
  ~CompletionQueue() = default;  // may run on the thread itself (see stop())
  CompletionQueue(const CompletionQueue&) = delete;
  CompletionQueue& operator=(const CompletionQueue&) = delete;

  // A read that landed in a slot of bounce(): its bytes go to `to` once the item is done,
  // before Work::finished, and the slot goes back.
  using CopyOut = BouncedRead;

  // After enqueuing the work's operations (the context is current on the calling thread),
  // with the timing events recorded around them, which the queue gives back. `started`: the
  // submitter has called Work::started (else this thread does, see finish_batch).
  void push(Work& work, cl_int status, Kind kind, bool started, const TimingEvents& timing = {},
            CopyOut copy_out = {});
  // Host and Deferred work: everything submitted after it is deferred too until this
  // thread has handled it (see gated()).
  void push_gated(Work& work, Kind kind, bool started);
  // A host function or deferred work is pending: new work must be pushed as Deferred.
  bool gated() const { return gated_.load(std::memory_order_acquire) != 0; }
  // The stream's page-locked read slots (see CopyOut).
  ReadBounce& bounce() { return bounce_; }
  // Items with a CopyOut are not finished yet: their bytes have not reached the application's
  // memory, so work that reads or writes host memory as it is enqueued must be deferred.
  bool copying_out() const { return copy_outs_.load(std::memory_order_acquire) != 0; }
  // Times profiled work (timing events recorded by submitters, measured by this thread).
  DeviceClock& clock() { return *clock_; }
  // Items pushed and not yet finished: their work may still be on the stream.
  bool busy() const { return outstanding_.load(std::memory_order_acquire) != 0; }
  // The ordinal of the last item pushed (a mark for ended_through).
  uint64_t pushed() const { return pushed_.load(std::memory_order_acquire); }
  // Every item up to `ordinal` has ended on the device, and no item pushed and not yet finished
  // finishes on the host (Work::finishes_on_host, a host function, deferred work, a copy-out):
  // only their finished() calls are left (Stream::ended_through).
  bool ended_through(uint64_t ordinal) const {
    return host_finishes_.load(std::memory_order_acquire) == 0 && seen_done(ordinal);
  }
  // Someone waits for this stream's work: watch it closely (see wait_through).
  void wait_began() {
    waiters_.fetch_add(1, std::memory_order_acq_rel);
    looked_ns_.store(now_ns(), std::memory_order_release);  // it looks next (see look())
  }
  void wait_ended() { waiters_.fetch_sub(1, std::memory_order_acq_rel); }
  // A waiting thread's look (Stream::look): when the stream has run dry, every item pushed
  // before the look is done, and this thread finishes them without asking the driver.
  void look();
  // Finishes the work this thread left to its submitters (see finish_batch).
  void reap();
  // Work its submitter has already seen end (Work::waited_by_submitter): the stream ran dry
  // after it, in a wait_until_dry that covered the items up to `dry_through`.
  void push_seen_done(Work& work, cl_int status, bool started, const TimingEvents& timing, uint64_t dry_through,
                      CopyOut copy_out);
  // For a submitter that waits anyway (Work::waited_by_submitter): waits until everything
  // enqueued on the stream so far is done, looking at it as a waiter does, then sleeping on an
  // event (the context is current). `dry_through`: the items that wait covered.
  cl_int wait_until_dry(uint64_t& dry_through);
  // How long a waiter should watch before it sleeps: the host transfers pushed and not yet
  // finished, at the slowest bus's rate, on top of a short command's watch.
  std::chrono::microseconds watch_time() const;
  // The thread finishes what is queued and ends. Callable from the thread itself (the last
  // finished() may release the stream that owns this queue).
  void stop();
  // Until every item up to the mark of the looks (idle_through_) has been finished.
  void settle() override;

 private:
  struct Item {
    Work* work;
    cl_int status;  // negative: finish with it, waiting for nothing
    Kind kind;
    CUevent checkpoint = nullptr;  // recorded after this item's and every earlier item's work
    TimingEvents timing;           // profiled work's start and end on the stream
    bool started = false;          // Work::started has been called
    uint64_t ordinal = 0;          // 1 for the first item pushed, 2 for the next...
    size_t transfer_bytes = 0;     // what its work moves between host memory and the GPU
    CopyOut copy_out;
    bool finishes_on_host = false;  // counted in host_finishes_ until finished() has returned
  };

  CompletionQueue(std::shared_ptr<CudaContext> context, CUstream stream, std::shared_ptr<DeviceClock> clock)
      : context_(std::move(context)),
        stream_(stream),
        clock_(std::move(clock)),
        events_(context_, CU_EVENT_DISABLE_TIMING | CU_EVENT_BLOCKING_SYNC),
        bounce_(context_) {}
  static void run(std::shared_ptr<CompletionQueue> self);
  // Queues `item` and releases the lock.
  void append(std::unique_lock<std::mutex>& lock, const Item& item);
  // A checkpoint event recorded now, or null; the context is current.
  CUevent record_checkpoint_locked();
  // Moves every queued item to the end of `batch`: at once when `batch` still holds an
  // unfinished tail, else after waiting for items (or stop()); false when stopped with
  // nothing left.
  bool take_all(std::vector<Item>& batch);
  // Finishes the items of `batch` in order; those it cannot finish yet stay in it.
  void finish_batch(std::vector<Item>& batch);
  // Finishes what submitters did not reap within kSubmitterPause (this thread).
  void reap_left();
  // Finishes, on this thread, what `handover` holds and every work left earlier and not reaped.
  void finish_left_here(LeftWork::Handover& handover);
  // Hands `works` back to this thread, which finishes them (finish_returned).
  void return_to_thread(const std::vector<Work*>& works);
  // Moves what waits to be reaped to what this thread finishes itself.
  void take_back_left_locked();
  // Finishes the work handed back (this thread).
  void finish_returned();
  // Waits until the stream has passed batch[index]; sets `covered` to the first item that
  // wait does not cover. Returns the wait's status, or nothing when newer items arrived
  // first and the wait should cover them too.
  std::optional<cl_int> wait_through(const std::vector<Item>& batch, size_t index, size_t& covered);
  // How long to watch the stream for the items from batch[index] on before sleeping.
  std::chrono::microseconds watch_for(const std::vector<Item>& batch, size_t index) const;
  // Records an event on the stream now and waits for it (see wait_for for `ordinal` and
  // `unhurried`).
  cl_int wait_for_stream(uint64_t ordinal, const Work* unhurried = nullptr);
  // Watches `event` for a while, then sleeps on it. `event` follows every StreamWork item up
  // to `ordinal` (0: it stands for other work): the wait also ends when they are seen done
  // otherwise (a waiter's look), and its end marks them done. `unhurried`: while nobody waits
  // for the stream or for that work, the event is asked about only now and then.
  cl_int wait_for(CUevent event, uint64_t ordinal, const Work* unhurried = nullptr);
  // The StreamWork items up to `ordinal` are done (the stream was seen idle after they were
  // pushed, or an event recorded after them has passed).
  void note_done_through(uint64_t ordinal);
  // One cuStreamQuery by a thread that waits (it looks: this thread leaves the driver to it);
  // CUDA_SUCCESS marks every item pushed before it, up to `through`, done.
  CUresult query_stream(uint64_t& through);
  bool seen_done(uint64_t ordinal) const {
    return ordinal != 0 && idle_through_.load(std::memory_order_acquire) >= ordinal;
  }
  // A waiter looks at the stream, so this thread need not ask the driver too.
  bool waiter_looks() const;
  // A waiter sleeps (a clFinish past its watch): it needs the count that finishing raises.
  bool waiter_sleeps() const { return waiters_.load(std::memory_order_acquire) != 0 && !waiter_looks(); }
  // Items a look has seen end, all of them commands nothing names (a waiter for them ends on
  // ended_through), may wait to be finished while their submitter is still busy (it pushed
  // within kSubmitterPause): finishing them beside its next command would have both threads
  // write the same lines (the queue's and the buffers' counts, the command blocks), which cost
  // that command ~0.3 us on an H200. Not while a waiter sleeps or anything finishes on the host.
  bool finishing_can_wait() const;
  cl_int run_deferred(Item& item);
  static void start(Item& item) {
    item.started = true;
    item.work->started();
  }
  // The bytes of a done read go to the application's memory (unless it failed); the slot goes back.
  void copy_out(const CopyOut& copy, cl_int status);
  // Profiled work learns when it ran (before finished()); the timing events go back.
  void report_times(Item& item, cl_int status);
  // CL_SUCCESS, or CL_OUT_OF_RESOURCES after noting a lost context.
  cl_int status_of(CUresult result) const;
  // The first work that fails once the context is lost tells the application why.
  void report_loss(Work& work);

  std::shared_ptr<CudaContext> context_;
  CUstream stream_;
  std::shared_ptr<DeviceClock> clock_;
  EventPool events_;  // checkpoints and the thread's own waits
  ReadBounce bounce_;

  // The fields below fall in groups of one cache line or more each, by who writes them: a
  // line that one thread writes while another reads it in a loop costs the writer a miss per
  // write (a few tens of nanoseconds, tools/probes/driver_interference.cpp, but on every push).
  // Written by submitters on every push (under mutex_); this thread reads it when it takes. The
  // atomics it looks at while it watches share the mutex's line (40 + 3 * 8 bytes on x86-64
  // glibc): a look then costs the next push one miss, not two.
  alignas(kCacheLine) std::mutex mutex_;
  std::atomic<size_t> queued_{0};             // items_.size(), readable without the lock
  std::atomic<size_t> observable_queued_{0};  // how many of them are observable()
  std::atomic<uint64_t> pushed_{0};           // the ordinal of the last item pushed
  std::condition_variable wake_;
  std::vector<Item> items_;
  std::vector<Work*> returned_;  // left work handed back to this thread to finish (finish_returned())
  std::atomic<size_t> returned_count_{0};  // returned_.size(), readable without the lock
  bool stopping_ = false;
  bool sleeping_ = false;          // the thread waits on wake_ (push() then notifies)
  unsigned since_checkpoint_ = 0;  // StreamWork items pushed since the last checkpoint
  // Raised by submitters and lowered by this thread, a batch of items at a time.
  alignas(kCacheLine) std::atomic<size_t> outstanding_{0};  // pushed and not yet finished
  std::atomic<size_t> transfer_bytes_{0};                  // their transfer_bytes
  std::atomic<unsigned> gated_{0};                         // Host and Deferred items not yet handled
  std::atomic<unsigned> copy_outs_{0};                     // items with a CopyOut not yet finished
  std::atomic<unsigned> host_finishes_{0};                 // items that finish on the host (see Item)
  // Written by waiting threads (and by this thread's own looks at the stream).
  alignas(kCacheLine) std::atomic<unsigned> waiters_{0};  // threads in wait_began() .. wait_ended()
  // Every StreamWork item up to this ordinal is done (the stream was seen idle, or an event
  // recorded after it had passed); when a waiter last looked.
  std::atomic<uint64_t> idle_through_{0};
  std::atomic<uint64_t> looked_ns_{0};
  // Written by this thread as it finishes items (read when an allocation fails, see settle()).
  alignas(kCacheLine) std::atomic<uint64_t> finished_through_{0};  // the last item's ordinal
  std::atomic<std::thread::id> thread_id_{};
  LeftWork left_;  // done, left for a submitter to finish (reap()); its own lines
  // Completion thread only:
  alignas(kCacheLine) bool loss_reported_ = false;
  std::chrono::steady_clock::time_point last_take_{};   // when items last arrived
  std::chrono::steady_clock::time_point tail_since_{};  // when the unfinished tail's wait began
  std::thread thread_;
};

}  // namespace cucl::backend::cuda

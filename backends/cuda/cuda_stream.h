// A command queue's stream on a CUDA device: one CUDA stream (non-blocking, so it never
// waits for the legacy default stream) and a completion thread (cuda_completion.h).
#pragma once

#include <memory>

#include "backends/backend.h"
#include "backends/cuda/cuda_completion.h"
#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_device_clock.h"
#include "backends/cuda/cuda_event_pool.h"

namespace cucl::backend::cuda {

class CudaStream final : public Stream {
 public:
  // `clock`: the device's, shared by its streams. Throws CudaError.
  CudaStream(std::shared_ptr<CudaContext> context, std::shared_ptr<DeviceClock> clock);
  ~CudaStream() override;
  // Enqueues the work's operations on the calling thread and hands the work to the
  // completion thread; no CUDA event is recorded for it here.
  void submit(Work& work) override;
  // The CUDA stream runs its work in order, host functions included (cuda_completion.h).
  bool runs_in_submission_order() const override { return true; }
  void wait_began() override { completion_->wait_began(); }
  void wait_ended() override { completion_->wait_ended(); }
  void look() override { completion_->look(); }
  void reap() override { completion_->reap(); }
  std::chrono::microseconds watch_time() const override { return completion_->watch_time(); }
  uint64_t submitted_mark() const override { return completion_->pushed(); }
  bool ended_through(uint64_t mark) const override { return completion_->ended_through(mark); }
  // Any stream of the same device, for anything but host functions (cuda_stream_point.h).
  bool can_follow_on_device(const Stream& earlier, const Operation& operation) const override;
  bool mark(const Stream& follower, std::shared_ptr<StreamPoint>& point) override;
  // Profiled work is timed with CUDA events (cuda_device_clock.h).
  bool times_work() const override { return true; }

 private:
  // A read of at most ReadBounce::kSlotSize bytes from device memory into the application's
  // memory, blocking, or one that would be deferred: its DMA goes behind the stream's work
  // into a page-locked slot at once, and the completion thread copies the bytes out when it
  // finishes the work; a blocking call's thread waits for the DMA itself first. True when it
  // went that way (and was pushed); false when nothing was done. Throws CudaError.
  bool read_through_bounce(Work& work, bool started, TimingEvents& timing);
  // Whether the work goes to the completion thread as Deferred (which then enqueues it once
  // everything before it is done) rather than being enqueued here; a blocking call's thread
  // may wait for the stream here first instead. The context is current.
  bool must_defer(const Work& work);

  std::shared_ptr<CudaContext> context_;
  CUstream stream_ = nullptr;
  std::shared_ptr<CompletionQueue> completion_;
  std::shared_ptr<EventPool> points_;  // the points it marks, which outlive it
};

}  // namespace cucl::backend::cuda

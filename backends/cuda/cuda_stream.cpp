#include "backends/cuda/cuda_stream.h"

#include <cstring>

#include "backends/cuda/cuda_execute.h"
#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_stream_point.h"
#include "base/debug_log.h"

namespace cucl::backend::cuda {

CudaStream::CudaStream(std::shared_ptr<CudaContext> context, std::shared_ptr<DeviceClock> clock)
    : context_(std::move(context)), points_(std::make_shared<EventPool>(context_, CU_EVENT_DISABLE_TIMING)) {
  context_->make_current();
  context_->check(context_->driver().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  try {
    completion_ = CompletionQueue::start(context_, stream_, std::move(clock));
  } catch (...) {
    context_->driver().cuStreamDestroy(stream_);
    throw;
  }
}

CudaStream::~CudaStream() {
  // Every command has finished before its queue (and so this stream) goes; this ends the
  // completion thread, possibly from inside that thread's last finished().
  completion_->stop();
  try {
    context_->make_current();
    context_->driver().cuStreamDestroy(stream_);
  } catch (const CudaError&) {
  }
}

void CudaStream::submit(Work& work) {
  using Kind = CompletionQueue::Kind;
  // CL_RUNNING when the work can run: at once on an idle stream, else once the completion
  // thread reaches it (the work before it has ended), or, waiting for another stream, when it
  // ends (a dependent must not look running while what it waits for runs).
  const bool started = !completion_->busy() && work.device_waits().empty();
  if (started) work.started();
  const Operation& operation = work.operation();
  if (std::holds_alternative<op::HostFunction>(operation)) {
    completion_->push_gated(work, Kind::Host, started);
    return;
  }
  cl_int status = CL_OUT_OF_RESOURCES;
  Kind kind = Kind::Done;
  TimingEvents timing;
  if (context_->lost()) {  // the driver would fail it too (or, waiting for the stream, hang)
    completion_->push(work, status, kind, started);
    return;
  }
  try {
    context_->make_current();
    if (!completion_->gated() && read_through_bounce(work, started, timing)) return;
    if (must_defer(work)) {
      completion_->push_gated(work, Kind::Deferred, started);
      return;
    }
    Enqueued enqueued = enqueue_work(*context_, stream_, work, completion_->clock(), timing);
    status = enqueued.status;
    // Timed work is waited for until its end event has passed.
    if (status >= 0 && (enqueued.pending == Pending::StreamWork || timing.ended)) kind = Kind::StreamWork;
  } catch (const std::exception& error) {
    // A driver failure (CudaError) or anything else fails this work, not the caller.
    debug_log(std::string("a CUDA command failed: ") + error.what());
    status = CL_OUT_OF_RESOURCES;
  } catch (...) {
    status = CL_OUT_OF_RESOURCES;
  }
  completion_->push(work, status, kind, started, timing);
}

bool CudaStream::must_defer(const Work& work) {
  const Operation& operation = work.operation();
  // After a host function or deferred work that has not run yet.
  if (completion_->gated()) return true;
  // While reads wait to be copied out of their slots, work that reads or writes host memory
  // as it is enqueued comes after them.
  const bool copying_out = completion_->copying_out();
  if (copying_out && touches_host_memory(operation)) return true;
  // Where the enqueue would wait for earlier commands (or another stream's): the completion
  // thread enqueues it once they are done, and the submitter goes on at once.
  const bool follows_streams = !work.device_waits().empty();
  if (!(completion_->busy() || follows_streams) || !waits_for_stream(*context_, operation)) return false;
  // A submitter that waits for the work anyway waits for this stream's earlier work itself,
  // then enqueues it: the hand-offs to the completion thread and back cost more than that wait.
  if (!work.waited_by_submitter() || follows_streams || copying_out) return true;
  uint64_t dry_through = 0;
  return completion_->wait_until_dry(dry_through) != CL_SUCCESS;
}

bool CudaStream::read_through_bounce(Work& work, bool started, TimingEvents& timing) {
  using Kind = CompletionQueue::Kind;
  const auto* copy = std::get_if<op::Copy>(&work.operation());
  if (!copy || !copy->src.memory || copy->dst.memory || copy->size == 0 || copy->size > ReadBounce::kSlotSize ||
      !work.device_waits().empty()) {
    return false;
  }
  // Memory registered for a USE_HOST_PTR buffer is copied on the host.
  if (static_cast<const CudaMemory&>(*copy->src.memory).host_address(copy->src.offset)) return false;
  void* to = static_cast<char*>(copy->dst.host) + copy->dst.offset;
  // A USE_HOST_PTR buffer's memory: later work may read it through the buffer's device
  // mapping, so the DMA must land there itself.
  if (context_->host_registry().coverage(to, copy->size) != HostRegistry::Coverage::None) return false;
  // Nobody waits: only a read that would be deferred (behind earlier work, into memory the
  // driver does not know). Where the driver knows it (managed memory), later work on the
  // device may read what the DMA puts there.
  const bool waited = work.waited_by_submitter();
  if (!waited && (!completion_->busy() || !device_to_host_waits(*context_, to, copy->size))) return false;
  ReadBounce& bounce = completion_->bounce();
  BounceSlot slot(bounce, bounce.acquire());
  if (!slot) return false;
  op::Copy bounced = *copy;
  bounced.dst = Location{nullptr, bounce.slot(slot.index()), 0};
  cl_int status = enqueue_work(*context_, stream_, work, bounced, completion_->clock(), timing).status;
  uint64_t dry_through = 0;
  if (waited && status >= 0) status = completion_->wait_until_dry(dry_through);
  const CompletionQueue::CopyOut copy_out{slot.take(), to, copy->size};
  if (waited) {
    completion_->push_seen_done(work, status, started, timing, dry_through, copy_out);
  } else {
    completion_->push(work, status, status >= 0 ? Kind::StreamWork : Kind::Done, started, timing, copy_out);
  }
  return true;
}

bool CudaStream::can_follow_on_device(const Stream& earlier, const Operation& operation) const {
  // cuStreamWaitEvent takes an event of another device's context too.
  return dynamic_cast<const CudaStream*>(&earlier) && !std::holds_alternative<op::HostFunction>(operation);
}

bool CudaStream::mark(const Stream& follower, std::shared_ptr<StreamPoint>& point) {
  if (&follower == this) return true;  // later work of this stream comes after it anyway
  // Gated: work already submitted is not on the CUDA stream yet, so a point recorded now
  // would not follow it.
  if (context_->lost() || completion_->gated()) return false;
  context_->make_current();
  point = record_stream_point(points_, stream_);
  return point != nullptr;
}

}  // namespace cucl::backend::cuda

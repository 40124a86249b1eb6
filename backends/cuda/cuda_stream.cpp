#include "backends/cuda/cuda_stream.h"

#include "backends/cuda/cuda_execute.h"
#include "backends/cuda/debug_log.h"

namespace cucl::backend::cuda {

CudaStream::CudaStream(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {
  context_->make_current();
  context_->check(context_->driver().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  try {
    completion_ = CompletionQueue::start(context_, stream_);
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
  work.started();
  const Operation& operation = work.operation();
  if (std::holds_alternative<op::HostFunction>(operation)) {
    completion_->push_gated(work, Kind::Host);
    return;
  }
  cl_int status = CL_OUT_OF_RESOURCES;
  Kind kind = Kind::Done;
  if (context_->lost()) {  // the driver would fail it too (or, waiting for the stream, hang)
    completion_->push(work, status, kind);
    return;
  }
  try {
    context_->make_current();
    // After a host function or deferred work that has not run yet, and where the enqueue
    // would wait for earlier commands: the completion thread enqueues it once they are
    // done, and the submitter goes on at once.
    if (completion_->gated() || (completion_->busy() && waits_for_stream(*context_, operation))) {
      completion_->push_gated(work, Kind::Deferred);
      return;
    }
    Enqueued enqueued = enqueue_operation(*context_, stream_, operation);
    status = enqueued.status;
    if (status >= 0 && enqueued.pending == Pending::StreamWork) kind = Kind::StreamWork;
  } catch (const std::exception& error) {
    // A driver failure (CudaError) or anything else fails this work, not the caller.
    debug_log(std::string("a CUDA command failed: ") + error.what());
    status = CL_OUT_OF_RESOURCES;
  } catch (...) {
    status = CL_OUT_OF_RESOURCES;
  }
  completion_->push(work, status, kind);
}

}  // namespace cucl::backend::cuda

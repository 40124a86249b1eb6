#include "backends/cuda/cuda_stream.h"

#include "backends/cuda/cuda_execute.h"
#include "backends/cuda/debug_log.h"

namespace cucl::backend::cuda {

CudaStream::CudaStream(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {
  context_->make_current();
  context_->check(context_->driver().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  try {
    completion_ = CompletionQueue::start(context_);
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
  work.started();
  const Operation& operation = work.operation();
  if (const auto* host = std::get_if<op::HostFunction>(&operation)) {
    completion_->push({&work, CL_SUCCESS, nullptr, host});
    return;
  }
  CompletionQueue::Item item{&work, CL_OUT_OF_RESOURCES};
  try {
    context_->make_current();
    Enqueued enqueued = enqueue_operation(*context_, stream_, operation);
    item.status = enqueued.status;
    if (enqueued.status >= 0 && enqueued.pending == Pending::StreamWork) {
      CUevent event = completion_->take_event();
      CUresult recorded = context_->driver().cuEventRecord(event, stream_);
      if (recorded == CUDA_SUCCESS) {
        item.event = event;
      } else {
        completion_->give_back_event(event);
        item.status = CL_OUT_OF_RESOURCES;
      }
    }
  } catch (const std::exception& error) {
    // A driver failure (CudaError) or anything else fails this work, not the caller.
    debug_log(std::string("a CUDA command failed: ") + error.what());
    item.status = CL_OUT_OF_RESOURCES;
  } catch (...) {
    item.status = CL_OUT_OF_RESOURCES;
  }
  completion_->push(item);
}

}  // namespace cucl::backend::cuda

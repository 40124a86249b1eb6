// Ordering between the CUDA streams of one context without the host: a command on one
// queue that depends on a command of another waits for a point of that one's stream
// (cuEventRecord there, cuStreamWaitEvent here) instead of for its end.
#pragma once

#include <memory>

#include "backends/backend.h"
#include "backends/cuda/cuda_event_pool.h"

namespace cucl::backend::cuda {

class CudaStreamPoint final : public StreamPoint {
 public:
  CudaStreamPoint(std::shared_ptr<EventPool> pool, CUevent event) : pool_(std::move(pool)), event_(event) {}
  // A stream that waits for the point has taken its state: the event may be recorded anew.
  ~CudaStreamPoint() override { pool_->give_back(event_); }
  CUevent event() const { return event_; }

 private:
  std::shared_ptr<EventPool> pool_;
  CUevent event_;
};

// A point after the work enqueued on `stream` so far (the context is current); null when
// the driver refuses.
std::shared_ptr<StreamPoint> record_stream_point(const std::shared_ptr<EventPool>& pool, CUstream stream);

// Makes `stream` wait for the points the work must follow. Throws CudaError.
void wait_for_points(CudaContext& context, CUstream stream, const Work& work);

}  // namespace cucl::backend::cuda

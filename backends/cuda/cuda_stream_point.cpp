#include "backends/cuda/cuda_stream_point.h"

namespace cucl::backend::cuda {

std::shared_ptr<StreamPoint> record_stream_point(const std::shared_ptr<EventPool>& pool, CUstream stream) {
  CUevent event = pool->record(stream);
  return event ? std::make_shared<CudaStreamPoint>(pool, event) : nullptr;
}

void wait_for_points(CudaContext& context, CUstream stream, const Work& work) {
  for (const auto& point : work.device_waits()) {
    // Only this backend's streams mark points for its streams (can_follow_on_device).
    const auto& cuda_point = static_cast<const CudaStreamPoint&>(*point);
    context.check(context.driver().cuStreamWaitEvent(stream, cuda_point.event(), 0), "cuStreamWaitEvent");
  }
}

}  // namespace cucl::backend::cuda

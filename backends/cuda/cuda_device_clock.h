// Profiling times of a stream's work from CUDA events, placed on the host clock that
// clGetDeviceAndHostTimer and the host's profiling stamps use (steady_clock, ns).
// cuEventElapsedTime measures between two events of the context (float milliseconds: fine
// over short spans), so each time is measured from an anchor event whose host time is
// known: recorded on an idle stream of its own and watched until done, the host time
// being the middle of that short interval. A new anchor is taken once the last is a
// second old, so the measured spans stay short.
#pragma once

#include <cstdint>
#include <memory>

#include "backends/cuda/cuda_event_pool.h"

namespace cucl::backend::cuda {

// A command's timing events: recorded before and after its work on the stream.
struct TimingEvents {
  CUevent began = nullptr;
  CUevent ended = nullptr;
};

class DeviceClock {
 public:
  explicit DeviceClock(std::shared_ptr<CudaContext> context);
  ~DeviceClock();
  DeviceClock(const DeviceClock&) = delete;
  DeviceClock& operator=(const DeviceClock&) = delete;

  // A timing event recorded on `stream` now (the context is current); null when the
  // driver refuses.
  CUevent record(CUstream stream) { return events_.record(stream); }
  void give_back(TimingEvents& events);
  // The host time of a timing event that has completed; 0 when it cannot be known. One
  // thread at a time.
  uint64_t host_ns(CUevent event);

 private:
  bool take_anchor();

  std::shared_ptr<CudaContext> context_;
  EventPool events_;
  CUstream anchor_stream_ = nullptr;
  CUevent anchor_ = nullptr;
  uint64_t anchor_host_ns_ = 0;
};

}  // namespace cucl::backend::cuda

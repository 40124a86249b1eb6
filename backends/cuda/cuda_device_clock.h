// Profiling times of a stream's work from CUDA events, placed on the host clock that
// clGetDeviceAndHostTimer and the host's profiling stamps use (steady_clock, ns).
// cuEventElapsedTime measures between two events of the context (float milliseconds: fine
// over short spans), so each time is measured from an anchor event whose host time is
// known: recorded on an idle stream of its own and watched until done, the host time
// being the middle of that short interval (the narrowest of a few tries). A new anchor is
// taken once the last is a second old, so the measured spans stay short and the two
// clocks cannot drift apart; an anchor watched for long (its thread was preempted on a
// loaded machine) is tried again sooner, and replaced only by a narrower one.
//
// One clock serves every stream of a device: GPU timestamps come from one timer, so
// commands of two queues placed through one anchor keep their order on the device exactly
// (a command waiting for another queue starts after that one ends), whatever the anchor's
// own error.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

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
  // The host time of a timing event that has completed; 0 when it cannot be known. Any
  // thread; the context is current.
  uint64_t host_ns(CUevent event);

 private:
  // Tries for a better anchor at host time `now`; false when there is none.
  bool renew_anchor_locked(uint64_t now);
  // One try into `trial_`: its host time and how long it was watched; false when the
  // driver failed.
  bool try_anchor_locked(uint64_t& host_ns, uint64_t& width_ns);

  std::shared_ptr<CudaContext> context_;
  EventPool events_;
  std::mutex mutex_;  // the anchor
  CUstream anchor_stream_ = nullptr;
  CUevent anchor_ = nullptr;  // recorded once anchor_width_ns_ is set
  CUevent trial_ = nullptr;
  uint64_t anchor_host_ns_ = 0;
  uint64_t anchor_width_ns_ = 0;  // 0: no anchor yet
  uint64_t next_try_ns_ = 0;      // host time of the next renew_anchor_locked()
};

}  // namespace cucl::backend::cuda

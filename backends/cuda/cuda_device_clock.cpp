#include "backends/cuda/cuda_device_clock.h"

#include "backends/host_clock.h"

#include <cmath>
#include <utility>

namespace cucl::backend::cuda {
namespace {

constexpr uint64_t kAnchorLifetimeNs = 1'000'000'000;
// An anchor watched for longer than this is tried again: its host time would be vague.
constexpr uint64_t kAnchorWidthNs = 20'000;
constexpr int kAnchorTries = 4;

}  // namespace

DeviceClock::DeviceClock(std::shared_ptr<CudaContext> context)
    : context_(context), events_(std::move(context), CU_EVENT_DEFAULT) {}

DeviceClock::~DeviceClock() {
  if (!anchor_ && !anchor_stream_) return;
  try {
    context_->make_current();  // the last user may be any thread
  } catch (const CudaError&) {
    return;
  }
  if (anchor_) context_->driver().cuEventDestroy(anchor_);
  if (anchor_stream_) context_->driver().cuStreamDestroy(anchor_stream_);
}

void DeviceClock::give_back(TimingEvents& events) {
  for (CUevent* event : {&events.began, &events.ended}) {
    if (*event) events_.give_back(std::exchange(*event, nullptr));
  }
}

bool DeviceClock::take_anchor() {
  const CudaDriver& driver = context_->driver();
  if (!anchor_stream_ && driver.cuStreamCreate(&anchor_stream_, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
    anchor_stream_ = nullptr;
    return false;
  }
  if (!anchor_ && driver.cuEventCreate(&anchor_, CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
    anchor_ = nullptr;
    return false;
  }
  for (int attempt = 0; attempt < kAnchorTries; ++attempt) {
    const uint64_t before = host_clock_ns();
    if (driver.cuEventRecord(anchor_, anchor_stream_) != CUDA_SUCCESS) return false;
    CUresult result;
    while ((result = driver.cuEventQuery(anchor_)) == CUDA_ERROR_NOT_READY) {
    }
    const uint64_t after = host_clock_ns();
    if (result != CUDA_SUCCESS) return false;
    anchor_host_ns_ = before + (after - before) / 2;
    if (after - before <= kAnchorWidthNs) break;
  }
  return true;
}

uint64_t DeviceClock::host_ns(CUevent event) {
  if (!anchor_ || host_clock_ns() - anchor_host_ns_ > kAnchorLifetimeNs) {
    if (!take_anchor()) return 0;
  }
  const CudaDriver& driver = context_->driver();
  float ms = 0;
  // An event from before the anchor is measured backwards from it.
  if (driver.cuEventElapsedTime(&ms, anchor_, event) == CUDA_SUCCESS && ms >= 0) {
    return anchor_host_ns_ + static_cast<uint64_t>(std::llround(double(ms) * 1e6));
  }
  if (driver.cuEventElapsedTime(&ms, event, anchor_) == CUDA_SUCCESS && ms >= 0) {
    const auto before = static_cast<uint64_t>(std::llround(double(ms) * 1e6));
    return before < anchor_host_ns_ ? anchor_host_ns_ - before : 0;
  }
  return 0;
}

}  // namespace cucl::backend::cuda

#include "backends/cuda/cuda_device_clock.h"

#include "base/clock.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace cucl::backend::cuda {
namespace {

constexpr uint64_t kAnchorLifetimeNs = 1'000'000'000;
// An anchor watched for longer than this is vague: tried again after kVagueRetryNs.
constexpr uint64_t kAnchorWidthNs = 20'000;
constexpr uint64_t kVagueRetryNs = 10'000'000;
constexpr int kAnchorTries = 4;

}  // namespace

DeviceClock::DeviceClock(std::shared_ptr<CudaContext> context)
    : context_(context), events_(std::move(context), CU_EVENT_DEFAULT) {}

DeviceClock::~DeviceClock() {
  if (!anchor_ && !trial_ && !anchor_stream_) return;
  try {
    context_->make_current();  // the last user may be any thread
  } catch (const CudaError&) {
    return;
  }
  for (CUevent event : {anchor_, trial_}) {
    if (event) context_->driver().cuEventDestroy(event);
  }
  if (anchor_stream_) context_->driver().cuStreamDestroy(anchor_stream_);
}

void DeviceClock::give_back(TimingEvents& events) {
  for (CUevent* event : {&events.began, &events.ended}) {
    if (*event) events_.give_back(std::exchange(*event, nullptr));
  }
}

bool DeviceClock::try_anchor_locked(uint64_t& host_ns, uint64_t& width_ns) {
  const CudaDriver& driver = context_->driver();
  const uint64_t before = now_ns();
  if (driver.cuEventRecord(trial_, anchor_stream_) != CUDA_SUCCESS) return false;
  CUresult result;
  while ((result = driver.cuEventQuery(trial_)) == CUDA_ERROR_NOT_READY) {
  }
  const uint64_t after = now_ns();
  if (result != CUDA_SUCCESS) return false;
  host_ns = before + (after - before) / 2;
  width_ns = after - before;
  return true;
}

bool DeviceClock::renew_anchor_locked(uint64_t now) {
  const CudaDriver& driver = context_->driver();
  if (!anchor_stream_ && driver.cuStreamCreate(&anchor_stream_, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
    anchor_stream_ = nullptr;
    return false;
  }
  for (CUevent* event : {&anchor_, &trial_}) {
    if (!*event && driver.cuEventCreate(event, CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
      *event = nullptr;
      return false;
    }
  }
  // Until it is a lifetime old, an anchor is replaced only by a narrower one: each
  // replacement moves every later time by the difference of the two anchors' errors.
  const bool young = anchor_width_ns_ != 0 && now - anchor_host_ns_ < kAnchorLifetimeNs;
  uint64_t best = young ? anchor_width_ns_ : UINT64_MAX;
  for (int attempt = 0; attempt < kAnchorTries && best > kAnchorWidthNs; ++attempt) {
    uint64_t host_ns = 0, width = 0;
    if (!try_anchor_locked(host_ns, width)) break;
    width = std::max<uint64_t>(width, 1);
    if (width < best) {
      std::swap(anchor_, trial_);
      anchor_host_ns_ = host_ns;
      anchor_width_ns_ = best = width;
    }
  }
  if (anchor_width_ns_ == 0) return false;
  const uint64_t renewal = anchor_host_ns_ + kAnchorLifetimeNs;
  next_try_ns_ = anchor_width_ns_ <= kAnchorWidthNs ? renewal : std::min(now + kVagueRetryNs, renewal);
  return true;
}

uint64_t DeviceClock::host_ns(CUevent event) {
  std::lock_guard lock(mutex_);
  if (const uint64_t now = now_ns(); now >= next_try_ns_ && !renew_anchor_locked(now)) return 0;
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

#include "backends/cuda/cuda_host_registry.h"

#include <unistd.h>

namespace cucl::backend::cuda {
namespace {

// The span that reaches into [begin, end), or spans.end(). Spans do not overlap: the last one
// starting before `end` is the only one that can reach into the range without starting inside
// it, and it is also the last of any that start inside.
template <typename Spans>
auto reaching_into(Spans& spans, uintptr_t begin, uintptr_t end) -> decltype(spans.begin()) {
  auto after = spans.lower_bound(end);
  if (after == spans.begin()) return spans.end();
  auto span = std::prev(after);
  return span->second.end > begin ? span : spans.end();
}

}  // namespace

HostRegistry::HostRegistry(const CudaDriver& driver, std::function<void()> settle)
    : driver_(driver), settle_(std::move(settle)), page_size_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {}

std::pair<uintptr_t, uintptr_t> HostRegistry::pages(const void* pointer, size_t size) const {
  auto begin = reinterpret_cast<uintptr_t>(pointer) / page_size_ * page_size_;
  auto end = (reinterpret_cast<uintptr_t>(pointer) + size + page_size_ - 1) / page_size_ * page_size_;
  return {begin, end};
}

bool HostRegistry::acquire(const void* pointer, size_t size) {
  auto [begin, end] = pages(pointer, size);
  std::unique_lock lock(mutex_);
  if (settle_ && reaching_into(spans_, begin, end) != spans_.end()) {
    // Outside the lock: finishing a command may release a registration.
    lock.unlock();
    settle_();
    lock.lock();
  }
  if (auto span = reaching_into(spans_, begin, end); span != spans_.end()) {
    if (span->first <= begin && end <= span->second.end) {
      ++span->second.users;
      return true;
    }
    return false;  // a partial overlap
  }
  CUresult result = driver_.cuMemHostRegister(reinterpret_cast<void*>(begin), end - begin,
                                              CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP);
  if (result != CUDA_SUCCESS) return false;
  spans_.emplace(begin, Span{end, 1});
  span_count_.store(spans_.size(), std::memory_order_release);
  return true;
}

void HostRegistry::release(const void* pointer, size_t size) {
  auto [begin, end] = pages(pointer, size);
  std::lock_guard lock(mutex_);
  auto span = reaching_into(spans_, begin, end);
  if (span == spans_.end() || span->first > begin || span->second.end < end) return;
  if (--span->second.users == 0) {
    driver_.cuMemHostUnregister(reinterpret_cast<void*>(span->first));
    spans_.erase(span);
    span_count_.store(spans_.size(), std::memory_order_release);
  }
}

HostRegistry::Coverage HostRegistry::coverage(const void* pointer, size_t size) const {
  if (size == 0 || span_count_.load(std::memory_order_acquire) == 0) return Coverage::None;
  const auto begin = reinterpret_cast<uintptr_t>(pointer);
  const uintptr_t end = begin + size;
  std::lock_guard lock(mutex_);
  auto span = reaching_into(spans_, begin, end);
  if (span == spans_.end()) return Coverage::None;
  return span->first <= begin && end <= span->second.end ? Coverage::Whole : Coverage::Partial;
}

}  // namespace cucl::backend::cuda

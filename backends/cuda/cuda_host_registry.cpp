#include "backends/cuda/cuda_host_registry.h"

#include <unistd.h>

namespace cucl::backend::cuda {

HostRegistry::HostRegistry(const CudaDriver& driver)
    : driver_(driver), page_size_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {}

std::pair<uintptr_t, uintptr_t> HostRegistry::pages(const void* pointer, size_t size) const {
  auto begin = reinterpret_cast<uintptr_t>(pointer) / page_size_ * page_size_;
  auto end = (reinterpret_cast<uintptr_t>(pointer) + size + page_size_ - 1) / page_size_ * page_size_;
  return {begin, end};
}

bool HostRegistry::acquire(const void* pointer, size_t size) {
  auto [begin, end] = pages(pointer, size);
  std::lock_guard lock(mutex_);
  // The span starting at or before `begin`, and any starting inside [begin, end).
  auto after = spans_.lower_bound(end);
  if (after != spans_.begin()) {
    auto candidate = std::prev(after);
    if (candidate->first <= begin && end <= candidate->second.end) {
      ++candidate->second.users;
      return true;
    }
    if (candidate->second.end > begin) return false;  // a partial overlap
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
  auto after = spans_.lower_bound(end);
  if (after == spans_.begin()) return;
  auto span = std::prev(after);
  if (span->first > begin || span->second.end < end) return;
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
  // Spans do not overlap: the last one starting before `end` is the only one that can
  // reach into the range without starting inside it.
  auto after = spans_.lower_bound(end);
  if (after == spans_.begin()) return Coverage::None;
  auto span = std::prev(after);
  if (span->second.end <= begin) return Coverage::None;
  return span->first <= begin && end <= span->second.end ? Coverage::Whole : Coverage::Partial;
}

}  // namespace cucl::backend::cuda

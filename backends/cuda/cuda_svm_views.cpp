#include "backends/cuda/cuda_svm_views.h"

#include <iterator>

namespace cucl::backend::cuda {

void SvmDualViews::add(CUdeviceptr address, size_t size, const std::shared_ptr<SvmDualView>& view) {
  std::lock_guard lock(mutex_);
  by_address_[address] = Entry{size, view};
}

void SvmDualViews::remove(CUdeviceptr address) {
  std::lock_guard lock(mutex_);
  by_address_.erase(address);
}

std::pair<std::shared_ptr<SvmDualView>, size_t> SvmDualViews::find(const void* pointer) const {
  const auto address = reinterpret_cast<CUdeviceptr>(pointer);
  std::lock_guard lock(mutex_);
  auto after = by_address_.upper_bound(address);
  if (after == by_address_.begin()) return {nullptr, 0};
  const auto& [start, entry] = *std::prev(after);
  if (address - start >= entry.size) return {nullptr, 0};
  return {entry.view.lock(), address - start};
}

}  // namespace cucl::backend::cuda

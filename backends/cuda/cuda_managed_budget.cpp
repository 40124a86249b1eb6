#include "backends/cuda/cuda_managed_budget.h"

#include <algorithm>

namespace cucl::backend::cuda {

size_t ManagedBudget::margin(size_t total) { return std::max<size_t>(size_t{256} << 20, total / 16); }

bool ManagedBudget::reserve(size_t size, size_t free, size_t total) {
  const size_t spare = margin(total);
  std::lock_guard lock(mutex_);
  if (size > free || free - size < spare) return false;
  if (reserved_ > total || size > total - reserved_ || total - reserved_ - size < spare) return false;
  reserved_ += size;
  return true;
}

void ManagedBudget::release(size_t size) {
  std::lock_guard lock(mutex_);
  reserved_ -= std::min(size, reserved_);
}

}  // namespace cucl::backend::cuda

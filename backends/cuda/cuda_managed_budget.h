// How much managed memory (shared virtual memory) a GPU may still be asked for. Managed memory
// takes card memory only when its pages are touched, so what cuMemGetInfo reports free does not
// count allocations made and not yet used; and asking for more than the card holds can hang it.
// So an allocation must fit in what is free now (each allocation is made resident at once, so
// earlier ones are counted there) and, with every managed allocation still alive, in the card.
#pragma once

#include <cstddef>
#include <mutex>

namespace cucl::backend::cuda {

class ManagedBudget {
 public:
  // What an allocation must leave free on the card: the larger of 256 MiB and 1/16 of it (the
  // driver's own work, page tables, the printf and staging pools).
  static size_t margin(size_t total);

  // Counts `size` bytes as allocated if they fit (see above); false, counting nothing, if not.
  bool reserve(size_t size, size_t free, size_t total);
  void release(size_t size);

 private:
  std::mutex mutex_;
  size_t reserved_ = 0;
};

}  // namespace cucl::backend::cuda

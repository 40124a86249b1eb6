#include "backends/host/host_memory_pool.h"

#include <cstdlib>
#include <vector>

#include "base/align_up.h"

namespace cucl::backend::host {

HostMemoryPool::HostMemoryPool(size_t alignment, size_t kept_limit, size_t kept_count)
    : alignment_(alignment), kept_limit_(kept_limit), kept_count_(kept_count) {}

HostMemoryPool::~HostMemoryPool() { release_all_kept(); }

void* HostMemoryPool::allocate(size_t size) const { return std::aligned_alloc(alignment_, size); }

void* HostMemoryPool::take(size_t& size) {
  size = align_up(size, alignment_);
  if (size >= kSmallest) {
    std::lock_guard lock(mutex_);
    auto best = kept_.end();
    for (auto block = kept_.begin(); block != kept_.end(); ++block) {
      const bool fits = block->size >= size && block->size - size <= size / 8 * kLargestWasteEighths;
      if (fits && (best == kept_.end() || block->size < best->size)) best = block;
    }
    if (best != kept_.end()) {
      void* data = best->data;
      size = best->size;
      kept_bytes_ -= best->size;
      kept_.erase(best);
      return data;
    }
  }
  if (void* data = allocate(size)) return data;
  release_all_kept();
  return allocate(size);
}

void HostMemoryPool::give_back(void* data, size_t size) {
  if (!data) return;
  if (size < kSmallest || size > kept_limit_ || kept_count_ == 0) {
    std::free(data);
    return;
  }
  std::vector<void*> released;
  {
    std::lock_guard lock(mutex_);
    while (!kept_.empty() && (kept_bytes_ + size > kept_limit_ || kept_.size() >= kept_count_)) {
      released.push_back(kept_.front().data);
      kept_bytes_ -= kept_.front().size;
      kept_.pop_front();
    }
    kept_.push_back(Block{data, size});
    kept_bytes_ += size;
  }
  for (void* block : released) std::free(block);
}

void HostMemoryPool::release_all_kept() {
  std::list<Block> released;
  {
    std::lock_guard lock(mutex_);
    released.swap(kept_);
    kept_bytes_ = 0;
  }
  for (const Block& block : released) std::free(block.data);
}

size_t HostMemoryPool::kept_bytes() const {
  std::lock_guard lock(mutex_);
  return kept_bytes_;
}

size_t HostMemoryPool::kept_blocks() const {
  std::lock_guard lock(mutex_);
  return kept_.size();
}

}  // namespace cucl::backend::host

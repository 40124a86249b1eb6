// Large allocations of the host device, kept for reuse after their buffers are released.
//
// A fresh allocation's pages are mapped in one fault at a time when first written, and the
// kernel serialises those faults between threads: on the 16-core Xeon a 4 MiB buffer a
// kernel writes for the first time cost about as much as the kernel itself. Applications
// that make temporaries per call (CLBlast makes its transposed copies in every GEMM call)
// paid that in every call, because malloc hands back fresh pages for a large block when what
// was freed sits below newer allocations.
#pragma once

#include <cstddef>
#include <list>
#include <mutex>

namespace cucl::backend::host {

class HostMemoryPool {
 public:
  // Allocations below this come from malloc's own bins, which already reuse memory.
  static constexpr size_t kSmallest = size_t{256} << 10;
  // A block serves a request when what it leaves unused is at most this many eighths of the
  // request (requests of 4/5 of the block or more): a larger block would hold memory the new
  // buffer never uses.
  static constexpr size_t kLargestWasteEighths = 2;

  // `alignment`: of every block; `kept_limit`: bytes kept for reuse at most; `kept_count`:
  // blocks kept at most (a lookup scans them).
  HostMemoryPool(size_t alignment, size_t kept_limit, size_t kept_count);
  ~HostMemoryPool();
  HostMemoryPool(const HostMemoryPool&) = delete;
  HostMemoryPool& operator=(const HostMemoryPool&) = delete;

  // A block of at least `size` bytes, or null when the system has none; `size` becomes the
  // block's own size, which give_back wants back. Kept blocks are freed and the allocation
  // tried again before null is returned.
  void* take(size_t& size);
  // Keeps the block for a later take, or frees it; the oldest blocks are freed first when the
  // limits would be passed.
  void give_back(void* data, size_t size);

  size_t kept_bytes() const;
  size_t kept_blocks() const;

 private:
  struct Block {
    void* data;
    size_t size;
  };
  void* allocate(size_t size) const;
  void release_all_kept();

  const size_t alignment_;
  const size_t kept_limit_;
  const size_t kept_count_;
  mutable std::mutex mutex_;
  std::list<Block> kept_;  // oldest first
  size_t kept_bytes_ = 0;
};

}  // namespace cucl::backend::host

// Application memory registered with the driver for CL_MEM_USE_HOST_PTR. Registration
// works on whole pages and a page may hold several buffers, so registrations are counted
// per page span and shared by every CUDA device (they are portable across contexts).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "backends/cuda/cuda_driver.h"

namespace cucl::backend::cuda {

class HostRegistry {
 public:
  // `settle` lets the completion threads finish what they saw end (FinishingThreads::settle_all):
  // a registration that new memory overlaps may be that of a buffer the application released
  // and whose memory it gave back, still held by commands that have ended but are not finished.
  explicit HostRegistry(const CudaDriver& driver, std::function<void()> settle = {});
  HostRegistry(const HostRegistry&) = delete;
  HostRegistry& operator=(const HostRegistry&) = delete;

  // Registers (or shares a registration of) the pages under [pointer, pointer + size).
  // False when the driver refuses, or the pages partly overlap another registration: the
  // caller then keeps a device copy instead. Some CUDA context must be current. It settles
  // first when the pages overlap a registration (see the constructor).
  bool acquire(const void* pointer, size_t size);
  // Gives back what acquire() took (only call it after a successful acquire).
  void release(const void* pointer, size_t size);

  // How [pointer, pointer + size) lies in the registered pages. The driver takes a host
  // range for a DMA only when it is all pageable or all inside one registration: it
  // refuses one that starts or ends inside a registration and leaves it.
  enum class Coverage { None, Whole, Partial };
  Coverage coverage(const void* pointer, size_t size) const;

 private:
  struct Span {
    uintptr_t end;
    size_t users;
  };
  std::pair<uintptr_t, uintptr_t> pages(const void* pointer, size_t size) const;

  const CudaDriver& driver_;
  const std::function<void()> settle_;
  size_t page_size_;
  mutable std::mutex mutex_;
  std::map<uintptr_t, Span> spans_;  // by first byte
  std::atomic<size_t> span_count_{0};  // spans_.size(): no lock while nothing is registered
};

}  // namespace cucl::backend::cuda

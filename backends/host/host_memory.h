#pragma once

#include <cstring>
#include <memory>

#include "backends/backend.h"
#include "backends/host/host_memory_pool.h"

namespace cucl::backend::host {

// Host memory: an aligned allocation of ours (a block of the device's pool, or one freed by
// std::free), or the application's CL_MEM_USE_HOST_PTR memory.
class HostMemory final : public Memory {
 public:
  static constexpr size_t kAlignment = 128;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes

  HostMemory(void* data, bool owned) : data_(static_cast<char*>(data)), owned_(owned) {}
  // A block of `pool`, given back to it at the end.
  HostMemory(void* data, std::shared_ptr<HostMemoryPool> pool, size_t size)
      : data_(static_cast<char*>(data)), owned_(true), pool_(std::move(pool)), pool_size_(size) {}
  ~HostMemory() override;
  char* data() const { return data_; }
  void* map_pointer(size_t offset, size_t) override { return data_ + offset; }
  void unmap_pointer(void*) override {}
  void write_now(size_t offset, const void* src, size_t size) override { std::memcpy(data_ + offset, src, size); }
  uint64_t kernel_address(size_t offset) const override { return reinterpret_cast<uintptr_t>(data_ + offset); }

 private:
  char* data_;
  bool owned_;
  std::shared_ptr<HostMemoryPool> pool_;  // shared: a buffer the application leaks may outlive the device
  size_t pool_size_ = 0;
};

// The address a Location names on the host.
inline char* resolve(const Location& location) {
  char* base = location.memory ? static_cast<HostMemory*>(location.memory)->data()
                               : static_cast<char*>(location.host);
  return base + location.offset;
}

}  // namespace cucl::backend::host

// The storage a memory object has made on its first few devices, found without the object's
// lock. Every enqueue asks for the storage of the memory it names, while making it (a device
// allocation) holds that lock: an entry is only ever added, under the lock, and published with
// release once it is filled, so a reader that sees the count sees every entry below it.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>

#include "backends/backend.h"

namespace cucl {

class Device;

class PublishedStorage {
 public:
  // The memory published for `device`, or null (not made yet, or past the first kEntries).
  backend::Memory* find(const Device* device) const {
    const size_t count = count_.load(std::memory_order_acquire);
    for (size_t i = 0; i < count; ++i) {
      if (entries_[i].device == device) return entries_[i].memory;
    }
    return nullptr;
  }
  // Under the owner's lock, with memory that lives as long as the owner. Past kEntries devices
  // nothing more is published: those are found under the lock.
  void add(const Device* device, backend::Memory* memory) {
    const size_t count = count_.load(std::memory_order_relaxed);
    if (count == kEntries) return;
    entries_[count] = {device, memory};
    count_.store(count + 1, std::memory_order_release);
  }

 private:
  static constexpr size_t kEntries = 4;
  struct Entry {
    const Device* device;
    backend::Memory* memory;
  };

  std::array<Entry, kEntries> entries_{};
  std::atomic<size_t> count_{0};
};

}  // namespace cucl

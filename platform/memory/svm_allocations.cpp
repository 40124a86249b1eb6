#include "platform/memory/svm_allocations.h"

#include <mutex>

namespace cucl {

backend::Location SvmAllocation::location(const Device& on, const void* pointer) const {
  if (&on == device) return backend::Location{memory, nullptr, static_cast<size_t>(static_cast<const char*>(pointer) - base)};
  return backend::Location{nullptr, const_cast<void*>(pointer), 0};
}

void* SvmAllocations::add(std::unique_ptr<backend::Memory> memory, const Device& device, size_t size,
                          cl_svm_mem_flags flags) {
  auto* base = reinterpret_cast<char*>(static_cast<uintptr_t>(memory->kernel_address(0)));
  backend::Memory* raw = memory.get();
  std::unique_lock lock(mutex_);
  by_base_.emplace(base, Entry{SvmAllocation{base, size, flags, raw, &device}, std::move(memory)});
  return base;
}

bool SvmAllocations::free(const void* base) {
  decltype(by_base_)::node_type node;
  {
    std::unique_lock lock(mutex_);
    node = by_base_.extract(static_cast<const char*>(base));
    if (!node.empty()) {  // maps never unmapped end with their memory
      const char* end = node.mapped().allocation.base + node.mapped().allocation.size;
      maps_.erase(maps_.lower_bound(base), maps_.lower_bound(end));
    }
  }
  return !node.empty();  // the node's memory goes here, outside the lock
}

std::map<const char*, SvmAllocations::Entry>::iterator SvmAllocations::holder_locked(const char* address) {
  auto after = by_base_.upper_bound(address);
  if (after == by_base_.begin()) return by_base_.end();
  auto holder = std::prev(after);
  return static_cast<size_t>(address - holder->second.allocation.base) < holder->second.allocation.size ? holder
                                                                                                       : by_base_.end();
}

bool SvmAllocations::note_kernel_use(const void* base, const Device& device) {
  std::unique_lock lock(mutex_);
  auto entry = by_base_.find(static_cast<const char*>(base));
  if (entry == by_base_.end()) return false;
  Entry& e = entry->second;
  const bool elsewhere = e.used && e.last_kernel_device != &device;
  e.used = true;
  e.last_kernel_device = &device;
  return elsewhere;
}

std::optional<SvmAllocation> SvmAllocations::find(const void* pointer) const {
  const auto* address = static_cast<const char*>(pointer);
  std::shared_lock lock(mutex_);
  auto after = by_base_.upper_bound(address);
  if (after == by_base_.begin()) return std::nullopt;
  const SvmAllocation& allocation = std::prev(after)->second.allocation;
  if (static_cast<size_t>(address - allocation.base) >= allocation.size) return std::nullopt;
  return allocation;
}

void SvmAllocations::note_map(const void* pointer, MapRecord record) {
  std::unique_lock lock(mutex_);
  maps_.emplace(pointer, record);
  if (auto holder = holder_locked(static_cast<const char*>(pointer)); holder != by_base_.end()) {
    holder->second.used = true;
    holder->second.last_kernel_device = nullptr;  // the host's now
  }
}

SvmAllocations::MapRecord SvmAllocations::take_map(const void* pointer) {
  std::unique_lock lock(mutex_);
  auto [first, end] = maps_.equal_range(pointer);
  if (first == end) return {};
  auto latest = std::prev(end);
  const MapRecord record = latest->second;
  maps_.erase(latest);
  return record;
}

}  // namespace cucl

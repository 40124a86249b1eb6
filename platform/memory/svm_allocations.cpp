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

template <class ByBase>
auto SvmAllocations::holder_locked(ByBase& by_base, const char* address) -> decltype(by_base.begin()) {
  auto after = by_base.upper_bound(address);
  if (after == by_base.begin()) return by_base.end();
  auto holder = std::prev(after);
  const SvmAllocation& allocation = holder->second.allocation;
  return static_cast<size_t>(address - allocation.base) < allocation.size ? holder : by_base.end();
}

std::optional<SvmAllocations::KernelUse> SvmAllocations::note_kernel_use(const void* pointer, const Device& device) {
  std::unique_lock lock(mutex_);
  auto holder = holder_locked(by_base_, static_cast<const char*>(pointer));
  if (holder == by_base_.end()) return std::nullopt;
  Entry& e = holder->second;
  const bool elsewhere = e.used && e.last_kernel_device != &device;
  e.used = true;
  e.last_kernel_device = &device;
  return KernelUse{e.allocation, elsewhere};
}

std::optional<SvmAllocation> SvmAllocations::find(const void* pointer) const {
  std::shared_lock lock(mutex_);
  auto holder = holder_locked(by_base_, static_cast<const char*>(pointer));
  if (holder == by_base_.end()) return std::nullopt;
  return holder->second.allocation;
}

void SvmAllocations::note_map(const void* pointer, MapRecord record) {
  std::unique_lock lock(mutex_);
  maps_.emplace(pointer, record);
  if (auto holder = holder_locked(by_base_, static_cast<const char*>(pointer)); holder != by_base_.end()) {
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

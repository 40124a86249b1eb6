#include "platform/memory/device_address_ranges.h"

#include <mutex>

namespace cucl {

void DeviceAddressRanges::add(cl_mem buffer, const std::vector<uint64_t>& addresses, size_t size) {
  std::unique_lock lock(mutex_);
  if (by_device_.size() < addresses.size()) by_device_.resize(addresses.size());
  for (size_t device = 0; device < addresses.size(); ++device) {
    by_device_[device].insert_or_assign(addresses[device], Range{addresses[device] + size, buffer});
  }
}

void DeviceAddressRanges::remove(cl_mem buffer) {
  std::unique_lock lock(mutex_);
  for (auto& ranges : by_device_) {
    std::erase_if(ranges, [&](const auto& entry) { return entry.second.buffer == buffer; });
  }
}

cl_mem DeviceAddressRanges::find(unsigned device, uint64_t address) const {
  std::shared_lock lock(mutex_);
  if (device >= by_device_.size()) return nullptr;
  const auto& ranges = by_device_[device];
  auto it = ranges.upper_bound(address);
  if (it == ranges.begin()) return nullptr;
  --it;
  return address < it->second.end ? it->second.buffer : nullptr;
}

}  // namespace cucl

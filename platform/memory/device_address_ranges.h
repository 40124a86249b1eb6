// A context's buffers with device addresses (CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT): where each
// lies on each device, so that a device pointer (clSetKernelArgDevicePointerEXT,
// CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT), also one into the middle of a buffer, finds its buffer.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <map>
#include <shared_mutex>
#include <vector>

namespace cucl {

class DeviceAddressRanges {
 public:
  DeviceAddressRanges() = default;
  DeviceAddressRanges(const DeviceAddressRanges&) = delete;
  DeviceAddressRanges& operator=(const DeviceAddressRanges&) = delete;

  // Lists `buffer` at addresses[i] on the context's device i, `size` bytes each.
  void add(cl_mem buffer, const std::vector<uint64_t>& addresses, size_t size);
  void remove(cl_mem buffer);
  // The buffer holding `address` on the context's device `device` (null if none). Only the
  // handle: the caller looks it up, so a buffer released meanwhile is not found.
  cl_mem find(unsigned device, uint64_t address) const;

 private:
  struct Range {
    uint64_t end;
    cl_mem buffer;
  };
  mutable std::shared_mutex mutex_;
  std::vector<std::map<uint64_t, Range>> by_device_;  // by start address
};

}  // namespace cucl

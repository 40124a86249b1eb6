// A context's shared virtual memory (clSVMAlloc): which allocations exist, so that any
// pointer into one finds it (kernel arguments into the middle of an allocation, the SVM
// commands, buffers made on SVM pointers, CL_MEM_USES_SVM_POINTER).
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>

#include "backends/backend.h"

namespace cucl {

class Device;

struct SvmAllocation {
  char* base;
  size_t size;
  cl_svm_mem_flags flags;
  backend::Memory* memory;  // valid until the allocation is freed
  const Device* device;     // whose backend made `memory`

  bool fine_grain() const { return flags & CL_MEM_SVM_FINE_GRAIN_BUFFER; }
  // Whether [pointer, pointer + bytes) lies in this allocation (pointer already does).
  bool holds(const void* pointer, size_t bytes) const {
    return bytes <= size - static_cast<size_t>(static_cast<const char*>(pointer) - base);
  }
  // Where `pointer` lives for work on `on`: in this allocation's memory on the device that
  // made it, and at the same address, as host memory, elsewhere (the host device).
  backend::Location location(const Device& on, const void* pointer) const;
};

class SvmAllocations {
 public:
  SvmAllocations() = default;
  SvmAllocations(const SvmAllocations&) = delete;
  SvmAllocations& operator=(const SvmAllocations&) = delete;

  // Lists `memory` (from Device::allocate_shared of `device`); returns its address.
  void* add(std::unique_ptr<backend::Memory> memory, const Device& device, size_t size, cl_svm_mem_flags flags);
  // Unlists and frees the allocation that starts at `base`; false when none does.
  bool free(const void* base);
  // The allocation that holds `pointer`, if any.
  std::optional<SvmAllocation> find(const void* pointer) const;
  // clEnqueueSVMMap records the bytes it maps at `pointer` and whether the host may write
  // them; clEnqueueSVMUnmap takes the latest such record back (size 0 when there is none).
  struct MapRecord {
    size_t size = 0;
    bool host_writes = false;
  };
  void note_map(const void* pointer, MapRecord record);
  MapRecord take_map(const void* pointer);
  // A kernel on `device` is about to use the allocation that holds `pointer`, if any: the
  // allocation, and whether the kernel before it ran elsewhere or the host mapped the
  // allocation since (its pages may be elsewhere: worth moving ahead of the kernel; false for
  // the first use).
  struct KernelUse {
    SvmAllocation allocation;
    bool elsewhere;
  };
  std::optional<KernelUse> note_kernel_use(const void* pointer, const Device& device);

 private:
  struct Entry {
    SvmAllocation allocation;
    std::unique_ptr<backend::Memory> memory;
    const Device* last_kernel_device = nullptr;  // null: no kernel yet, or mapped since
    bool used = false;                           // by a kernel or a map
  };
  // The entry of `by_base` that holds `address`, or its end(); the lock is held.
  template <class ByBase>
  static auto holder_locked(ByBase& by_base, const char* address) -> decltype(by_base.begin());
  mutable std::shared_mutex mutex_;
  std::map<const char*, Entry> by_base_;
  std::multimap<const void*, MapRecord> maps_;
};

}  // namespace cucl

#include "platform/memory/svm_rules.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "base/error.h"
#include "platform/memory/device_address_rules.h"
#include "platform/objects/context.h"
#include "platform/objects/lookup.h"
#include "platform/queue/queue.h"

namespace cucl {
namespace {

constexpr cl_svm_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_svm_mem_flags kSvmFlags = kAccessFlags | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
constexpr size_t kDefaultAlignment = 128;  // long16, the largest OpenCL C type

// The SVM kinds every device of the context has.
cl_device_svm_capabilities common_capabilities(const Context& context) {
  cl_device_svm_capabilities common = ~cl_device_svm_capabilities{0};
  for (const Device* device : context.devices()) common &= device->description().svm_capabilities;
  return common;
}

bool flags_allowed(const Context& context, cl_svm_mem_flags flags) {
  if ((flags & ~kSvmFlags) || std::popcount(flags & kAccessFlags) > 1) return false;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)) return false;
  const cl_device_svm_capabilities common = common_capabilities(context);
  if ((flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) && !(common & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) return false;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(common & CL_DEVICE_SVM_ATOMICS)) return false;
  return true;
}

bool size_allowed(const Context& context, size_t size) {
  if (size == 0) return false;
  for (const Device* device : context.devices()) {
    if (size > device->description().max_mem_alloc_size) return false;
  }
  return true;
}

// The device whose shared memory every device of the context reaches: one that needs its
// own (a GPU's managed memory is host memory too), else the first with SVM.
Device* shared_memory_provider(const Context& context) {
  Device* first = nullptr;
  for (Device* device : context.devices()) {
    if (!device->description().svm_capabilities) continue;
    if (device->backend().needs_own_shared_memory()) return device;
    if (!first) first = device;
  }
  return first;
}

void* allocate(Context& context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  Device* provider = shared_memory_provider(context);
  if (!provider || !flags_allowed(context, flags) || !size_allowed(context, size)) return nullptr;
  const size_t align = alignment ? alignment : kDefaultAlignment;
  if (!std::has_single_bit(align) || align > backend::kMaxSharedAlignment) return nullptr;
  const bool coarse_grain_alone = !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) && context.devices().size() == 1;
  std::unique_ptr<backend::Memory> memory = provider->backend().allocate_shared(size, align, coarse_grain_alone);
  if (!memory) return nullptr;
  return context.svm().add(std::move(memory), *provider, size, flags);
}

}  // namespace

void* svm_alloc(cl_context handle, cl_svm_mem_flags flags, size_t size, cl_uint alignment) noexcept {
  try {
    return allocate(*lookup<Context>(handle), flags, size, alignment);
  } catch (...) {  // an invalid context, or no host memory
    return nullptr;
  }
}

void svm_free(cl_context handle, void* pointer) noexcept {
  try {
    if (pointer) lookup<Context>(handle)->svm().free(pointer);
  } catch (...) {  // an invalid context
  }
}

cl_device_svm_capabilities context_svm_capabilities(const Context& context) {
  cl_device_svm_capabilities any = 0;
  for (const Device* device : context.devices()) any |= device->description().svm_capabilities;
  return any;
}

void check_svm_queue(const Queue& queue) {
  check(queue.device().description().svm_capabilities != 0, CL_INVALID_OPERATION);
}

KernelArgValue svm_argument_value(const Kernel& kernel, cl_uint index, const void* pointer) {
  check(context_svm_capabilities(kernel.context()) != 0, CL_INVALID_OPERATION);
  check(index < kernel.metadata().args.size(), CL_INVALID_ARG_INDEX);
  check(kernel.takes_global_pointer(index), CL_INVALID_ARG_VALUE);
  return KernelArgValue::pointer(reinterpret_cast<uintptr_t>(pointer), false);
}

void set_kernel_exec_info(Kernel& kernel, cl_kernel_exec_info param, size_t size, const void* value) {
  if (param == CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT) return set_device_pointers_exec_info(kernel, size, value);
  check(param == CL_KERNEL_EXEC_INFO_SVM_PTRS || param == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
        CL_INVALID_VALUE);
  // Both parameters need SVM, which comes before any check of the value (the CTS's
  // consistency_svm passes a NULL value on devices without SVM and expects this).
  const cl_device_svm_capabilities capabilities = context_svm_capabilities(kernel.context());
  check(capabilities != 0, CL_INVALID_OPERATION);
  check(value != nullptr || size == 0, CL_INVALID_VALUE);
  if (param == CL_KERNEL_EXEC_INFO_SVM_PTRS) {
    // Managed memory and host memory are reached wherever the pointers lead: the list only
    // lets launches move their pages ahead (prefetch_svm_arguments in ndrange.cpp).
    check(size % sizeof(void*) == 0, CL_INVALID_VALUE);
    static_assert(sizeof(void*) == sizeof(uint64_t));
    std::vector<uint64_t> pointers(size / sizeof(void*));
    if (size) std::memcpy(pointers.data(), value, size);
    kernel.set_svm_pointers(std::move(pointers));
    return;
  }
  check(size == sizeof(cl_bool) && value != nullptr, CL_INVALID_VALUE);
  cl_bool enabled = CL_FALSE;
  std::memcpy(&enabled, value, sizeof enabled);
  check(!enabled || (capabilities & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM), CL_INVALID_OPERATION);
}

}  // namespace cucl

#include "platform/memory/memory_rules.h"

#include <bit>

#include "base/error.h"
#include "platform/memory/device_address_rules.h"
#include "platform/objects/lookup.h"

namespace cucl {
namespace {

constexpr cl_mem_flags kValidFlags = kKernelAccessFlags | kHostPtrFlags | kHostAccessFlags;

bool at_most_one(cl_mem_flags flags, cl_mem_flags group) { return std::popcount(flags & group) <= 1; }

bool aligned_for_some_device(const Context& context, size_t origin) {
  for (const Device* device : context.devices()) {
    size_t align = device->description().mem_base_addr_align_bits / 8;
    if (align == 0 || origin % align == 0) return true;
  }
  return false;
}

}  // namespace

void check_inheritable_flags(cl_mem_flags parent, cl_mem_flags flags) {
  if (parent & CL_MEM_WRITE_ONLY) check(!(flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)), CL_INVALID_VALUE);
  if (parent & CL_MEM_READ_ONLY) check(!(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)), CL_INVALID_VALUE);
  if (parent & CL_MEM_HOST_WRITE_ONLY) check(!(flags & CL_MEM_HOST_READ_ONLY), CL_INVALID_VALUE);
  if (parent & CL_MEM_HOST_READ_ONLY) check(!(flags & CL_MEM_HOST_WRITE_ONLY), CL_INVALID_VALUE);
  if (parent & CL_MEM_HOST_NO_ACCESS) {
    check(!(flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)), CL_INVALID_VALUE);
  }
}

cl_mem_flags inherit_flags(cl_mem_flags parent, cl_mem_flags flags) {
  if (!(flags & kKernelAccessFlags)) flags |= parent & kKernelAccessFlags;
  if (!(flags & kHostAccessFlags)) flags |= parent & kHostAccessFlags;
  return flags | (parent & kHostPtrFlags);
}

void check_mem_flags(cl_mem_flags flags) {
  check(!(flags & ~kValidFlags), CL_INVALID_VALUE);
  check(at_most_one(flags, kKernelAccessFlags), CL_INVALID_VALUE);
  check(at_most_one(flags, kHostAccessFlags), CL_INVALID_VALUE);
  check(!((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))),
        CL_INVALID_VALUE);
}

void check_host_ptr(cl_mem_flags flags, const void* host_ptr) {
  bool wants_pointer = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  check(wants_pointer == (host_ptr != nullptr), CL_INVALID_HOST_PTR);
}

std::vector<cl_mem_properties> mem_properties(const cl_mem_properties* properties) {
  if (!properties) return {};
  check(properties[0] == 0, CL_INVALID_PROPERTY);
  return {0};
}

BufferProperties buffer_properties(const Context& context, const cl_mem_properties* properties) {
  BufferProperties result;
  if (!properties) return result;
  bool seen = false;
  for (const cl_mem_properties* p = properties; *p; p += 2) {
    check(p[0] == CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT && !seen, CL_INVALID_PROPERTY);
    check(every_device_has_device_addresses(context), CL_INVALID_PROPERTY);
    check(p[1] == CL_TRUE || p[1] == CL_FALSE, CL_INVALID_PROPERTY);
    seen = true;
    result.device_addresses = p[1] == CL_TRUE;
    result.given.insert(result.given.end(), p, p + 2);
  }
  result.given.push_back(0);
  return result;
}

Ref<Buffer> create_buffer(Ref<Context> context, const cl_mem_properties* properties, cl_mem_flags flags, size_t size,
                          void* host_ptr) {
  BufferProperties validated = buffer_properties(*context, properties);
  check_mem_flags(flags);
  check(size != 0 && size <= context->max_mem_alloc_size(), CL_INVALID_BUFFER_SIZE);
  check_host_ptr(flags, host_ptr);
  if (flags & CL_MEM_USE_HOST_PTR) {  // on an SVM pointer: within its allocation
    std::optional<SvmAllocation> allocation = context->svm().find(host_ptr);
    check(!allocation || allocation->holds(host_ptr, size), CL_INVALID_BUFFER_SIZE);
  }
  auto buffer = make<Buffer>(std::move(context), flags, size, host_ptr, std::move(validated.given));
  if (validated.device_addresses) {
    buffer->fix_device_addresses();
  } else if (flags & CL_MEM_COPY_HOST_PTR) {
    buffer->allocate_everywhere();
  }
  return buffer;
}

Ref<Buffer> create_sub_buffer(Buffer& parent, cl_mem_flags flags, cl_buffer_create_type type, const void* info) {
  check(parent.parent() == nullptr, CL_INVALID_MEM_OBJECT);
  check_mem_flags(flags);
  check(!(flags & kHostPtrFlags), CL_INVALID_VALUE);
  check_inheritable_flags(parent.flags(), flags);
  check(type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE);
  check(info != nullptr, CL_INVALID_VALUE);
  const auto& region = *static_cast<const cl_buffer_region*>(info);
  check(region.size != 0, CL_INVALID_BUFFER_SIZE);
  check(region.origin <= parent.size() && region.size <= parent.size() - region.origin, CL_INVALID_VALUE);
  check(aligned_for_some_device(parent.context(), region.origin), CL_MISALIGNED_SUB_BUFFER_OFFSET);
  return make<Buffer>(Ref<Buffer>(&parent), inherit_flags(parent.flags(), flags), region.origin, region.size);
}

Ref<Buffer> lookup_buffer(cl_mem handle) { return lookup_memory_as<Buffer>(handle); }

}  // namespace cucl

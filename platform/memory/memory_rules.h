// Creating memory objects: the flag rules every cl_mem shares, and buffers and sub-buffers.
#pragma once

#include <vector>

#include "platform/memory/memory.h"

namespace cucl {

constexpr cl_mem_flags kKernelAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

// CL_INVALID_VALUE for unknown bits and mutually exclusive combinations (memory flags table).
void check_mem_flags(cl_mem_flags flags);
// A sub-buffer, or an image over a buffer or image, may narrow what that object allows (kernel
// and host access), never widen it (CL_INVALID_VALUE); the flags it leaves out it inherits.
void check_inheritable_flags(cl_mem_flags parent, cl_mem_flags flags);
cl_mem_flags inherit_flags(cl_mem_flags parent, cl_mem_flags flags);
// CL_INVALID_HOST_PTR unless host_ptr is given exactly when USE_/COPY_HOST_PTR asks for it.
void check_host_ptr(cl_mem_flags flags, const void* host_ptr);
// Validates a cl_mem_properties list; returns it as given, terminator included (empty for
// NULL). Images take no property, so any name is CL_INVALID_PROPERTY (buffers: buffer_properties).
std::vector<cl_mem_properties> mem_properties(const cl_mem_properties* properties);

// A buffer's cl_mem_properties list: mem_properties' rules, plus
// CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT (CL_TRUE or CL_FALSE, once) where every device of the
// context has cl_ext_buffer_device_address.
struct BufferProperties {
  std::vector<cl_mem_properties> given;  // as mem_properties returns it
  bool device_addresses = false;
};
BufferProperties buffer_properties(const Context& context, const cl_mem_properties* properties);

Ref<Buffer> create_buffer(Ref<Context> context, const cl_mem_properties* properties, cl_mem_flags flags, size_t size,
                          void* host_ptr);
Ref<Buffer> create_sub_buffer(Buffer& parent, cl_mem_flags flags, cl_buffer_create_type type, const void* info);

// The live buffer behind `handle` (images and dead handles: CL_INVALID_MEM_OBJECT).
Ref<Buffer> lookup_buffer(cl_mem handle);

}  // namespace cucl

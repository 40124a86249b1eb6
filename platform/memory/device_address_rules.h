// cl_ext_buffer_device_address: the buffer property, the device-address query, device pointers
// as kernel arguments and as execution information, and the buffers a launch must make current
// for them.
#pragma once

#include <vector>

#include "platform/memory/buffer_device_address_ext.h"
#include "platform/program/kernel.h"
#include "platform/queue/command.h"

namespace cucl {

class Queue;

// Whether every device of the context lists cl_ext_buffer_device_address (the property may be
// asked for), and whether any does (device pointers may be set).
bool every_device_has_device_addresses(const Context& context);
bool some_device_has_device_addresses(const Context& context);

// clGetMemObjectInfo(CL_MEM_DEVICE_ADDRESS_EXT): the buffer's address on each device of the
// context, in the context's order; CL_INVALID_OPERATION for memory without device addresses.
std::vector<cl_mem_device_address_ext> device_address_info(MemObject& memory);

// clSetKernelArgDevicePointerEXT's value for argument `index`: CL_INVALID_OPERATION where no
// device of the kernel's context has the extension, CL_INVALID_ARG_INDEX for an index out of
// range or an argument that is not a __global or __constant pointer. Any address (NULL, one
// into the middle of a buffer) reaches the kernel as it is, as its by-value bytes.
KernelArgValue device_pointer_argument_value(const Kernel& kernel, cl_uint index, cl_mem_device_address_ext address);

// clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT): the device pointers the kernel
// reaches besides its arguments (a list of cl_mem_device_address_ext).
void set_device_pointers_exec_info(Kernel& kernel, size_t size, const void* value);

// A launch on `queue` reaches the buffers behind its device pointers (arguments and execution
// information) as it reaches buffer arguments: notes that it reads and writes each of them, so
// that in a context of several devices the queue's device has their current bytes.
void note_device_pointer_accesses(const Queue& queue, const Kernel& kernel, const std::vector<KernelArgValue>& args,
                                  CommandSpec& spec);

}  // namespace cucl

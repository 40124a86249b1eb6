// Shared virtual memory: clSVMAlloc and clSVMFree, SVM pointers as kernel arguments and
// execution information, and what the other rules ask of SVM pointers.
#pragma once

#include <CL/cl.h>

#include "platform/program/kernel.h"

namespace cucl {

class Context;
class Queue;

// clSVMAlloc fails like malloc, with NULL and no error code: an invalid context, no device
// with SVM, flags outside the SVM memory flags table or asking for a kind some device of the
// context lacks, a size of 0 or above some device's CL_DEVICE_MAX_MEM_ALLOC_SIZE, an
// alignment that is not a power of two or above backend::kMaxSharedAlignment (0 means 128,
// the largest OpenCL C type), or no room.
void* svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) noexcept;
// clSVMFree reports no errors: an invalid context, NULL or a pointer that no clSVMAlloc of the
// context returned is ignored.
void svm_free(cl_context context, void* pointer) noexcept;

// The union of the SVM kinds of the context's devices.
cl_device_svm_capabilities context_svm_capabilities(const Context& context);

// CL_INVALID_OPERATION where the queue's device does not support SVM (every SVM command).
void check_svm_queue(const Queue& queue);

// clSetKernelArgSVMPointer's value for argument `index`: CL_INVALID_OPERATION where no device
// of the kernel's context supports SVM, CL_INVALID_ARG_INDEX, and CL_INVALID_ARG_VALUE
// unless the argument is a __global or __constant pointer. Any pointer (NULL, the middle of
// an allocation, host memory on a device with fine-grain system SVM) reaches the kernel as it
// is, as its by-value bytes.
KernelArgValue svm_argument_value(const Kernel& kernel, cl_uint index, const void* pointer);

// clSetKernelExecInfo (CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT in device_address_rules.h).
void set_kernel_exec_info(Kernel& kernel, cl_kernel_exec_info param, size_t size, const void* value);

}  // namespace cucl

// Shared virtual memory. CL_DEVICE_SVM_CAPABILITIES is 0 on every device, so no SVM
// allocation can exist yet: these are the answers until the SVM issue lands.
#pragma once

#include <CL/cl.h>

namespace cucl {

class Kernel;
class Queue;

// clSVMAlloc fails like malloc, with NULL and no error code: no device of any context
// supports SVM.
void* svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) noexcept;
// clSVMFree reports no errors, whatever it is given; clSVMAlloc never returned a pointer,
// so there is nothing to free.
void svm_free(cl_context context, void* pointer) noexcept;

// Every SVM command, after its queue: the queue's device does not support SVM
// (CL_INVALID_OPERATION).
[[noreturn]] void reject_svm_command(const Queue& queue);

// clSetKernelArgSVMPointer: no pointer can be an SVM pointer (CL_INVALID_OPERATION).
[[noreturn]] void set_kernel_arg_svm_pointer(Kernel& kernel, cl_uint index, const void* pointer);

}  // namespace cucl

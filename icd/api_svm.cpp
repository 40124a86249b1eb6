// Shared virtual memory. These are the answers until the SVM issue lands:
// CL_DEVICE_SVM_CAPABILITIES is 0 on every device, so no SVM allocation can exist.
#include "icd/entry.h"
#include "platform/kernel.h"
#include "platform/queue.h"

using namespace cucl;
using cucl::icd::guard;

namespace {

// Every SVM command checks its queue, then that the queue's device supports SVM.
cl_int reject_svm_command(cl_command_queue command_queue) {
  return guard([&] {
    lookup<Queue>(command_queue);
    fail(CL_INVALID_OPERATION);
  });
}

}  // namespace

// clSVMAlloc fails, like malloc, with NULL and no error code: no device in any context
// supports SVM.
CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) { return nullptr; }

// clSVMAlloc never returned a pointer, so there is nothing to free; clSVMFree reports no
// errors, whatever it is given.
CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context, void*) {}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint, void*[],
                                                 void(CL_CALLBACK*)(cl_command_queue, cl_uint, void*[], void*),
                                                 void*, cl_uint, const cl_event*, cl_event*) {
  return reject_svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool, void*, const void*, size_t,
                                                   cl_uint, const cl_event*, cl_event*) {
  return reject_svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void*, const void*, size_t, size_t,
                                                    cl_uint, const cl_event*, cl_event*) {
  return reject_svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool, cl_map_flags, void*, size_t,
                                                cl_uint, const cl_event*, cl_event*) {
  return reject_svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void*, cl_uint, const cl_event*,
                                                  cl_event*) {
  return reject_svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint, const void**,
                                                       const size_t*, cl_mem_migration_flags, cl_uint,
                                                       const cl_event*, cl_event*) {
  return reject_svm_command(command_queue);
}

// No device has SVM, so no pointer can be an SVM pointer.
CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint, const void*) {
  return guard([&] {
    lookup<Kernel>(kernel);
    fail(CL_INVALID_OPERATION);
  });
}

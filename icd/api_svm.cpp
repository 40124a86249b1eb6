// Shared virtual memory. No device supports it yet (platform/svm_rules.h), so no SVM
// allocation can exist.
#include "icd/entry.h"
#include "platform/program/kernel.h"
#include "platform/queue/queue.h"
#include "platform/memory/svm_rules.h"

using namespace cucl;
using cucl::icd::guard;

namespace {

cl_int svm_command(cl_command_queue command_queue) {
  return guard([&] { reject_svm_command(*lookup<Queue>(command_queue)); });
}

}  // namespace

CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) {
  return svm_alloc(context, flags, size, alignment);
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void* svm_pointer) { svm_free(context, svm_pointer); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint, void*[],
                                                 void(CL_CALLBACK*)(cl_command_queue, cl_uint, void*[], void*),
                                                 void*, cl_uint, const cl_event*, cl_event*) {
  return svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool, void*, const void*, size_t,
                                                   cl_uint, const cl_event*, cl_event*) {
  return svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void*, const void*, size_t, size_t,
                                                    cl_uint, const cl_event*, cl_event*) {
  return svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool, cl_map_flags, void*, size_t,
                                                cl_uint, const cl_event*, cl_event*) {
  return svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void*, cl_uint, const cl_event*,
                                                  cl_event*) {
  return svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint, const void**,
                                                       const size_t*, cl_mem_migration_flags, cl_uint,
                                                       const cl_event*, cl_event*) {
  return svm_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
  return guard([&] { set_kernel_arg_svm_pointer(*lookup<Kernel>(kernel), arg_index, arg_value); });
}

// Shared virtual memory: allocations (platform/memory/svm_rules.h) and the SVM commands
// (platform/memory/svm_commands.h).
#include "icd/entry.h"
#include "platform/memory/svm_commands.h"
#include "platform/memory/svm_rules.h"
#include "platform/program/kernel.h"
#include "platform/queue/enqueue.h"

using namespace cucl;
using cucl::icd::guard;

namespace {

// Every SVM command: find the queue, build the command on it, submit it.
template <class Build>
cl_int enqueue_svm(cl_command_queue command_queue, cl_uint num_events, const cl_event* wait_list, cl_event* event,
                   bool blocking, Build build) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    submit(*queue, build(*queue), num_events, wait_list, event, blocking);
  });
}

}  // namespace

CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) {
  return svm_alloc(context, flags, size, alignment);
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void* svm_pointer) { svm_free(context, svm_pointer); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                                 void* svm_pointers[], SvmFreeCallback pfn_free_func, void* user_data,
                                                 cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                 cl_event* event) {
  return enqueue_svm(command_queue, num_events_in_wait_list, event_wait_list, event, false,
                     [&](Queue& queue) { return svm_free_command(queue, num_svm_pointers, svm_pointers, pfn_free_func, user_data); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                                   void* dst_ptr, const void* src_ptr, size_t size,
                                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                   cl_event* event) {
  return enqueue_svm(command_queue, num_events_in_wait_list, event_wait_list, event, blocking_copy != CL_FALSE,
                     [&](Queue& queue) { return svm_memcpy(queue, dst_ptr, src_ptr, size); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void* svm_ptr, const void* pattern,
                                                    size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) {
  return enqueue_svm(command_queue, num_events_in_wait_list, event_wait_list, event, false,
                     [&](Queue& queue) { return svm_mem_fill(queue, svm_ptr, pattern, pattern_size, size); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                                cl_map_flags flags, void* svm_ptr, size_t size,
                                                cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    submit(*queue, svm_map(*queue, flags, svm_ptr, size), num_events_in_wait_list, event_wait_list, event,
           blocking_map != CL_FALSE);
    // Only a map that was enqueued leaves a record (a bad wait list, say, leaves none).
    queue->context().svm().note_map(svm_ptr, {size, (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0});
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void* svm_ptr,
                                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                  cl_event* event) {
  return enqueue_svm(command_queue, num_events_in_wait_list, event_wait_list, event, false,
                     [&](Queue& queue) { return svm_unmap(queue, svm_ptr); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                                       const void** svm_pointers, const size_t* sizes,
                                                       cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                                                       const cl_event* event_wait_list, cl_event* event) {
  return enqueue_svm(command_queue, num_events_in_wait_list, event_wait_list, event, false,
                     [&](Queue& queue) { return svm_migrate(queue, num_svm_pointers, svm_pointers, sizes, flags); });
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
  return guard([&] {
    auto target = lookup<Kernel>(kernel);
    target->set_arg_value(arg_index, svm_argument_value(*target, arg_index, arg_value));
  });
}

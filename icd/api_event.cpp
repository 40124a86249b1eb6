// Events, user events, markers and barriers.
#include "icd/entry.h"
#include "platform/queue/event_rules.h"
#include "platform/info/info.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
  return guard([&] { wait_for_events(num_events, event_list); });
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) {
  return cucl::icd::query<Event>(event, param_name, param_value_size, param_value, param_value_size_ret, event_info);
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                                        size_t param_value_size, void* param_value,
                                                        size_t* param_value_size_ret) {
  return cucl::icd::query<Event>(event, param_name, param_value_size, param_value, param_value_size_ret, event_profiling_info);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return cucl::icd::retain<Event>(event);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return cucl::icd::release<Event>(event);
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    auto cucl_context = lookup<Context>(context);
    return publish<cl_event>(make<Event>(std::move(cucl_context)));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  return guard([&] { set_user_event_status(*lookup<Event>(event), execution_status); });
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                                   void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*),
                                                   void* user_data) {
  return guard([&] { set_event_callback(*lookup<Event>(event), command_exec_callback_type, pfn_notify, user_data); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event* event_wait_list, cl_event* event) {
  return guard([&] { enqueue_marker(*lookup<Queue>(command_queue), num_events_in_wait_list, event_wait_list, event); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event* event_wait_list, cl_event* event) {
  return guard(
      [&] { enqueue_barrier(*lookup<Queue>(command_queue), num_events_in_wait_list, event_wait_list, event); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event* event) {
  return guard([&] { enqueue_marker(*lookup<Queue>(command_queue), event); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return guard([&] { enqueue_barrier(*lookup<Queue>(command_queue), 0, nullptr, nullptr); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                                       const cl_event* event_list) {
  return guard([&] { enqueue_wait_for_events(*lookup<Queue>(command_queue), num_events, event_list); });
}

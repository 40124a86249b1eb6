// Events, user events, markers and barriers.
#include "icd/entry.h"
#include "platform/enqueue.h"
#include "platform/info.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

namespace {

CommandSpec sync_point(cl_command_type type) {
  CommandSpec spec;
  spec.type = type;
  spec.operation = backend::op::Nothing{};
  return spec;
}

}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
  return guard([&] {
    check(num_events && event_list, CL_INVALID_VALUE);
    std::vector<Ref<Event>> events;
    for (cl_uint i = 0; i < num_events; ++i) {
      events.push_back(lookup<Event>(event_list[i]));
      check(&events.back()->context() == &events.front()->context(), CL_INVALID_CONTEXT);
    }
    bool failed = false;
    for (auto& event : events) failed |= event->wait() < 0;
    check(!failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  });
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
  return guard([&] {
    auto cucl_event = lookup<Event>(event);
    check(cucl_event->is_user_event(), CL_INVALID_EVENT);
    check(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE);
    // One atomic step: of two racing calls, exactly one succeeds.
    check(cucl_event->set_status(execution_status), CL_INVALID_OPERATION);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                                   void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*),
                                                   void* user_data) {
  return guard([&] {
    auto cucl_event = lookup<Event>(event);
    check(pfn_notify != nullptr, CL_INVALID_VALUE);
    check(command_exec_callback_type == CL_SUBMITTED || command_exec_callback_type == CL_RUNNING ||
              command_exec_callback_type == CL_COMPLETE,
          CL_INVALID_VALUE);
    cucl_event->add_callback(command_exec_callback_type, pfn_notify, user_data);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    submit(*queue, sync_point(CL_COMMAND_MARKER), num_events_in_wait_list, event_wait_list, event, false,
           Ordering::Marker);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    submit(*queue, sync_point(CL_COMMAND_BARRIER), num_events_in_wait_list, event_wait_list, event, false,
           Ordering::Barrier);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    check(event != nullptr, CL_INVALID_VALUE);
    submit(*queue, sync_point(CL_COMMAND_MARKER), 0, nullptr, event, false, Ordering::Marker);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    submit(*queue, sync_point(CL_COMMAND_BARRIER), 0, nullptr, nullptr, false, Ordering::Barrier);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                                       const cl_event* event_list) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    check(num_events && event_list, CL_INVALID_VALUE);
    std::vector<Ref<Event>> events;
    for (cl_uint i = 0; i < num_events; ++i) events.push_back(lookup<Event>(event_list[i]));
    // A barrier on exactly these events: later commands wait for them.
    queue->enqueue(sync_point(CL_COMMAND_BARRIER), events, Ordering::Barrier);
  });
}

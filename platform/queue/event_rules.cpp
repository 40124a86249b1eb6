#include "platform/queue/event_rules.h"

#include "base/error.h"
#include "platform/queue/enqueue.h"
#include "platform/objects/lookup.h"

namespace cucl {
namespace {

// A command that does no work: it only orders others (markers, barriers).
CommandSpec sync_point(cl_command_type type) {
  CommandSpec spec;
  spec.type = type;
  spec.operation = backend::op::Nothing{};
  return spec;
}

}  // namespace

void wait_for_events(cl_uint num_events, const cl_event* event_list) {
  check(num_events && event_list, CL_INVALID_VALUE);
  std::vector<Ref<Event>> events;
  for (cl_uint i = 0; i < num_events; ++i) {
    events.push_back(lookup<Event>(event_list[i]));
    check(&events.back()->context() == &events.front()->context(), CL_INVALID_CONTEXT);
  }
  bool failed = false;
  for (auto& event : events) failed |= event->wait() < 0;
  check(!failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
}

void set_user_event_status(Event& event, cl_int execution_status) {
  check(event.is_user_event(), CL_INVALID_EVENT);
  check(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE);
  // One atomic step: of two racing calls, exactly one succeeds.
  check(event.set_status(execution_status), CL_INVALID_OPERATION);
}

void set_event_callback(Event& event, cl_int callback_type, Event::Callback callback, void* user_data) {
  check(callback != nullptr, CL_INVALID_VALUE);
  check(callback_type == CL_SUBMITTED || callback_type == CL_RUNNING || callback_type == CL_COMPLETE,
        CL_INVALID_VALUE);
  event.add_callback(callback_type, callback, user_data);
}

void enqueue_marker(Queue& queue, cl_uint num_events, const cl_event* wait_list, cl_event* event_out) {
  submit(queue, sync_point(CL_COMMAND_MARKER), num_events, wait_list, event_out, false, Ordering::Marker);
}

void enqueue_barrier(Queue& queue, cl_uint num_events, const cl_event* wait_list, cl_event* event_out) {
  submit(queue, sync_point(CL_COMMAND_BARRIER), num_events, wait_list, event_out, false, Ordering::Barrier);
}

void enqueue_marker(Queue& queue, cl_event* event_out) {
  check(event_out != nullptr, CL_INVALID_VALUE);
  enqueue_marker(queue, 0, nullptr, event_out);
}

void enqueue_wait_for_events(Queue& queue, cl_uint num_events, const cl_event* event_list) {
  check(num_events && event_list, CL_INVALID_VALUE);
  std::vector<Ref<Event>> events;
  for (cl_uint i = 0; i < num_events; ++i) events.push_back(lookup<Event>(event_list[i]));
  queue.enqueue(sync_point(CL_COMMAND_BARRIER), events, Ordering::Barrier);
}

}  // namespace cucl

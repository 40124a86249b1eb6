#include "platform/queue/enqueue.h"

#include "base/error.h"
#include "platform/objects/lookup.h"

namespace cucl {

std::vector<Ref<Event>> resolve_wait_list(cl_uint count, const cl_event* list) {
  check((count == 0) == (list == nullptr), CL_INVALID_EVENT_WAIT_LIST);
  std::vector<Ref<Event>> events;
  events.reserve(count);
  for (cl_uint i = 0; i < count; ++i) {
    auto event = lookup_or_null<Event>(list[i]);
    check(event != nullptr, CL_INVALID_EVENT_WAIT_LIST);
    events.push_back(std::move(event));
  }
  return events;
}

Ref<Event> submit(Queue& queue, CommandSpec spec, cl_uint num_events, const cl_event* wait_list, cl_event* event_out,
                  bool blocking, Ordering ordering) {
  // Nothing names this command: where the queue can, it goes to the stream without an event.
  if (num_events == 0 && !wait_list && !event_out && !blocking && ordering == Ordering::Normal &&
      queue.enqueue_direct(spec)) {
    return nullptr;
  }
  auto events = resolve_wait_list(num_events, wait_list);
  auto event = queue.enqueue(std::move(spec), events, ordering, blocking);
  // A blocking call that fails returns no event: the application gets nothing to release.
  if (blocking) check(event->wait() == CL_COMPLETE, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  if (event_out) {
    event->pin_handles();
    *event_out = publish<cl_event>(event);
  }
  return event;
}

}  // namespace cucl

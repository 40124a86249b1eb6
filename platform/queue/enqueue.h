// The common tail of every clEnqueue*: resolve the wait list, enqueue, hand the event to
// the application if it asked for one, and block if the call is blocking.
#pragma once

#include <vector>

#include "platform/queue/queue.h"

namespace cucl {

// CL_INVALID_EVENT_WAIT_LIST unless the list is well formed and every event is live.
std::vector<Ref<Event>> resolve_wait_list(cl_uint count, const cl_event* list);

// Returns the command's event (already published into *event_out when that is non-null), or
// null when nothing can name the command (no wait list, no event_out, not blocking) and the
// queue sent it to its stream directly (Queue::enqueue_direct). A blocking call waits and
// reports a failed command as CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
Ref<Event> submit(Queue& queue, CommandSpec spec, cl_uint num_events, const cl_event* wait_list, cl_event* event_out,
                  bool blocking = false, Ordering ordering = Ordering::Normal);

}  // namespace cucl

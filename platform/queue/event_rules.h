// Events: waiting, user events, callbacks, and the commands that only order others
// (markers, barriers, clEnqueueWaitForEvents).
#pragma once

#include "platform/queue/event.h"
#include "platform/queue/queue.h"

namespace cucl {

// clWaitForEvents: every event of one context; CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
// when any of them failed (after all have ended).
void wait_for_events(cl_uint num_events, const cl_event* event_list);

// clSetUserEventStatus: CL_COMPLETE or an error, once.
void set_user_event_status(Event& event, cl_int execution_status);

// clSetEventCallback: for CL_SUBMITTED, CL_RUNNING or CL_COMPLETE.
void set_event_callback(Event& event, cl_int callback_type, Event::Callback callback, void* user_data);

// clEnqueueMarkerWithWaitList and clEnqueueBarrierWithWaitList (an empty wait list: every
// earlier command of the queue).
void enqueue_marker(Queue& queue, cl_uint num_events, const cl_event* wait_list, cl_event* event_out);
void enqueue_barrier(Queue& queue, cl_uint num_events, const cl_event* wait_list, cl_event* event_out);
// clEnqueueMarker: a marker whose event the application must ask for.
void enqueue_marker(Queue& queue, cl_event* event_out);
// clEnqueueWaitForEvents: a barrier on exactly these events (no empty list): later commands
// wait for them.
void enqueue_wait_for_events(Queue& queue, cl_uint num_events, const cl_event* event_list);

}  // namespace cucl

#include "platform/queue/event.h"
#include "platform/info/info.h"
#include "platform/queue/queue.h"

namespace cucl {

void event_info(Event& event, cl_event_info param, InfoWriter& out) {
  switch (param) {
    case CL_EVENT_COMMAND_QUEUE:
      return out.scalar<cl_command_queue>(event.queue() ? event.queue()->id() : nullptr);
    case CL_EVENT_CONTEXT: return out.scalar(event.context().id());
    case CL_EVENT_COMMAND_TYPE: return out.scalar(event.command_type());
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return out.scalar(event.status());
    case CL_EVENT_REFERENCE_COUNT: return out.scalar(event.api_ref_count());
    default: fail(CL_INVALID_VALUE);
  }
}

void event_profiling_info(Event& event, cl_profiling_info param, InfoWriter& out) {
  check(param >= CL_PROFILING_COMMAND_QUEUED && param <= CL_PROFILING_COMMAND_COMPLETE, CL_INVALID_VALUE);
  check(event.profiled() && event.status() == CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE);
  out.scalar(event.timestamp(param - CL_PROFILING_COMMAND_QUEUED));
}

}  // namespace cucl

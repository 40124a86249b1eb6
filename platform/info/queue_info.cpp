#include "platform/info/info.h"
#include "platform/queue/queue.h"

namespace cucl {

void queue_info(Queue& queue, cl_command_queue_info param, InfoWriter& out) {
  switch (param) {
    case CL_QUEUE_CONTEXT: return out.scalar(queue.context().id());
    case CL_QUEUE_DEVICE: return out.scalar(queue.device().id());
    case CL_QUEUE_REFERENCE_COUNT: return out.scalar(queue.api_ref_count());
    case CL_QUEUE_PROPERTIES: return out.scalar(queue.properties());
    case CL_QUEUE_PROPERTIES_ARRAY: return out.array(queue.properties_array());
    case CL_QUEUE_SIZE: fail(CL_INVALID_COMMAND_QUEUE);  // only device-side queues have a size
    case CL_QUEUE_DEVICE_DEFAULT: return out.scalar<cl_command_queue>(nullptr);
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

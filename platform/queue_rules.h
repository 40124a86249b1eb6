#pragma once

#include "platform/queue.h"

namespace cucl {

// Validates queue properties (the 2.0+ property list form, or the 1.x bitfield as
// {CL_QUEUE_PROPERTIES, bits, 0}) against `device` and creates the queue.
Ref<Queue> create_queue(Context& context, Device& device, const cl_queue_properties* properties);

}  // namespace cucl

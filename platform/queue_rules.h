#pragma once

#include "platform/queue.h"

namespace cucl {

// clCreateCommandQueueWithProperties: validates the property list against `device` and
// creates the queue; CL_QUEUE_PROPERTIES_ARRAY will return the list as given.
Ref<Queue> create_queue(Context& context, Device& device, const cl_queue_properties* properties);

// clCreateCommandQueue: the 1.x bitfield, which only knows the host-queue bits;
// CL_QUEUE_PROPERTIES_ARRAY of such a queue is empty.
Ref<Queue> create_legacy_queue(Context& context, Device& device, cl_command_queue_properties properties);

}  // namespace cucl

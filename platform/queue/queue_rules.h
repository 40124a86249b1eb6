#pragma once

#include "platform/queue/queue.h"

namespace cucl {

// clCreateCommandQueueWithProperties: validates the property list against `device` and
// creates the queue; CL_QUEUE_PROPERTIES_ARRAY will return the list as given.
Ref<Queue> create_queue(Context& context, Device& device, const cl_queue_properties* properties);

// clCreateCommandQueue: the 1.x bitfield, which only knows the host-queue bits;
// CL_QUEUE_PROPERTIES_ARRAY of such a queue is empty.
Ref<Queue> create_legacy_queue(Context& context, Device& device, cl_command_queue_properties properties);

// clSetCommandQueueProperty (deprecated since OpenCL 1.1): queue properties are fixed at
// creation in cucl (CL_INVALID_OPERATION).
[[noreturn]] void set_queue_property(Queue& queue, cl_command_queue_properties properties, cl_bool enable,
                                     cl_command_queue_properties* old_properties);

// clSetDefaultDeviceCommandQueue: the specification checks the device before the queue,
// and CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0 on every device, so after the device
// check the answer is CL_INVALID_OPERATION whatever queue is given.
[[noreturn]] void set_default_device_command_queue(Context& context, Device& device, cl_command_queue queue);

}  // namespace cucl

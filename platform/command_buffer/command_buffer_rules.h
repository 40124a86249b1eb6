// The rules of the cl_khr_command_buffer entry points that are not a recorded command's own
// (those are its clEnqueue* builder's): creation and its properties, the arguments every
// record call shares, enqueue and its queues, and clGetCommandBufferInfoKHR.
#pragma once

#include <vector>

#include "platform/command_buffer/command_buffer.h"
#include "platform/info/info_writer.h"

namespace cucl {

// What a device that takes command buffers accepts (the device queries report these).
inline constexpr cl_command_queue_properties kCommandBufferQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
inline constexpr cl_device_command_buffer_capabilities_khr kCommandBufferCapabilities =
    CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR | CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR;

Ref<CommandBuffer> create_command_buffer(cl_uint num_queues, const cl_command_queue* queues,
                                         const cl_command_buffer_properties_khr* properties);

// The checks every record call makes before its command's own: the queue (NULL: the
// buffer's), the properties and the mutable handle (none and NULL: only kernel commands take
// them, which record_kernel checks) and the buffer's state and sync points. Returns the
// queue the command is recorded for.
Queue& check_record_call(CommandBuffer& buffer, cl_command_queue queue, const cl_properties* properties,
                         cl_uint num_sync_points, const cl_sync_point_khr* sync_points, const void* mutable_handle);

// Records `spec` and stores its sync point where the application asked for one.
void record_command(CommandBuffer& buffer, CommandSpec spec, cl_sync_point_khr* sync_point);

// clEnqueueCommandBufferKHR.
void enqueue_command_buffer(cl_uint num_queues, const cl_command_queue* queues, CommandBuffer& buffer,
                            cl_uint num_events, const cl_event* wait_list, cl_event* event);

void command_buffer_info(CommandBuffer& buffer, cl_command_buffer_info_khr param, InfoWriter& out);

}  // namespace cucl

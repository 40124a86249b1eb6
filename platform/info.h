// clGet*Info answers, one function per object kind. Each throws CL_INVALID_VALUE for an
// unknown `param` and writes through `out` otherwise.
#pragma once

#include "platform/info_writer.h"

namespace cucl {

class Platform;
class Device;
class Context;
class Queue;
class MemObject;
class Event;

void platform_info(Platform& platform, cl_platform_info param, InfoWriter& out);
void device_info(Device& device, cl_device_info param, InfoWriter& out);
void context_info(Context& context, cl_context_info param, InfoWriter& out);
void queue_info(Queue& queue, cl_command_queue_info param, InfoWriter& out);
void mem_object_info(MemObject& memory, cl_mem_info param, InfoWriter& out);
void event_info(Event& event, cl_event_info param, InfoWriter& out);
void event_profiling_info(Event& event, cl_profiling_info param, InfoWriter& out);

}  // namespace cucl

// clGet*Info answers, one function per object kind. Each throws CL_INVALID_VALUE for an
// unknown `param` and writes through `out` otherwise.
#pragma once

#include "platform/info/info_writer.h"

namespace cucl {

class Platform;
class Device;
class Context;
class Queue;
class MemObject;
class Image;
class Event;
class Program;
class Kernel;

void platform_info(Platform& platform, cl_platform_info param, InfoWriter& out);
void device_info(Device& device, cl_device_info param, InfoWriter& out);
void context_info(Context& context, cl_context_info param, InfoWriter& out);
void queue_info(Queue& queue, cl_command_queue_info param, InfoWriter& out);
void mem_object_info(MemObject& memory, cl_mem_info param, InfoWriter& out);
void image_info(Image& image, cl_image_info param, InfoWriter& out);
void event_info(Event& event, cl_event_info param, InfoWriter& out);
void event_profiling_info(Event& event, cl_profiling_info param, InfoWriter& out);
// Takes the value buffer itself: CL_PROGRAM_BINARIES's value is an array of
// application-owned pointers.
void program_info(Program& program, cl_program_info param, size_t size, void* value, size_t* size_ret);
// CL_INVALID_DEVICE unless `device` is one of the program's.
void program_build_info(Program& program, Device& device, cl_program_build_info param, InfoWriter& out);
void kernel_info(Kernel& kernel, cl_kernel_info param, InfoWriter& out);
void kernel_arg_info(Kernel& kernel, cl_uint index, cl_kernel_arg_info param, InfoWriter& out);
// `device` may be null when the kernel's program has exactly one device.
void kernel_work_group_info(Kernel& kernel, Device* device, cl_kernel_work_group_info param, InfoWriter& out);
// `device` may be null when the kernel's program has exactly one device; one without
// sub-groups (CL_DEVICE_MAX_NUM_SUB_GROUPS 0) answers CL_INVALID_OPERATION.
void kernel_sub_group_info(Kernel& kernel, Device* device, cl_kernel_sub_group_info param, size_t input_size,
                           const void* input, InfoWriter& out);

}  // namespace cucl

// clEnqueueNDRangeKernel and clEnqueueTask: the range (launch_range.h), the checks of the
// kernel's arguments, and the launch operation.
#pragma once

#include "platform/queue/command.h"
#include "platform/program/kernel.h"
#include "platform/queue/queue.h"

namespace cucl {

CommandSpec ndrange_kernel(Queue& queue, Kernel& kernel, cl_uint work_dim, const size_t* global_work_offset,
                           const size_t* global_work_size, const size_t* local_work_size);
// The same launch with the argument values `args` instead of the kernel's own (a command
// buffer's mutable commands keep theirs).
CommandSpec ndrange_kernel_with(Queue& queue, Kernel& kernel, const std::vector<KernelArgValue>& args, cl_uint work_dim,
                                const size_t* global_work_offset, const size_t* global_work_size,
                                const size_t* local_work_size);
// clEnqueueTask: one work-item in one work-group, as a CL_COMMAND_TASK.
CommandSpec task_kernel(Queue& queue, Kernel& kernel);

}  // namespace cucl

// clEnqueueNDRangeKernel and clEnqueueTask: every check of the specification on the range
// and the kernel's arguments, the choice of a work-group size when the application gives
// none, and the launch operation.
#pragma once

#include "platform/queue/command.h"
#include "platform/program/kernel.h"
#include "platform/queue/queue.h"

namespace cucl {

CommandSpec ndrange_kernel(Queue& queue, Kernel& kernel, cl_uint work_dim, const size_t* global_work_offset,
                           const size_t* global_work_size, const size_t* local_work_size);
// clEnqueueTask: one work-item in one work-group, as a CL_COMMAND_TASK.
CommandSpec task_kernel(Queue& queue, Kernel& kernel);

// The work-group size cucl picks for a NULL local_work_size: uniform groups that divide
// the range, as large as the kernel allows, leaving enough groups for every compute unit.
std::array<size_t, 3> choose_local_size(cl_uint work_dim, const std::array<size_t, 3>& global, size_t max_group,
                                        const std::array<size_t, 3>& max_item_sizes, cl_uint compute_units);

}  // namespace cucl

// The range of a kernel launch: every check of the specification on the work dimensions,
// global and local sizes and offsets, and the work-group size cucl picks where the
// application gives none (which clGetKernelSuggestedLocalWorkSize reports).
#pragma once

#include <array>

#include "backends/kernel_code.h"
#include "platform/program/kernel.h"
#include "platform/queue/queue.h"

namespace cucl {

// The checked range of a launch of `kernel` on `device` (clEnqueueNDRangeKernel's rules;
// a NULL global size launches nothing, as on OpenCL 2.1 and newer devices).
backend::NDRange launch_range(const Kernel& kernel, const Device& device, const backend::KernelCode& code,
                              cl_uint work_dim, const size_t* global_work_offset, const size_t* global_work_size,
                              const size_t* local_work_size);

// clGetKernelSuggestedLocalWorkSize(KHR): the local size a launch with a NULL one would take.
void suggested_local_work_size(Queue& queue, Kernel& kernel, cl_uint work_dim, const size_t* global_work_offset,
                               const size_t* global_work_size, size_t* suggested_local_work_size);

// The work-group size cucl picks for a NULL local_work_size: uniform groups that divide
// the range, as large as the kernel allows, leaving enough groups for every compute unit.
std::array<size_t, 3> choose_local_size(cl_uint work_dim, const std::array<size_t, 3>& global, size_t max_group,
                                        const std::array<size_t, 3>& max_item_sizes, cl_uint compute_units);

}  // namespace cucl

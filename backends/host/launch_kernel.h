// Runs one NDRange of a host kernel: work-groups in parallel on oneTBB (inside the
// device's arena), each one as a loop over its work-items or, with barriers, as fibers.
#pragma once

#include <CL/cl.h>

#include "backends/host/fiber_group.h"
#include "backends/operations.h"

namespace cucl::backend::host {

cl_int launch_kernel(const op::LaunchKernel& launch, FiberGroups& fibers);

}  // namespace cucl::backend::host

// What enqueueing one operation on a CUDA stream left behind (cuda_execute.h, cuda_launch.h).
#pragma once

#include <CL/cl.h>

#include "backends/cuda/cuda_transfer.h"

namespace cucl::backend::cuda {

struct Enqueued {
  cl_int status = CL_SUCCESS;          // negative: the operation cannot run on this device
  Pending pending = Pending::Nothing;  // StreamWork: done once the stream reaches this point
};

}  // namespace cucl::backend::cuda

// Moving the pages of shared virtual memory (managed memory) ahead of their use: SVM map
// and clEnqueueSVMMigrateMem towards the host, SVM unmap and migrations towards the GPU.
#pragma once

#include <cuda.h>

#include "backends/cuda/cuda_context.h"
#include "backends/operations.h"

namespace cucl::backend::cuda {

// Enqueues on `stream` a prefetch of each of `migrate`'s shared ranges that is managed
// memory, to the host or to the context's GPU. False when it enqueued nothing (no such
// range, or a driver without cuMemPrefetchAsync's CUmemLocation form): the memory is
// reached where it is, so nothing is lost but speed.
bool prefetch_shared(CudaContext& context, CUstream stream, const op::Migrate& migrate);

}  // namespace cucl::backend::cuda

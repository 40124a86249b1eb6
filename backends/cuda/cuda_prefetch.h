// Moving shared virtual memory ahead of its use: SVM map and clEnqueueSVMMigrateMem towards
// the host, SVM unmap and migrations towards the GPU. Managed memory moves its pages (only a
// matter of speed: both sides reach them); a dual view (cuda_svm_view.h) copies between its
// device memory and its host copy for maps and unmaps, which its host threads need.
#pragma once

#include <cuda.h>

#include "backends/cuda/cuda_context.h"
#include "backends/operations.h"

namespace cucl::backend::cuda {

class CudaMemory;

// Enqueues on `stream` what each of `migrate`'s shared ranges needs: a prefetch of managed
// memory to the host or to the context's GPU, a copy for a dual view's map or unmap. False
// when it enqueued nothing (no such range, or a driver without cuMemPrefetchAsync's
// CUmemLocation form, where managed memory is reached where it is and only speed is lost).
bool prefetch_shared(CudaContext& context, CUstream stream, const op::Migrate& migrate);

// The bytes that prefetch_shared moves over the bus for `migrate` (how long a waiter watches
// for its end: cuda_completion.cpp).
size_t shared_bytes_moved(const CudaDriver& driver, const op::Migrate& migrate);

// The copy of a dual view's map (device copy to host copy, `to_host`) or unmap (back): `bytes`
// at byte `offset` of `memory`.
void copy_view(CudaContext& context, CUstream stream, const CudaMemory& memory, size_t offset, size_t bytes,
               bool to_host);

}  // namespace cucl::backend::cuda

// Puts one operation on a CUDA stream.
#pragma once

#include "backends/backend.h"
#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_device_clock.h"
#include "backends/cuda/cuda_enqueued.h"
#include "backends/cuda/cuda_transfer.h"

namespace cucl::backend::cuda {

// Enqueues `operation` (anything but a HostFunction) on `stream`; the context is current.
// Throws CudaError when the driver refuses.
Enqueued enqueue_operation(CudaContext& context, CUstream stream, const Operation& operation);

// Enqueues the work's operation after the points of other streams it must follow
// (cuda_stream_point.h), between two timing events when it wants times (which then stay in
// `timing`, also when this throws). The context is current; throws CudaError.
Enqueued enqueue_work(CudaContext& context, CUstream stream, const Work& work, DeviceClock& clock,
                      TimingEvents& timing);
// The same with `operation` in place of the work's own (a read landing elsewhere first).
Enqueued enqueue_work(CudaContext& context, CUstream stream, const Work& work, const Operation& operation,
                      DeviceClock& clock, TimingEvents& timing);

// Whether enqueue_operation would make the calling thread wait for the stream's earlier
// work (copies it does on the host, reads into pageable memory, staged transfers).
bool waits_for_stream(CudaContext& context, const Operation& operation);

// Whether enqueue_operation reads or writes application memory on the host as it is enqueued
// (the driver stages a small pageable write's source at once, copies between two host ends
// run here): anything with a host end but maps and unmaps, whose regions are page-locked.
bool touches_host_memory(const Operation& operation);

// The rectangular copies (clEnqueue*BufferRect).
Pending enqueue_copy_rect(CudaContext& context, CUstream stream, const op::CopyRect& rect);

}  // namespace cucl::backend::cuda

// A command buffer's list replayed as one CUDA graph launch. The graph is captured from the
// stream operations the list would enqueue one by one (cuda_graph_capture.h) and
// instantiated once per context. When an update (mutable dispatch) made a new version of the
// list, the kernel launches it replaced are written into their nodes of the instantiation
// (cuGraphExecKernelNodeSetParams); where that cannot be done, the list is captured again and
// applied with cuGraphExecUpdate, which keeps the instantiation while the graph's shape stays.
// Each replay is then one cuGraphLaunch on the queue's stream.
#pragma once

#include <optional>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_enqueued.h"
#include "backends/cuda/cuda_graph_capture.h"
#include "backends/operations.h"

namespace cucl::backend::cuda {

// The list launched as one graph on `stream`; nothing where the driver does not capture or
// instantiate it (the caller then enqueues the operations one by one; a list refused once
// is not tried again). The caller knows every operation is device work a graph can hold.
std::optional<Enqueued> launch_as_graph(CudaContext& context, CUstream stream, const op::RecordedOperations& list,
                                        EnqueueOperation enqueue_operation);

}  // namespace cucl::backend::cuda

// A command buffer's list replayed as one CUDA graph launch. The graph is captured from the
// stream operations the list would enqueue one by one, instantiated once per context, and
// brought up to date with cuGraphExecUpdate when an update (mutable dispatch) made a new
// version of the list, which keeps the instantiation while the graph's shape stays; each
// replay is then one cuGraphLaunch on the queue's stream.
#pragma once

#include <functional>
#include <optional>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_enqueued.h"
#include "backends/operations.h"

namespace cucl::backend::cuda {

// Enqueues the list's operations, one by one, on the stream given.
using EnqueueList = std::function<Enqueued(CUstream)>;

// The list launched as one graph on `stream`; nothing where the driver does not capture or
// instantiate it (the caller then enqueues the operations one by one; a list refused once
// is not tried again). The caller knows every operation is device work a graph can hold.
std::optional<Enqueued> launch_as_graph(CudaContext& context, CUstream stream, const op::RecordedOperations& list,
                                        const EnqueueList& enqueue_list);

}  // namespace cucl::backend::cuda

// A command buffer's list captured into a CUDA graph from the stream operations it would
// enqueue one by one, with the kernel nodes each of its kernel launches became: a later
// version of the list that differs only in kernel launches can be written into those nodes
// (cuGraphExecKernelNodeSetParams) without a new capture.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_enqueued.h"
#include "backends/operations.h"
#include "base/function_ref.h"

namespace cucl::backend::cuda {

// The kernel nodes of each operation of a captured list, in launch order.
class KernelNodes {
 public:
  // The next operation; a kernel launch's nodes follow with add_node.
  void add_operation(bool kernel_launch);
  void add_node(CUgraphNode node);  // of the last operation added

  size_t operations() const { return ends_.size(); }
  bool is_kernel_launch(size_t operation) const { return kernel_launch_[operation]; }
  std::span<const CUgraphNode> of(size_t operation) const;
  // The same operations, with kernel launches at the same places, each with as many nodes.
  bool same_shape(const KernelNodes& other) const;

 private:
  std::vector<CUgraphNode> nodes_;
  std::vector<uint32_t> ends_;  // per operation: one past its last node in nodes_
  std::vector<bool> kernel_launch_;
};

struct GraphDestroyer {
  const CudaDriver* driver;
  void operator()(CUgraph graph) const { driver->cuGraphDestroy(graph); }
};
using UniqueGraph = std::unique_ptr<CUgraph_st, GraphDestroyer>;

struct CapturedList {
  UniqueGraph graph;  // null: the driver refused the capture, or an operation failed
  // Nothing where the driver cannot tell the nodes a launch added (older than CUDA 12.3).
  std::optional<KernelNodes> kernel_nodes;
};

// Enqueues one operation on a stream (cuda_execute.h's enqueue_operation; kernel launches
// are captured here, to learn their nodes).
using EnqueueOperation = FunctionRef<Enqueued(CUstream, const Operation&)>;

// What `list`'s operations put on a stream, captured on `capture_stream` (idle, of the
// current context). The capture is local to this thread, so other threads keep using the
// driver meanwhile. The caller knows every operation is device work a graph can hold.
CapturedList capture_list(CudaContext& context, CUstream capture_stream, const op::RecordedOperations& list,
                          EnqueueOperation enqueue_operation);

}  // namespace cucl::backend::cuda

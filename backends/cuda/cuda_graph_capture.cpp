#include "backends/cuda/cuda_graph_capture.h"

#include <algorithm>
#include <variant>

#include "backends/cuda/cuda_launch.h"

namespace cucl::backend::cuda {
namespace {

// The node the capture on `stream` added last: what its next node would depend on, which
// in a capture of one stream is that one node. Null when the driver does not say.
CUgraphNode last_captured_node(const CudaDriver& driver, CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  const CUgraphNode* dependencies = nullptr;
  const CUgraphEdgeData* edges = nullptr;  // asked for: without it, edges with data fail the query
  size_t count = 0;
  if (driver.cuStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &dependencies, &edges, &count) !=
          CUDA_SUCCESS ||
      status != CU_STREAM_CAPTURE_STATUS_ACTIVE || count != 1) {
    return nullptr;
  }
  return dependencies[0];
}

// Enqueues `operation` into the capture on `stream`; a kernel launch's nodes go into `nodes`,
// which is emptied when the driver does not tell them.
cl_int enqueue_captured(CudaContext& context, CUstream stream, const Operation& operation,
                        EnqueueOperation enqueue_operation, std::optional<KernelNodes>& nodes) {
  const auto* launch = std::get_if<op::LaunchKernel>(&operation);
  if (nodes) nodes->add_operation(launch != nullptr);
  if (!launch) return enqueue_operation(stream, operation).status;
  const CudaDriver& driver = context.driver();
  return for_each_kernel_launch(context, *launch, [&](const GridLaunch& grid) {
    const CUresult result = launch_grid(driver, grid, stream);
    if (result == CUDA_SUCCESS && nodes) {
      if (CUgraphNode node = last_captured_node(driver, stream)) {
        nodes->add_node(node);
      } else {
        nodes.reset();
      }
    }
    return result;
  });
}

}  // namespace

void KernelNodes::add_operation(bool kernel_launch) {
  ends_.push_back(static_cast<uint32_t>(nodes_.size()));
  kernel_launch_.push_back(kernel_launch);
}

void KernelNodes::add_node(CUgraphNode node) {
  nodes_.push_back(node);
  ends_.back() = static_cast<uint32_t>(nodes_.size());
}

std::span<const CUgraphNode> KernelNodes::of(size_t operation) const {
  const uint32_t begin = operation == 0 ? 0 : ends_[operation - 1];
  return std::span<const CUgraphNode>(nodes_).subspan(begin, ends_[operation] - begin);
}

bool KernelNodes::same_shape(const KernelNodes& other) const {
  return ends_ == other.ends_ && kernel_launch_ == other.kernel_launch_;
}

CapturedList capture_list(CudaContext& context, CUstream capture_stream, const op::RecordedOperations& list,
                          EnqueueOperation enqueue_operation) {
  const CudaDriver& driver = context.driver();
  CapturedList captured;
  if (driver.cuStreamBeginCapture(capture_stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) != CUDA_SUCCESS) {
    return captured;
  }
  if (driver.cuStreamGetCaptureInfo) captured.kernel_nodes.emplace();
  cl_int status = CL_SUCCESS;
  try {
    for (const Operation& operation : list.operations) {
      status = enqueue_captured(context, capture_stream, operation, enqueue_operation, captured.kernel_nodes);
      if (status < 0) break;
    }
  } catch (const CudaError&) {
    status = CL_OUT_OF_RESOURCES;  // the capture is ended below and its graph thrown away
  }
  CUgraph graph = nullptr;
  const CUresult ended = driver.cuStreamEndCapture(capture_stream, &graph);
  captured.graph = UniqueGraph(graph, GraphDestroyer{&driver});
  if (ended != CUDA_SUCCESS || status < 0) captured.graph.reset();
  return captured;
}

}  // namespace cucl::backend::cuda

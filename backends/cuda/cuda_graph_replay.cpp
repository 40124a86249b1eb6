#include "backends/cuda/cuda_graph_replay.h"

#include <algorithm>
#include <mutex>
#include <variant>
#include <vector>

#include "backends/cuda/cuda_launch.h"
#include "base/settings.h"

namespace cucl::backend::cuda {
namespace {

CUDA_KERNEL_NODE_PARAMS kernel_node_params(const GridLaunch& launch) {
  CUDA_KERNEL_NODE_PARAMS params{};
  params.func = launch.function;
  params.gridDimX = launch.grid[0];
  params.gridDimY = launch.grid[1];
  params.gridDimZ = launch.grid[2];
  params.blockDimX = launch.block[0];
  params.blockDimY = launch.block[1];
  params.blockDimZ = launch.block[2];
  params.sharedMemBytes = launch.shared_bytes;
  params.kernelParams = launch.parameters;  // copied by the driver during the call
  return params;
}

// The executable graph of one command buffer on one context, and the list version it holds.
class GraphReplay : public op::ReplayState {
 public:
  // `allowed`: CUCL_CUDA_GRAPHS, read once per buffer and context (its first replay there).
  GraphReplay(CudaContext& context, bool allowed) : context_(context), refused_(!allowed) {}
  GraphReplay(const GraphReplay&) = delete;
  GraphReplay& operator=(const GraphReplay&) = delete;
  ~GraphReplay() override {
    try {
      context_.make_current();
    } catch (const CudaError&) {
      return;  // the context is gone, and its graphs and streams with it
    }
    const CudaDriver& driver = context_.driver();
    if (exec_) driver.cuGraphExecDestroy(exec_);  // a launch in flight still ends
    if (capture_stream_) driver.cuStreamDestroy(capture_stream_);
  }

  std::optional<Enqueued> launch(CUstream stream, const op::RecordedOperations& list,
                                 EnqueueOperation enqueue_operation) {
    std::lock_guard lock(mutex_);
    if (refused_) return std::nullopt;
    if (!exec_ || version_ != list.version) {
      if (!set_replaced_kernels(list) && !bring_up_to_date(list, enqueue_operation)) {
        refused_ = true;
        return std::nullopt;
      }
      version_ = list.version;
      replaced_in_ = list.replaced_in;
    }
    // Launches already made keep the graph they had: an update changes later ones only.
    context_.check(context_.driver().cuGraphLaunch(exec_, stream), "cuGraphLaunch");
    return Enqueued{CL_SUCCESS, Pending::StreamWork};
  }

 private:
  // Whether every operation that differs between `list` and the version exec_ holds is a
  // kernel launch in both, whose nodes graph_ names.
  bool only_kernel_launches_replaced(const op::RecordedOperations& list) const {
    if (!exec_ || !graph_.kernel_nodes) return false;
    const size_t count = list.operations.size();
    if (graph_.kernel_nodes->operations() != count || list.replaced_in.size() != count ||
        replaced_in_.size() != count) {
      return false;
    }
    for (size_t i = 0; i < count; ++i) {
      if (replaced(list, i) &&
          (!std::holds_alternative<op::LaunchKernel>(list.operations[i]) || !graph_.kernel_nodes->is_kernel_launch(i))) {
        return false;
      }
    }
    return true;
  }
  // Whether operation i differs between `list` and the version exec_ holds. Versions are made
  // one from the other: what differs is what the newer one replaced since the older.
  bool replaced(const op::RecordedOperations& list, size_t i) const {
    const std::vector<uint64_t>& replaced_in = list.version > version_ ? list.replaced_in : replaced_in_;
    return replaced_in[i] > std::min(list.version, version_);
  }

  // Writes the kernel launches that differ between `list` and the version exec_ holds into
  // their nodes; false (some perhaps written: a new capture then sets them all) unless those
  // are all that differs and each makes as many CUDA launches as it has nodes (an uneven
  // range makes one per edge).
  bool set_replaced_kernels(const op::RecordedOperations& list) {
    if (!only_kernel_launches_replaced(list)) return false;
    const CudaDriver& driver = context_.driver();
    for (size_t i = 0; i < list.operations.size(); ++i) {
      if (!replaced(list, i)) continue;
      const std::span<const CUgraphNode> kernel_nodes = graph_.kernel_nodes->of(i);
      size_t next = 0;
      const cl_int status =
          for_each_kernel_launch(context_, std::get<op::LaunchKernel>(list.operations[i]), [&](const GridLaunch& grid) {
            if (next == kernel_nodes.size()) return CUDA_ERROR_INVALID_VALUE;  // more launches than nodes
            const CUDA_KERNEL_NODE_PARAMS params = kernel_node_params(grid);
            return driver.cuGraphExecKernelNodeSetParams(exec_, kernel_nodes[next++], &params);
          });
      if (status != CL_SUCCESS || next != kernel_nodes.size()) return false;
    }
    return true;
  }

  // Captures `list` and applies it to exec_, or instantiates it where exec_ cannot take it.
  bool bring_up_to_date(const op::RecordedOperations& list, EnqueueOperation enqueue_operation) {
    const CudaDriver& driver = context_.driver();
    if (!capture_stream_ && driver.cuStreamCreate(&capture_stream_, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
      capture_stream_ = nullptr;
      return false;
    }
    CapturedList captured = capture_list(context_, capture_stream_, list, enqueue_operation);
    if (!captured.graph) return false;
    // exec_'s nodes stay named by those of graph_, the graph it was instantiated from. The
    // update pairs the nodes of two chains (a capture of one stream) in order, so graph_'s
    // kernel nodes still name each launch's where only kernel launches were replaced and
    // each made as many nodes as before.
    const bool nodes_kept = !captured.kernel_nodes ||
                            (only_kernel_launches_replaced(list) &&
                             graph_.kernel_nodes->same_shape(*captured.kernel_nodes));
    if (exec_ && nodes_kept) {
      CUgraphExecUpdateResultInfo result{};
      if (driver.cuGraphExecUpdate(exec_, captured.graph.get(), &result) == CUDA_SUCCESS) return true;
    }
    if (exec_) {
      driver.cuGraphExecDestroy(exec_);  // another shape: instantiated anew
      exec_ = nullptr;
    }
    if (driver.cuGraphInstantiateWithFlags(&exec_, captured.graph.get(), 0) != CUDA_SUCCESS) {
      exec_ = nullptr;
      return false;
    }
    graph_ = std::move(captured);
    return true;
  }

  CudaContext& context_;
  std::mutex mutex_;
  CUstream capture_stream_ = nullptr;
  CapturedList graph_;  // what exec_ was instantiated from: its nodes name exec_'s
  CUgraphExec exec_ = nullptr;
  uint64_t version_ = 0;
  std::vector<uint64_t> replaced_in_;  // of that version
  bool refused_ = false;
};

}  // namespace

std::optional<Enqueued> launch_as_graph(CudaContext& context, CUstream stream, const op::RecordedOperations& list,
                                        EnqueueOperation enqueue_operation) {
  if (list.operations.empty()) return std::nullopt;
  auto replay = list.replay_states->get<GraphReplay>(&context, [&] {
    return std::make_shared<GraphReplay>(context, settings::enabled(settings::Name::CUCL_CUDA_GRAPHS));
  });
  return replay->launch(stream, list, enqueue_operation);
}

}  // namespace cucl::backend::cuda

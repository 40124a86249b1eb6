#include "backends/cuda/cuda_graph_replay.h"

#include <mutex>

namespace cucl::backend::cuda {
namespace {

// The executable graph of one command buffer on one context, and the list version it holds.
class GraphReplay : public op::ReplayState {
 public:
  explicit GraphReplay(CudaContext& context) : context_(context) {}
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
                                 const EnqueueList& enqueue_list) {
    std::lock_guard lock(mutex_);
    if (refused_) return std::nullopt;
    if ((!exec_ || version_ != list.version) && !bring_up_to_date(list, enqueue_list)) {
      refused_ = true;
      return std::nullopt;
    }
    // Launches already made keep the graph they had: an update changes later ones only.
    context_.check(context_.driver().cuGraphLaunch(exec_, stream), "cuGraphLaunch");
    return Enqueued{CL_SUCCESS, Pending::StreamWork};
  }

 private:
  // The graph of what enqueue_list puts on a stream, or null. The capture is local to this
  // thread, so other threads keep using the driver as they please meanwhile.
  CUgraph capture(const EnqueueList& enqueue_list) {
    const CudaDriver& driver = context_.driver();
    if (!capture_stream_ && driver.cuStreamCreate(&capture_stream_, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
      capture_stream_ = nullptr;
      return nullptr;
    }
    if (driver.cuStreamBeginCapture(capture_stream_, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) != CUDA_SUCCESS) {
      return nullptr;
    }
    Enqueued enqueued{CL_INVALID_OPERATION, Pending::Nothing};
    try {
      enqueued = enqueue_list(capture_stream_);
    } catch (const CudaError&) {
      // The capture is ended below and its graph thrown away.
    }
    CUgraph graph = nullptr;
    const CUresult ended = driver.cuStreamEndCapture(capture_stream_, &graph);
    if (ended != CUDA_SUCCESS || enqueued.status < 0) {
      if (graph) driver.cuGraphDestroy(graph);
      return nullptr;
    }
    return graph;
  }

  bool bring_up_to_date(const op::RecordedOperations& list, const EnqueueList& enqueue_list) {
    CUgraph graph = capture(enqueue_list);
    if (!graph) return false;
    const CudaDriver& driver = context_.driver();
    if (exec_) {
      CUgraphExecUpdateResultInfo result{};
      if (driver.cuGraphExecUpdate(exec_, graph, &result) != CUDA_SUCCESS) {
        driver.cuGraphExecDestroy(exec_);  // another shape: instantiated anew below
        exec_ = nullptr;
      }
    }
    if (!exec_ && driver.cuGraphInstantiateWithFlags(&exec_, graph, 0) != CUDA_SUCCESS) exec_ = nullptr;
    driver.cuGraphDestroy(graph);
    if (!exec_) return false;
    version_ = list.version;
    return true;
  }

  CudaContext& context_;
  std::mutex mutex_;
  CUstream capture_stream_ = nullptr;
  CUgraphExec exec_ = nullptr;
  uint64_t version_ = 0;
  bool refused_ = false;
};

}  // namespace

std::optional<Enqueued> launch_as_graph(CudaContext& context, CUstream stream, const op::RecordedOperations& list,
                                        const EnqueueList& enqueue_list) {
  if (list.operations.empty()) return std::nullopt;
  auto replay = list.replay_states->get<GraphReplay>(&context, [&] { return std::make_shared<GraphReplay>(context); });
  return replay->launch(stream, list, enqueue_list);
}

}  // namespace cucl::backend::cuda

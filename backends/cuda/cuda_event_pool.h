// Reusable CUDA events of one kind (their creation flags) in one context: creating an
// event costs far more than recording one again.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_context.h"

namespace cucl::backend::cuda {

class EventPool {
 public:
  EventPool(std::shared_ptr<CudaContext> context, unsigned flags) : context_(std::move(context)), flags_(flags) {}
  ~EventPool();
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;

  // An event to record; the context is current. Throws CudaError.
  CUevent take();
  // An event recorded on `stream` now (the context is current); null when the driver
  // refuses (a lost context is noted).
  CUevent record(CUstream stream);
  void give_back(CUevent event);

 private:
  std::shared_ptr<CudaContext> context_;
  unsigned flags_;
  std::mutex mutex_;
  std::vector<CUevent> free_;
};

}  // namespace cucl::backend::cuda

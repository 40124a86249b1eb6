// A small page-locked buffer of one stream, through which a blocking read into application
// memory lands (CudaStream::read_for_its_waiter). The driver's own read into pageable memory
// waits on the calling thread for the stream's earlier work, spinning through a long kernel as
// the context's scheduling says; a read into page-locked memory is enqueued behind that work at
// once, and the caller then waits the way cucl's waiters do.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>

#include "backends/cuda/cuda_context.h"

namespace cucl::backend::cuda {

class ReadBounce {
 public:
  // Larger reads gain little: the transfer outlasts the hand-offs this saves.
  static constexpr size_t kCapacity = 256u << 10;

  explicit ReadBounce(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {}
  ~ReadBounce();  // the context need not be current
  ReadBounce(const ReadBounce&) = delete;
  ReadBounce& operator=(const ReadBounce&) = delete;

  // The buffer for one read at a time: empty while another read has it, or when no
  // page-locked memory can be had. The context is current.
  class Lease {
   public:
    Lease() = default;
    Lease(std::unique_lock<std::mutex> lock, void* memory) : lock_(std::move(lock)), memory_(memory) {}
    explicit operator bool() const { return memory_ != nullptr; }
    void* memory() const { return memory_; }

   private:
    std::unique_lock<std::mutex> lock_;
    void* memory_ = nullptr;
  };
  Lease acquire();

 private:
  std::shared_ptr<CudaContext> context_;
  std::mutex mutex_;
  void* memory_ = nullptr;  // made at the first read
  bool refused_ = false;    // the driver had no page-locked memory for it
};

}  // namespace cucl::backend::cuda

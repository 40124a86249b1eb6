// Page-locked staging for transfers between pageable host memory and the GPU. A DMA
// engine reads or writes only page-locked memory, so pageable data goes through a few
// page-locked chunks: the host copies one chunk while the DMA of another is in flight.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_driver.h"

namespace cucl::backend::cuda {

class CudaContext;

struct StagingSet {
  static constexpr size_t kChunks = 4;
  static constexpr size_t kChunkSize = 8u << 20;
  std::array<void*, kChunks> chunks{};
  std::array<CUevent, kChunks> done{};  // recorded after each chunk's DMA
};

// The device's staging sets, handed to one transfer at a time and kept for the next.
class StagingPool {
 public:
  explicit StagingPool(CudaContext& context) : context_(context) {}
  ~StagingPool();  // the context must be current
  StagingPool(const StagingPool&) = delete;
  StagingPool& operator=(const StagingPool&) = delete;

  // A set for one transfer; empty when no page-locked memory can be had.
  class Lease {
   public:
    Lease(StagingPool* pool, std::unique_ptr<StagingSet> set) : pool_(pool), set_(std::move(set)) {}
    Lease(Lease&&) = default;
    ~Lease();  // waits for the set's DMAs before the next transfer may use it
    explicit operator bool() const { return set_ != nullptr; }
    StagingSet* operator->() const { return set_.get(); }

   private:
    StagingPool* pool_;
    std::unique_ptr<StagingSet> set_;
  };
  Lease acquire();

 private:
  std::unique_ptr<StagingSet> create();
  void destroy(StagingSet& set);

  CudaContext& context_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<StagingSet>> free_;
};

// Pageable host memory to device memory and back through staging, on `stream`, after
// the stream's earlier work. Both return once the data has arrived.
void staged_host_to_device(CudaContext& context, CUstream stream, CUdeviceptr dst, const void* src, size_t size);
void staged_device_to_host(CudaContext& context, CUstream stream, void* dst, CUdeviceptr src, size_t size);

}  // namespace cucl::backend::cuda

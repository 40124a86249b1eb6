// The page-locked chunks that staged transfers (cuda_staging.h) copy pageable data
// through, kept per context for the next transfer.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_driver.h"

namespace cucl::backend::cuda {

struct StagingSet {
  static constexpr size_t kChunks = 4;
  static constexpr size_t kChunkSize = 8u << 20;
  std::array<void*, kChunks> chunks{};
  std::array<CUevent, kChunks> done{};  // recorded after each chunk's DMA
};

// The device's staging sets, handed to one transfer at a time and kept for the next.
class StagingPool {
 public:
  explicit StagingPool(const CudaDriver& driver) : driver_(driver) {}
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

  const CudaDriver& driver_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<StagingSet>> free_;
};

}  // namespace cucl::backend::cuda

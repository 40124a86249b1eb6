// One CUDA device as the backend uses it: the driver, the device's primary context
// (retained on first use), and what the device's memories and streams share: page-locked
// staging buffers, the fill kernels, and the registry of application memory.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/cuda_device_allocations.h"
#include "backends/cuda/cuda_driver.h"
#include "backends/cuda/cuda_finishing_threads.h"
#include "backends/cuda/cuda_host_registry.h"
#include "backends/cuda/cuda_managed_budget.h"
#include "backends/cuda/cuda_svm_views.h"

namespace cucl::backend::cuda {

class StagingPool;
class FillKernels;

// The texture unit's limits on pitched linear memory, in bytes and pixels (0 where the
// driver does not say).
struct PitchedTextureLimits {
  size_t address_alignment = 0, pitch_alignment = 0;
  size_t max_width = 0, max_height = 0, max_pitch = 0;
};

class CudaContext {
 public:
  // `registry` and `finishing_threads` are shared by every CUDA device of the platform.
  CudaContext(std::shared_ptr<const CudaDriver> driver, CUdevice device, std::shared_ptr<HostRegistry> registry,
              std::shared_ptr<FinishingThreads> finishing_threads);
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  const CudaDriver& driver() const { return *driver_; }
  CUdevice device() const { return device_; }
  // The largest row pitch the driver's 2D and 3D copies take.
  size_t max_pitch() const { return max_pitch_; }
  // Read once: every image asks (cuda_image_sampling.cpp).
  const PitchedTextureLimits& pitched_texture_limits() const { return texture_limits_; }
  // Makes the primary context current on the calling thread (retaining it the first
  // time). Every thread calls this before it calls the driver. Throws CudaError.
  void make_current();
  // Throws CudaError unless `result` is CUDA_SUCCESS (noting a loss, see note_result).
  void check(CUresult result, const char* call) const {
    if (result != CUDA_SUCCESS) {
      note_result(result);
      check_cuda(*driver_, result, call);
    }
  }
  // Remembers the first result that leaves the context unusable (is_context_lost_error);
  // true when `result` is one.
  bool note_result(CUresult result) const;
  // A kernel faulted: nothing more can run here (work fails at once, without the driver).
  bool lost() const { return lost_.load(std::memory_order_acquire) != CUDA_SUCCESS; }
  // For the application's notify callback; empty while not lost.
  std::string loss_message() const;

  // The primary context (retained by make_current()).
  CUcontext handle() const { return context_; }
  // Whether this context's work can read and write `peer`'s memory directly (over NVLink or
  // PCIe, without host memory): true once cuCtxEnablePeerAccess has succeeded, tried on the
  // first call for each peer where the driver reports peer access. Throws CudaError.
  bool reaches(CudaContext& peer);

  HostRegistry& host_registry() { return *registry_; }
  // Device memory for buffers, released allocations kept for reuse (cuda_device_allocations.h).
  DeviceAllocations& device_allocations() { return device_allocations_; }
  // What the card has free (cuMemGetInfo) once released buffers have let go of their memory
  // and the kept allocations have gone back to it.
  CUresult free_memory(size_t* free, size_t* total);
  // The completion threads of every CUDA device's streams (see cuda_finishing_threads.h).
  FinishingThreads& finishing_threads() { return *finishing_threads_; }
  // The managed memory (SVM) this device may still be asked for.
  ManagedBudget& managed_budget() { return managed_budget_; }
  // The coarse-grain SVM allocations made as dual views (cuda_svm_view.h).
  SvmDualViews& svm_views() { return svm_views_; }
  StagingPool& staging() { return *staging_; }
  // The fill kernels, loaded on first use (the context must be current).
  FillKernels& fill_kernels();

 private:
  void retain();

  std::shared_ptr<const CudaDriver> driver_;
  CUdevice device_;
  size_t max_pitch_ = 0;
  PitchedTextureLimits texture_limits_;
  std::shared_ptr<HostRegistry> registry_;
  std::shared_ptr<FinishingThreads> finishing_threads_;
  DeviceAllocations device_allocations_;
  ManagedBudget managed_budget_;
  SvmDualViews svm_views_;
  std::once_flag retained_;
  std::atomic<bool> retained_now_{false};  // set once retained_'s call has succeeded
  CUcontext context_ = nullptr;
  std::unique_ptr<StagingPool> staging_;
  std::mutex kernels_mutex_;
  std::unique_ptr<FillKernels> fill_kernels_;
  mutable std::atomic<CUresult> lost_{CUDA_SUCCESS};
  std::mutex peers_mutex_;
  std::vector<std::pair<CUdevice, bool>> peers_;  // reaches(), as first answered
};

}  // namespace cucl::backend::cuda

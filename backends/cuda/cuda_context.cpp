#include "backends/cuda/cuda_context.h"

#include "backends/cuda/cuda_fill_kernels.h"
#include "backends/cuda/cuda_staging_pool.h"

namespace cucl::backend::cuda {
namespace {

size_t card_bytes(const CudaDriver& driver, CUdevice device) {
  size_t bytes = 0;
  return driver.cuDeviceTotalMem(&bytes, device) == CUDA_SUCCESS ? bytes : 0;
}

}  // namespace

CudaContext::CudaContext(std::shared_ptr<const CudaDriver> driver, CUdevice device,
                         std::shared_ptr<HostRegistry> registry, std::shared_ptr<FinishingThreads> finishing_threads)
    : driver_(std::move(driver)),
      device_(device),
      registry_(std::move(registry)),
      finishing_threads_(std::move(finishing_threads)),
      device_allocations_(*driver_, card_bytes(*driver_, device), [this] { finishing_threads_->settle_all(); }),
      staging_(std::make_unique<StagingPool>(*driver_)) {
  auto attribute = [&](CUdevice_attribute which) -> size_t {
    int value = 0;
    return driver_->cuDeviceGetAttribute(&value, which, device_) == CUDA_SUCCESS && value > 0 ? size_t(value) : 0;
  };
  max_pitch_ = attribute(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
  texture_limits_ = {attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT),
                     attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT),
                     attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
                     attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
                     attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH)};
}

CudaContext::~CudaContext() {
  if (!context_) return;
  if (driver_->cuCtxSetCurrent(context_) == CUDA_SUCCESS) {
    device_allocations_.free_kept();
    fill_kernels_.reset();
    staging_.reset();
  }
  driver_->cuDevicePrimaryCtxRelease(device_);
}

void CudaContext::retain() {
  // Looked at first: std::call_once costs four thread-local lookups and a pthread_once on every
  // call, and every submission makes the context current.
  if (retained_now_.load(std::memory_order_acquire)) return;
  // A failure leaves the flag unset, so a later call tries again.
  std::call_once(retained_, [this] {
    check(driver_->cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
    retained_now_.store(true, std::memory_order_release);
  });
}

void CudaContext::make_current() {
  retain();
  CUcontext current = nullptr;
  if (driver_->cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == context_) return;
  check(driver_->cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

bool CudaContext::note_result(CUresult result) const {
  if (!is_context_lost_error(result)) return false;
  CUresult none = CUDA_SUCCESS;
  lost_.compare_exchange_strong(none, result, std::memory_order_acq_rel);
  return true;
}

std::string CudaContext::loss_message() const {
  const CUresult result = lost_.load(std::memory_order_acquire);
  if (result == CUDA_SUCCESS) return {};
  return "cucl: CUDA device " + std::to_string(device_) + " can run no more work in this process: " +
         driver_->describe(result) +
         " (a kernel accessed memory out of bounds or trapped). Its commands end with CL_OUT_OF_RESOURCES "
         "and CL_DEVICE_AVAILABLE is now CL_FALSE; other devices keep working.";
}

bool CudaContext::reaches(CudaContext& peer) {
  std::lock_guard lock(peers_mutex_);
  for (const auto& [device, reached] : peers_) {
    if (device == peer.device_) return reached;
  }
  int can_access = 0;
  bool reached = false;
  if (peer.device_ != device_ &&
      driver_->cuDeviceCanAccessPeer(&can_access, device_, peer.device_) == CUDA_SUCCESS && can_access) {
    peer.make_current();  // retains the peer's primary context
    make_current();
    const CUresult result = driver_->cuCtxEnablePeerAccess(peer.context_, 0);
    reached = result == CUDA_SUCCESS || result == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    if (!reached) note_result(result);
  }
  peers_.emplace_back(peer.device_, reached);
  return reached;
}

CUresult CudaContext::free_memory(size_t* free, size_t* total) {
  finishing_threads_->settle_all();
  device_allocations_.free_kept();
  return driver_->cuMemGetInfo(free, total);
}

FillKernels& CudaContext::fill_kernels() {
  std::lock_guard lock(kernels_mutex_);
  if (!fill_kernels_) fill_kernels_ = std::make_unique<FillKernels>(*driver_);
  return *fill_kernels_;
}

}  // namespace cucl::backend::cuda

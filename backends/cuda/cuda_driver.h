// The CUDA driver API, loaded at run time. libcuda.so.1 is opened with dlopen and every
// entry point is looked up through cuGetProcAddress, so cucl has no link-time dependency
// on the NVIDIA driver. One CudaDriver is shared (shared_ptr) by every CUDA device.
#pragma once

#include <cuda.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace cucl::backend::cuda {

// Every driver entry point cucl calls. The member names are the cuda.h names, so a call
// reads `driver.cuMemAlloc(...)`; cuda.h's versioning macros (cuMemAlloc -> cuMemAlloc_v2)
// apply to the member declaration and its uses alike, and the member type is the one the
// header declares. The lookup uses the unversioned name, as cuGetProcAddress expects.
#define CUCL_CUDA_ENTRY_POINTS(X)                                                                         \
  X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGetCount) X(cuDeviceGet) \
  X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem) X(cuDeviceGetUuid)                       \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxGetCurrent) X(cuCtxSetCurrent)          \
  X(cuMemAlloc) X(cuMemFree) X(cuMemHostAlloc) X(cuMemFreeHost) X(cuMemHostRegister) X(cuMemHostUnregister) \
  X(cuMemHostGetDevicePointer) X(cuPointerGetAttribute) X(cuMemcpyAsync) X(cuMemcpyHtoDAsync)              \
  X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync) X(cuMemcpy2DAsync) X(cuMemcpy3DAsync) X(cuMemcpyHtoD)          \
  X(cuMemsetD8Async) X(cuMemsetD16Async) X(cuMemsetD32Async) X(cuStreamCreate) X(cuStreamDestroy)          \
  X(cuStreamSynchronize) X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize)         \
  X(cuEventQuery) X(cuEventElapsedTime) X(cuStreamQuery) X(cuStreamWaitEvent)                             \
  X(cuModuleLoadData) X(cuModuleLoadDataEx) X(cuModuleUnload) X(cuModuleGetFunction) X(cuFuncGetAttribute)  \
  X(cuFuncSetAttribute) X(cuOccupancyMaxPotentialBlockSize) X(cuOccupancyMaxActiveBlocksPerMultiprocessor) X(cuLaunchKernel) X(cuLaunchHostFunc)              \
  X(cuStreamBeginCapture) X(cuStreamEndCapture) X(cuGraphDestroy) X(cuGraphInstantiateWithFlags)              \
  X(cuGraphExecUpdate) X(cuGraphExecDestroy) X(cuGraphLaunch) X(cuDeviceCanAccessPeer) X(cuCtxEnablePeerAccess) \
  X(cuMemcpyPeerAsync) X(cuGraphExecKernelNodeSetParams) X(cuTexObjectCreate) X(cuTexObjectDestroy)     \
  X(cuArray3DCreate) X(cuArrayDestroy)                                                                   \
  X(cuMemAllocManaged) X(cuMemGetInfo) X(cuMemAddressReserve) X(cuMemAddressFree) X(cuMemCreate)            \
  X(cuMemRelease) X(cuMemMap) X(cuMemUnmap) X(cuMemSetAccess) X(cuMemGetAllocationGranularity)

// Entry points whose cuda.h signature dates from CUDA 12.3: looked up only from such a driver
// (an older one would hand out the older signature) and null before; what needs them is then
// off. cuStreamGetCaptureInfo: the kernel nodes of a command buffer's graph (updates without
// a new capture). cuMemPrefetchAsync (its CUmemLocation form, cuMemPrefetchAsync_v2, is from
// 12.2): moving SVM pages ahead of their use (only a matter of speed).
#define CUCL_CUDA_ENTRY_POINTS_SINCE_12_3(X) X(cuStreamGetCaptureInfo) X(cuMemPrefetchAsync)

struct CudaDriver {
#define CUCL_CUDA_MEMBER(name) decltype(&::name) name = nullptr;
  CUCL_CUDA_ENTRY_POINTS(CUCL_CUDA_MEMBER)
  CUCL_CUDA_ENTRY_POINTS_SINCE_12_3(CUCL_CUDA_MEMBER)
#undef CUCL_CUDA_MEMBER
  int version = 0;  // cuDriverGetVersion: 1000 * major + 10 * minor

  // "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"
  std::string describe(CUresult result) const;
};

// Loads the driver and runs cuInit(0). Null, with the reason in `why_not`, when there is
// no driver, it is too old, or cuInit fails (no GPU, driver/kernel module mismatch).
std::shared_ptr<const CudaDriver> load_cuda_driver(std::string& why_not);

// Errors after which the process's CUDA contexts stay unusable: a kernel faulted or
// trapped. On an H100 with driver 580 every later call failed the same way, cuCtxCreate and
// cuDevicePrimaryCtxReset + retain included (NVIDIA: the process must be restarted).
bool is_context_lost_error(CUresult result);

// A failed driver call. Work that meets one ends with a negative status.
class CudaError : public std::runtime_error {
 public:
  CudaError(CUresult result, const std::string& what) : std::runtime_error(what), result_(result) {}
  CUresult result() const { return result_; }

 private:
  CUresult result_;
};

// Throws CudaError unless `result` is CUDA_SUCCESS; `call` names what was tried.
inline void check_cuda(const CudaDriver& driver, CUresult result, const char* call) {
  if (result != CUDA_SUCCESS) throw CudaError(result, std::string(call) + ": " + driver.describe(result));
}

}  // namespace cucl::backend::cuda

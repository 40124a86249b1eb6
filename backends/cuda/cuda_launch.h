// clEnqueueNDRangeKernel on a CUDA stream: the kernel's parameters in the layout of
// kernel_abi.h, an NDRange as up to 8 CUDA launches (full and remainder work-groups of each
// dimension), and the printf buffer, whose records are printed once the kernel is done.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_enqueued.h"
#include "backends/operations.h"
#include "backends/printf_format.h"
#include "base/function_ref.h"

namespace cucl::backend::cuda {

// The printf buffers of one device, each used by one launch at a time and kept for the
// next: device memory the kernel appends records to, and page-locked host memory the
// records are copied back into. A slot goes back to the pool from a stream host function
// (cuLaunchHostFunc) once its records are printed.
class PrintfBuffers {
 public:
  struct Slot {
    PrintfBuffers* owner = nullptr;
    size_t capacity = 0;       // bytes of records, after the header
    CUdeviceptr device = 0;    // header + records
    char* host = nullptr;      // page-locked: header template, then the copy of `device`
    const std::vector<PrintfCallSite>* sites = nullptr;  // of the launch using the slot
    char* header_template() const { return host; }
    char* records_copy() const { return host + kCopyOffset; }
  };
  static constexpr size_t kCopyOffset = 64;

  explicit PrintfBuffers(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {}
  ~PrintfBuffers();  // frees every slot, also those of launches that never completed
  PrintfBuffers(const PrintfBuffers&) = delete;
  PrintfBuffers& operator=(const PrintfBuffers&) = delete;

  // A free slot of `capacity`, made when there is none. The context is current; throws CudaError.
  Slot* acquire(size_t capacity);
  // Makes `slot` free again; calls no driver function (host functions may not).
  void release(Slot* slot);

 private:
  void free_memory(const Slot& slot);  // the context is current

  std::shared_ptr<CudaContext> context_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Slot>> slots_;  // every slot, in use or not
  std::vector<Slot*> free_;
};

// Enqueues `launch` on `stream` (the context is current). A negative status (nothing left
// running) when the kernel cannot run: CL_OUT_OF_RESOURCES (too much __local memory, a
// launch the driver refuses) or CL_INVALID_WORK_GROUP_SIZE (a block the kernel cannot run).
Enqueued enqueue_kernel_launch(CudaContext& context, CUstream stream, const op::LaunchKernel& launch);

// One cuLaunchKernel of an NDRange: its arguments, the stream aside. `parameters` and what
// it points at are valid only during the call the GridLaunch is handed to.
struct GridLaunch {
  CUfunction function;
  std::array<unsigned, 3> grid, block;
  unsigned shared_bytes;
  void** parameters;
};
using EachGridLaunch = FunctionRef<CUresult(const GridLaunch&)>;

inline CUresult launch_grid(const CudaDriver& driver, const GridLaunch& launch, CUstream stream) {
  return driver.cuLaunchKernel(launch.function, launch.grid[0], launch.grid[1], launch.grid[2], launch.block[0],
                               launch.block[1], launch.block[2], launch.shared_bytes, stream, launch.parameters,
                               nullptr);
}

// The CUDA launches enqueue_kernel_launch makes for `launch`, handed to `each` in order
// instead (a graph's kernel nodes are made and set from them); the kernel does not use
// printf. CL_SUCCESS; the status of a kernel that cannot run, before any call of `each`;
// or the status of the first failing `each` as a refused launch's.
cl_int for_each_kernel_launch(CudaContext& context, const op::LaunchKernel& launch, EachGridLaunch each);

}  // namespace cucl::backend::cuda

// A program's PTX loaded into the device's primary context (cuModuleLoadDataEx: the driver
// JIT-compiles it for the GPU) and its kernels as the launch (cuda_launch.h) uses them.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/kernel_code.h"
#include "backends/printf_format.h"

namespace cucl::backend::cuda {

class PrintfBuffers;

// One kernel of a loaded program.
class CudaKernelCode final : public KernelCode {
 public:
  // What the driver says about the compiled function (CU_FUNC_ATTRIBUTE_*).
  struct Attributes {
    int max_threads_per_block = 0;
    int static_shared_bytes = 0;
    int local_bytes = 0;               // per-thread local (private) memory
    int max_dynamic_shared_bytes = 0;  // what a launch may ask for without cuFuncSetAttribute
  };

  // `textured`: the kernel's entry for launches whose sampled images all have textures
  // (codegen/textured_variants.h), or null.
  CudaKernelCode(CudaContext& context, CUfunction function, CUfunction textured, Attributes attributes,
                 size_t max_shared_per_block,
                 bool uses_printf, std::shared_ptr<const std::vector<PrintfCallSite>> printf_sites,
                 std::shared_ptr<PrintfBuffers> printf_buffers);

  size_t max_work_group_size() const override { return static_cast<size_t>(attributes_.max_threads_per_block); }
  uint64_t static_local_memory() const override { return static_cast<uint64_t>(attributes_.static_shared_bytes); }
  uint64_t private_memory() const override { return static_cast<uint64_t>(attributes_.local_bytes); }
  // The block size of cuOccupancyMaxPotentialBlockSize (no dynamic shared memory), asked
  // for on first use; 0 when the driver does not answer.
  size_t preferred_work_group_size() const override;

  CUfunction function() const { return function_; }
  // The entry a launch takes: the textured one where it exists and the launch allows it.
  CUfunction function_for(bool sampled_images_in_hardware) const {
    return sampled_images_in_hardware && textured_function_ ? textured_function_ : function_;
  }
  bool uses_printf() const { return uses_printf_; }
  const std::vector<PrintfCallSite>& printf_sites() const { return *printf_sites_; }
  PrintfBuffers& printf_buffers() const { return *printf_buffers_; }
  // Static plus dynamic shared memory may not exceed this (the opt-in limit per block).
  size_t max_shared_per_block() const { return max_shared_per_block_; }

  // Lets launches ask for `bytes` of dynamic shared memory, raising the function's
  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES where needed (it only ever grows).
  // CL_OUT_OF_RESOURCES when the device has not that much. The context is current.
  cl_int allow_dynamic_shared(size_t bytes) const;

 private:
  // The block size a NULL local size aims at (preferred_work_group_size); 0 if unknown.
  size_t most_resident_block_size() const;

  CudaContext& context_;
  CUfunction function_;
  CUfunction textured_function_;
  Attributes attributes_;
  size_t max_shared_per_block_;
  bool uses_printf_;
  std::shared_ptr<const std::vector<PrintfCallSite>> printf_sites_;  // the program's table
  std::shared_ptr<PrintfBuffers> printf_buffers_;  // the device's; outlives every launch

  mutable std::once_flag occupancy_once_;
  mutable size_t preferred_block_size_ = 0;
  mutable std::mutex shared_mutex_;                     // serialises cuFuncSetAttribute
  mutable std::atomic<size_t> dynamic_shared_allowed_;  // read without the lock on each launch
};

// A loaded module and its kernels. The module is unloaded (with the context current) when
// the program goes.
class CudaLoadedProgram final : public LoadedProgram {
 public:
  using Kernels = std::vector<std::pair<std::string, std::unique_ptr<CudaKernelCode>>>;
  CudaLoadedProgram(std::shared_ptr<CudaContext> context, CUmodule module, Kernels kernels)
      : context_(std::move(context)), module_(module), kernels_(std::move(kernels)) {}
  ~CudaLoadedProgram() override;
  CudaLoadedProgram(const CudaLoadedProgram&) = delete;
  CudaLoadedProgram& operator=(const CudaLoadedProgram&) = delete;

  const KernelCode* kernel(std::string_view name) const override;


 private:
  std::shared_ptr<CudaContext> context_;
  CUmodule module_;
  Kernels kernels_;
};

// Decodes `native` (nvptx_program.h) and loads it. Null, with the reason in `error`, when
// it is not CUDA code for `code_target`, is damaged, or the driver's JIT refuses it
// ("ptxas/JIT: " and the JIT's error log).
std::unique_ptr<LoadedProgram> load_cuda_program(std::shared_ptr<CudaContext> context,
                                                 std::shared_ptr<PrintfBuffers> printf_buffers,
                                                 std::string_view native, std::string_view code_target,
                                                 std::string& error);

}  // namespace cucl::backend::cuda

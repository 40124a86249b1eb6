// An NVIDIA GPU through the CUDA driver API.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/device_selection.h"
#include "backends/cuda/codegen/nvptx_codegen.h"
#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_device_clock.h"

namespace cucl::backend::cuda {

class PrintfBuffers;

class CudaDevice final : public Device {
 public:
  CudaDevice(std::shared_ptr<CudaContext> context, NvptxTarget target, DeviceDescription description);
  const DeviceDescription& description() const override { return description_; }
  // False once a kernel has faulted (CudaContext::lost).
  bool available() const override { return !context_->lost(); }
  std::unique_ptr<Memory> allocate(size_t size, void* host_ptr, bool alloc_host_ptr) override;
  // Managed memory (CudaMemory::create_shared), which the host and the host device reach too.
  std::unique_ptr<Memory> allocate_shared(size_t size, size_t alignment, bool coarse_grain_alone) override;
  bool needs_own_shared_memory() const override { return true; }
  std::unique_ptr<Stream> create_stream() override;
  // Another CUDA device whose memory this one reaches and which reaches this one's
  // (CudaContext::reaches, both ways): the copy is cuMemcpyPeerAsync.
  bool copies_directly_from(Device& source) override;
  // The host's steady clock (see the .cpp).
  uint64_t device_timer_ns() const override;
  // Texture objects for the images and sampler states the hardware samples as OpenCL says
  // (cuda_image_sampling.h).
  std::unique_ptr<ImageSampling> sample_image(const SampledImage& image) override;
  // PTX for the device's target (codegen/nvptx_codegen.h), loaded by the driver's JIT.
  CodegenResult generate_code(std::string_view bitcode, const CodegenOptions& options) override;
  std::unique_ptr<LoadedProgram> load_program(std::string_view native, std::string& error) override;

 private:
  std::shared_ptr<CudaContext> context_;
  NvptxTarget target_;
  DeviceDescription description_;
  std::shared_ptr<PrintfBuffers> printf_buffers_;  // shared by the kernels of every program
  std::shared_ptr<DeviceClock> clock_;             // times the work of every stream
};

// The PTX target for `device`, from its compute capability.
NvptxTarget cuda_device_target(const CudaDriver& driver, CUdevice device);
// Describes device `device` from the driver's attributes; `target` is what its code is built for.
DeviceDescription describe_cuda_device(const CudaDriver& driver, CUdevice device, const NvptxTarget& target);

// The CUDA devices `selection` wants, in the driver's order; none (with the reason under
// CUCL_DEBUG) when there is no usable driver or GPU.
std::vector<std::unique_ptr<Device>> discover_cuda_devices(const DeviceSelection& selection);

}  // namespace cucl::backend::cuda

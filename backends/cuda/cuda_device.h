// An NVIDIA GPU through the CUDA driver API.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/cuda/cuda_context.h"

namespace cucl::backend::cuda {

class CudaDevice final : public Device {
 public:
  CudaDevice(std::shared_ptr<CudaContext> context, DeviceDescription description)
      : context_(std::move(context)), description_(std::move(description)) {}
  const DeviceDescription& description() const override { return description_; }
  std::unique_ptr<Memory> allocate(size_t size, void* host_ptr) override;
  std::unique_ptr<Stream> create_stream() override;
  // The host's steady clock (see the .cpp).
  uint64_t device_timer_ns() const override;
  // Kernels for this device come with the NVPTX code generator (not yet).
  CodegenResult generate_code(std::string_view bitcode, const CodegenOptions& options) override;
  std::unique_ptr<LoadedProgram> load_program(std::string_view native, std::string& error) override;

 private:
  std::shared_ptr<CudaContext> context_;
  DeviceDescription description_;
};

// Describes device `device` from the driver's attributes.
DeviceDescription describe_cuda_device(const CudaDriver& driver, CUdevice device);

// Every CUDA device, in the driver's order; none (with the reason under CUCL_DEBUG) when
// there is no usable driver or GPU.
std::vector<std::unique_ptr<Device>> discover_cuda_devices();

}  // namespace cucl::backend::cuda

#include "backends/cuda/cuda_device.h"

#include <chrono>

#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_stream.h"
#include "backends/cuda/debug_log.h"

namespace cucl::backend::cuda {

std::unique_ptr<Memory> CudaDevice::allocate(size_t size, void* host_ptr) {
  return CudaMemory::create(context_, size, host_ptr);
}

std::unique_ptr<Stream> CudaDevice::create_stream() { return std::make_unique<CudaStream>(context_); }

// Command timestamps are taken on the host when a command's state changes (platform/
// clock.h, std::chrono::steady_clock), so the device timer is that same clock: then
// clGetDeviceAndHostTimer, clGetHostTimer and profiling info are all one time base.
uint64_t CudaDevice::device_timer_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

CodegenResult CudaDevice::generate_code(std::string_view, const CodegenOptions&) {
  return {false, "cucl: CUDA code generation is not available yet; kernels cannot be built for " +
                     description_.name + "\n", {}};
}

std::unique_ptr<LoadedProgram> CudaDevice::load_program(std::string_view, std::string& error) {
  error = "CUDA code generation is not available yet";
  return nullptr;
}

std::vector<std::unique_ptr<Device>> discover_cuda_devices() {
  std::vector<std::unique_ptr<Device>> devices;
  std::string why_not;
  std::shared_ptr<const CudaDriver> driver = load_cuda_driver(why_not);
  if (!driver) {
    debug_log("no CUDA devices: " + why_not);
    return devices;
  }
  int count = 0;
  if (CUresult result = driver->cuDeviceGetCount(&count); result != CUDA_SUCCESS) {
    debug_log("no CUDA devices: cuDeviceGetCount failed: " + driver->describe(result));
    return devices;
  }
  if (count == 0) debug_log("no CUDA devices: the driver lists none");
  auto registry = std::make_shared<HostRegistry>(*driver);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    if (CUresult result = driver->cuDeviceGet(&device, ordinal); result != CUDA_SUCCESS) {
      debug_log("CUDA device " + std::to_string(ordinal) + " skipped: " + driver->describe(result));
      continue;
    }
    DeviceDescription description = describe_cuda_device(*driver, device);
    debug_log("CUDA device " + std::to_string(ordinal) + ": " + description.name);
    devices.push_back(std::make_unique<CudaDevice>(std::make_shared<CudaContext>(driver, device, registry),
                                                   std::move(description)));
  }
  return devices;
}

}  // namespace cucl::backend::cuda

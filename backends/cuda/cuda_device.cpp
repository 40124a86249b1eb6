#include "backends/cuda/cuda_device.h"

#include <chrono>

#include "backends/cuda/cuda_image_sampling.h"
#include "backends/cuda/cuda_launch.h"
#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_program.h"
#include "backends/cuda/cuda_stream.h"
#include "base/debug_log.h"
#include "base/clock.h"
#include "base/settings.h"

namespace cucl::backend::cuda {

CudaDevice::CudaDevice(std::shared_ptr<CudaContext> context, NvptxTarget target, DeviceDescription description)
    : context_(std::move(context)),
      target_(target),
      description_(std::move(description)),
      printf_buffers_(std::make_shared<PrintfBuffers>(context_)),
      clock_(std::make_shared<DeviceClock>(context_)) {}

std::unique_ptr<Memory> CudaDevice::allocate(size_t size, void* host_ptr, bool alloc_host_ptr) {
  if (context_->lost()) return nullptr;
  return CudaMemory::create(context_, size, host_ptr, alloc_host_ptr);
}

std::unique_ptr<Memory> CudaDevice::allocate_shared(size_t size, size_t alignment, bool coarse_grain_alone) {
  if (context_->lost() || !description_.svm_capabilities) return nullptr;
  if (coarse_grain_alone) return CudaMemory::create_coarse_shared(context_, size, alignment);
  return CudaMemory::create_shared(context_, size, alignment);
}

std::unique_ptr<Stream> CudaDevice::create_stream() { return std::make_unique<CudaStream>(context_, clock_); }

bool CudaDevice::copies_directly_from(Device& source) {
  auto* other = dynamic_cast<CudaDevice*>(&source);
  return other && other != this && context_->reaches(*other->context_) && other->context_->reaches(*context_);
}

// The host clock (base/clock.h): profiling times of GPU work are placed on it
// (cuda_device_clock.h), so clGetDeviceAndHostTimer, clGetHostTimer and profiling info
// share one time base.
uint64_t CudaDevice::device_timer_ns() const { return now_ns(); }

std::unique_ptr<ImageSampling> CudaDevice::sample_image(const SampledImage& image) {
  if (!settings::enabled(settings::Name::CUCL_GPU_TEXTURES)) return nullptr;
  return sample_image_with_textures(context_, image);
}

CodegenResult CudaDevice::generate_code(std::string_view bitcode, const CodegenOptions& options) {
  return generate_nvptx_code(bitcode, options, target_);
}

std::unique_ptr<LoadedProgram> CudaDevice::load_program(std::string_view native, std::string& error) {
  if (context_->lost()) {
    error = context_->loss_message();
    return nullptr;
  }
  return load_cuda_program(context_, printf_buffers_, native, description_.compiler.code_target, error);
}

NvptxTarget cuda_device_target(const CudaDriver& driver, CUdevice device) {
  int major = 0, minor = 0;
  driver.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  driver.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  return nvptx_target_for(major, minor);
}

std::vector<std::unique_ptr<Device>> discover_cuda_devices(const DeviceSelection& selection) {
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
  auto finishing_threads = std::make_shared<FinishingThreads>();
  auto registry = std::make_shared<HostRegistry>(*driver, [finishing_threads] { finishing_threads->settle_all(); });
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    if (!selection.wants_gpu(ordinal)) {
      debug_log("CUDA device " + std::to_string(ordinal) + " hidden by CUCL_DEVICES");
      continue;
    }
    CUdevice device = 0;
    if (CUresult result = driver->cuDeviceGet(&device, ordinal); result != CUDA_SUCCESS) {
      debug_log("CUDA device " + std::to_string(ordinal) + " skipped: " + driver->describe(result));
      continue;
    }
    const NvptxTarget target = cuda_device_target(*driver, device);
    DeviceDescription description = describe_cuda_device(*driver, device, target);
    debug_log("CUDA device " + std::to_string(ordinal) + ": " + description.name + " (" +
              description.compiler.code_target + ")");
    auto context = std::make_shared<CudaContext>(driver, device, registry, finishing_threads);
    devices.push_back(std::make_unique<CudaDevice>(std::move(context), target, std::move(description)));
  }
  return devices;
}

}  // namespace cucl::backend::cuda

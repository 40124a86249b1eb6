// What a CUDA device is, from the driver's attributes, and what its compiler accepts: the
// OpenCL C front end for nvptx64 with the NVPTX code generator (codegen/), so OpenCL C
// 1.0-1.2 and 3.0, SPIR-V, fp64, int64 and 32/64-bit atomics up to device scope, and up to
// all devices' scope where the GPU has SVM atomics (system-scope atomics on managed memory
// that the host touches at once). A build without the nvptx64 builtin library (no
// libdevice) has no compiler for the GPU.
#include <time.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>

#include "backends/compiler_description.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/kernel_abi.h"
#include "libclc-builtins/builtins.h"

namespace cucl::backend::cuda {
namespace {

constexpr cl_uint kNvidiaPciVendorId = 0x10de;

class Attributes {
 public:
  Attributes(const CudaDriver& driver, CUdevice device) : driver_(driver), device_(device) {}
  // The attribute, or `otherwise` where the driver does not answer.
  int operator()(CUdevice_attribute attribute, int otherwise = 0) const {
    int value = 0;
    return driver_.cuDeviceGetAttribute(&value, attribute, device_) == CUDA_SUCCESS ? value : otherwise;
  }

 private:
  const CudaDriver& driver_;
  CUdevice device_;
};

// SVM is managed memory (CudaMemory::create_shared). Coarse grain needs only managed memory;
// fine grain needs the host and the GPU to touch it at once (concurrent managed access);
// fine-grain system needs the GPU to reach any pageable host memory (HMM or ATS). SVM
// atomics come with fine grain: memory_scope_all_svm_devices atomics are PTX's system-scope
// atom.sys (sm_60 and later, libclc-builtins/include/nvptx_system_atomics.h), which the host's
// threads see on managed memory only while both may touch it at once.
cl_device_svm_capabilities cuda_svm_capabilities(const Attributes& attribute, const NvptxTarget& target) {
  if (!attribute(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)) return 0;
  cl_device_svm_capabilities capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
  if (attribute(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS)) {
    capabilities |= CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
    if (target.sm >= 60) capabilities |= CL_DEVICE_SVM_ATOMICS;
  }
  if (attribute(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS)) capabilities |= CL_DEVICE_SVM_FINE_GRAIN_SYSTEM;
  return capabilities;
}

// Profiling timestamps come from the host's monotonic clock (CudaDevice::device_timer_ns).
size_t monotonic_clock_resolution_ns() {
  timespec resolution{};
  if (clock_getres(CLOCK_MONOTONIC, &resolution) != 0) return 1;
  return std::max<size_t>(1, resolution.tv_sec * 1000000000ull + resolution.tv_nsec);
}

// Equal for every device this driver serves, different for other drivers or versions.
std::array<cl_uchar, CL_UUID_SIZE_KHR> driver_uuid(int driver_version) {
  std::array<cl_uchar, CL_UUID_SIZE_KHR> uuid{};
  const char tag[] = "cucl-cuda-drv";  // 13 bytes, then the version
  std::memcpy(uuid.data(), tag, sizeof tag - 1);
  uuid[13] = static_cast<cl_uchar>(driver_version >> 16);
  uuid[14] = static_cast<cl_uchar>(driver_version >> 8);
  uuid[15] = static_cast<cl_uchar>(driver_version);
  return uuid;
}

constexpr cl_uint kWarpSize = 32;

// The front end's target and what it accepts, as the host device's describe_host_compiler
// does for the CPU.
void describe_cuda_compiler(DeviceDescription& d, const NvptxTarget& target) {
  // memory_scope_all_devices is system scope, which reaches the host and every device only in
  // SVM allocations the GPU shares with them: offered where SVM atomics are.
  const bool all_devices_scope = (d.svm_capabilities & CL_DEVICE_SVM_ATOMICS) != 0;
  describe_opencl_c_compiler(d, {"nvptx64-nvidia-cuda", {"-ffake-address-space-map"}, nvptx_code_target(target),
                                 builtins::nvptx_bitcode(), "nvptx-builtins", all_devices_scope});
  d.double_fp_config = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                       CL_FP_INF_NAN | CL_FP_DENORM;
  d.preferred_vector_width[kDouble] = 1;
  d.native_vector_width[kDouble] = 1;
  // Pairs of halves are one register and one f16x2 instruction.
  describe_half_precision(d, 2, /*hardware_fma=*/true);
  // Half atomics are atom.add.noftz.f16 and atom.cas.b16 (libclc-builtins/include/atomic_support.h).
  if (target.sm >= 70) describe_half_atomics(d);
  // dot and dot_acc_sat are one dp4a (plus add.sat) for every signedness, vector or packed.
  const cl_device_integer_dot_product_acceleration_properties_khr dp4a = {CL_TRUE, CL_TRUE, CL_TRUE,
                                                                          CL_TRUE, CL_TRUE, CL_TRUE};
  d.integer_dot_product_8bit = dp4a;
  d.integer_dot_product_4x8bit_packed = dp4a;
  // Non-uniform groups: the launch splits edge groups off (cuda_launch.cpp).
  d.printf_buffer_size = 1024 * 1024;
  // A sub-group is a warp (libclc-builtins/src/sub_group.cl); every warp of a block is
  // resident and scheduled on its own, so sub-groups make progress independently.
  // The library's functions take a warp to be 32 work-items, as on every NVIDIA GPU so far.
  if (d.preferred_work_group_size_multiple == kWarpSize) {
    describe_sub_groups(d, kWarpSize, /*independent_forward_progress=*/true);
  }
}

// Images live in device memory and the builtin library reads and writes them (as on the
// host), but their limits are the card's texture and surface limits, so that the images an
// application makes here would also fit the hardware's image units. The specification's
// minimums stay the floor.
void describe_cuda_images(DeviceDescription& d, const Attributes& attribute) {
  describe_software_images(d);
  if (!d.image_support) return;
  ImageLimits& limits = d.images;
  auto hardware = [&](size_t& limit, size_t floor, CUdevice_attribute texture, CUdevice_attribute surface) {
    const int reported = std::min(attribute(texture), attribute(surface));
    if (reported > 0) limit = std::max(floor, static_cast<size_t>(reported));
  };
  hardware(limits.image2d_max_width, 16384, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH,
           CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH);
  hardware(limits.image2d_max_height, 16384, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT,
           CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT);
  hardware(limits.image3d_max_width, 2048, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH,
           CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH);
  hardware(limits.image3d_max_height, 2048, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT,
           CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT);
  hardware(limits.image3d_max_depth, 2048, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH,
           CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH);
  hardware(limits.image_max_array_size, 2048, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS,
           CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS);
  const int linear = attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH);
  if (linear > 0) limits.image_max_buffer_size = std::min(limits.image_max_buffer_size, static_cast<size_t>(linear));
  limits.image_max_buffer_size = std::max<size_t>(limits.image_max_buffer_size, 65536);
  const int texture_pitch = attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
  if (texture_pitch > 0) limits.texture_row_alignment = static_cast<size_t>(texture_pitch);
}

}  // namespace

DeviceDescription describe_cuda_device(const CudaDriver& driver, CUdevice device, const NvptxTarget& target) {
  Attributes attribute(driver, device);
  DeviceDescription d;
  d.type = CL_DEVICE_TYPE_GPU;
  char name[256] = {};
  if (driver.cuDeviceGetName(name, sizeof name - 1, device) != CUDA_SUCCESS || !name[0]) {
    std::strcpy(name, "NVIDIA GPU");
  }
  d.name = name;
  d.vendor = "NVIDIA Corporation";
  d.vendor_id = kNvidiaPciVendorId;
  d.driver_version = "0.1.0 (CUDA " + std::to_string(driver.version / 1000) + "." +
                     std::to_string(driver.version % 1000 / 10) + ")";
  d.svm_capabilities = cuda_svm_capabilities(attribute, target);

  d.max_compute_units = static_cast<cl_uint>(std::max(1, attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 1)));
  d.max_clock_frequency_mhz = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
  d.address_bits = 64;
  d.max_work_item_sizes = {static_cast<size_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024)),
                           static_cast<size_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024)),
                           static_cast<size_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64))};
  d.max_work_group_size = static_cast<size_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024));
  d.preferred_work_group_size_multiple = static_cast<size_t>(attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32));
  // Each GPU thread is scalar: vectors become one instruction per element. fp16 and fp64
  // only with the compiler.
  d.preferred_vector_width = {1, 1, 1, 1, 1, 0, 0};
  d.native_vector_width = {1, 1, 1, 1, 1, 0, 0};

  size_t total = 0;
  if (driver.cuDeviceTotalMem(&total, device) != CUDA_SUCCESS) total = 0;
  d.global_mem_size = total;
  // The FULL_PROFILE rule: at least a quarter of global memory (and 128 MiB), at most all of it.
  d.max_mem_alloc_size = std::min<cl_ulong>(total, std::max<cl_ulong>(total / 4, 128ull << 20));
  d.global_mem_cache_type = CL_READ_WRITE_CACHE;
  d.global_mem_cacheline_size = 128;
  d.global_mem_cache_size = static_cast<cl_ulong>(attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  d.max_constant_buffer_size =
      static_cast<cl_ulong>(std::max(64 * 1024, attribute(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY)));
  d.local_mem_type = CL_LOCAL;
  // What one block may have once a kernel opts in (cuda_launch.cpp raises each kernel's
  // dynamic shared memory limit as its launches need).
  d.local_mem_size = static_cast<cl_ulong>(std::max({32 * 1024, attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
                                                     attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)}));
  // Kernel parameters are limited to 4 KiB (PTX ISA 7.5); the LaunchContext is one of them.
  d.max_parameter_size = (4096 - sizeof(LaunchContext)) / 8 * 8;
  // cuMemAlloc returns 256-byte aligned memory; sub-buffers keep that alignment.
  d.mem_base_addr_align_bits = 256 * 8;
  d.min_data_type_align_size = 128;
  d.host_unified_memory = CL_FALSE;
  d.error_correction_support = attribute(CU_DEVICE_ATTRIBUTE_ECC_ENABLED) ? CL_TRUE : CL_FALSE;
  d.endian_little = CL_TRUE;
  // Division and sqrt are PTX's fast forms unless -cl-fp32-correctly-rounded-divide-sqrt
  // asks for the correctly rounded ones (codegen/divide_sqrt.h).
  d.single_fp_config = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM | CL_FP_FMA |
                       CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;

  d.profiling_timer_resolution_ns = monotonic_clock_resolution_ns();
  d.execution_capabilities = CL_EXEC_KERNEL;
  d.queue_on_host_properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

  const cl_version v1 = CL_MAKE_VERSION(1, 0, 0);
  d.extensions = {{v1, "cl_khr_extended_versioning"},
                  {v1, "cl_khr_device_uuid"},
                  {v1, "cl_khr_pci_bus_info"},
                  {v1, "cl_nv_device_attribute_query"}};
  d.nv.compute_capability_major = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
  d.nv.compute_capability_minor = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
  d.nv.registers_per_block = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
  d.nv.warp_size = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32));
  d.nv.async_engine_count = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT));
  d.nv.gpu_overlap = attribute(CU_DEVICE_ATTRIBUTE_GPU_OVERLAP) ? CL_TRUE : CL_FALSE;
  d.nv.kernel_exec_timeout = attribute(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT) ? CL_TRUE : CL_FALSE;
  d.nv.integrated_memory = attribute(CU_DEVICE_ATTRIBUTE_INTEGRATED) ? CL_TRUE : CL_FALSE;
  CUuuid uuid{};
  if (driver.cuDeviceGetUuid(&uuid, device) == CUDA_SUCCESS) std::memcpy(d.uuid.data(), uuid.bytes, CL_UUID_SIZE_KHR);
  d.driver_uuid = driver_uuid(driver.version);
  d.pci_bus_info.pci_domain = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID));
  d.pci_bus_info.pci_bus = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID));
  d.pci_bus_info.pci_device = static_cast<cl_uint>(attribute(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
  d.pci_bus_info.pci_function = 0;  // CUDA devices are function 0; the driver does not report it
  if (!builtins::nvptx_bitcode().empty()) {
    describe_cuda_compiler(d, target);
    describe_cuda_images(d, attribute);
  }
  report_opencl_3_1_where_complete(d);
  return d;
}

}  // namespace cucl::backend::cuda

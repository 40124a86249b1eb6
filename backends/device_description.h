// What a device is, as its backend describes it. platform/ answers clGetDeviceInfo from
// this; every field must tell the truth about what the device does today. Defaults are
// the OpenCL 3.0 FULL_PROFILE minimums, or "not supported" for optional features.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/float_atomics_ext.h"

namespace cucl::backend {

struct NameVersion {
  cl_version version;
  std::string name;
};

// Index into DeviceDescription::preferred_vector_width / native_vector_width.
enum VectorType : size_t { kChar, kShort, kInt, kLong, kFloat, kDouble, kHalf, kVectorTypeCount };

// Image limits; all zero while CL_DEVICE_IMAGE_SUPPORT is false, as the spec requires.
struct ImageLimits {
  cl_uint max_read_image_args = 0;
  cl_uint max_write_image_args = 0;
  cl_uint max_read_write_image_args = 0;
  size_t image2d_max_width = 0;
  size_t image2d_max_height = 0;
  size_t image3d_max_width = 0;
  size_t image3d_max_height = 0;
  size_t image3d_max_depth = 0;
  size_t image_max_buffer_size = 0;
  size_t image_max_array_size = 0;
  cl_uint max_samplers = 0;
  cl_uint image_pitch_alignment = 0;         // pixels; 0 without 2D images from buffers
  cl_uint image_base_address_alignment = 0;  // pixels; 0 without 2D images from buffers
  // Bytes: the row pitch at which the device's texture units read a 2D image (0: any). 2D
  // images made without memory behind them get rows padded to it.
  size_t texture_row_alignment = 0;
};

// Pipe limits; all zero while pipe_support is false.
struct PipeLimits {
  cl_uint max_pipe_args = 0;
  cl_uint max_active_reservations = 0;
  cl_uint max_packet_size = 0;
};

// On-device queue (device-side enqueue) limits; all zero without device-side enqueue.
struct DeviceQueueLimits {
  cl_command_queue_properties properties = 0;
  cl_uint preferred_size = 0;
  cl_uint max_size = 0;
  cl_uint max_queues = 0;
  cl_uint max_events = 0;
};

struct DeviceDescription {
  cl_device_type type = CL_DEVICE_TYPE_DEFAULT;
  std::string name;
  std::string vendor;
  cl_uint vendor_id = 0;
  std::string driver_version;
  std::string version = "OpenCL 3.0 cucl";  // "OpenCL<space>3.0<space>..." as the spec requires
  cl_version numeric_version = CL_MAKE_VERSION(3, 0, 0);
  std::string profile = "FULL_PROFILE";
  // Kept in the "OpenCL C 1.2 ..." form that tools parse; the numeric twin must agree.
  std::string opencl_c_version = "OpenCL C 1.2 cucl";
  cl_version opencl_c_numeric_version = CL_MAKE_VERSION(1, 2, 0);
  // Empty while the device has no compiler (the spec allows it); once a compiler exists
  // it must hold every OpenCL C version it accepts, opencl_c_version's included.
  std::vector<NameVersion> opencl_c_all_versions;
  std::vector<NameVersion> opencl_c_features;
  std::vector<NameVersion> extensions;
  std::vector<NameVersion> ils;               // e.g. {1.0, "SPIR-V"}
  std::vector<NameVersion> built_in_kernels;
  std::string latest_conformance_version_passed = "v0000-01-01-00";  // vYYYY-MM-DD-XX; none passed yet

  cl_uint max_compute_units = 1;
  cl_uint max_clock_frequency_mhz = 0;
  cl_uint address_bits = 64;
  cl_uint max_work_item_dimensions = 3;
  std::array<size_t, 3> max_work_item_sizes{1024, 1024, 1024};
  size_t max_work_group_size = 1024;
  size_t preferred_work_group_size_multiple = 1;

  // Indexed by VectorType. double and half stay 0 without fp64/fp16.
  std::array<cl_uint, kVectorTypeCount> preferred_vector_width{16, 8, 4, 2, 4, 0, 0};
  std::array<cl_uint, kVectorTypeCount> native_vector_width{16, 8, 4, 2, 4, 0, 0};

  cl_ulong global_mem_size = 0;
  cl_ulong max_mem_alloc_size = 0;
  cl_device_mem_cache_type global_mem_cache_type = CL_READ_WRITE_CACHE;
  cl_uint global_mem_cacheline_size = 64;
  cl_ulong global_mem_cache_size = 0;
  cl_ulong max_constant_buffer_size = 64 * 1024;
  cl_uint max_constant_args = 8;
  cl_device_local_mem_type local_mem_type = CL_GLOBAL;
  cl_ulong local_mem_size = 32 * 1024;
  size_t max_parameter_size = 1024;
  cl_uint mem_base_addr_align_bits = 1024;  // long16, the FULL_PROFILE minimum
  cl_uint min_data_type_align_size = 128;   // bytes of long16
  cl_bool host_unified_memory = CL_TRUE;
  cl_bool error_correction_support = CL_FALSE;
  cl_bool endian_little = CL_TRUE;

  cl_device_fp_config single_fp_config = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN;
  cl_device_fp_config double_fp_config = 0;
  cl_device_fp_config half_fp_config = 0;

  size_t profiling_timer_resolution_ns = 1;
  cl_bool available = CL_TRUE;
  cl_bool compiler_available = CL_FALSE;
  // How the OpenCL C front end compiles for this device. `code_target` names the code
  // generation target exactly (triple, CPU, features) so binaries and cache entries made
  // for another target are never loaded.
  struct CompilerTarget {
    std::string triple;
    std::vector<std::string> clang_args;  // target-specific front-end flags
    std::string code_target;
    // Changes whenever the compiler could produce different code (cache keys use it).
    std::string compiler_identity;
  } compiler;
  cl_bool linker_available = CL_FALSE;
  cl_device_exec_capabilities execution_capabilities = CL_EXEC_KERNEL;
  cl_command_queue_properties queue_on_host_properties =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  size_t printf_buffer_size = 1024 * 1024;  // FULL_PROFILE minimum
  cl_bool preferred_interop_user_sync = CL_TRUE;

  cl_bool image_support = CL_FALSE;
  ImageLimits images;

  // Root devices that cannot be partitioned: no sub-devices, no partition schemes.
  cl_uint partition_max_sub_devices = 0;
  std::vector<cl_device_partition_property> partition_properties;
  cl_device_affinity_domain partition_affinity_domain = 0;

  // OpenCL 2.x/3.0 optional capabilities, all off until they are implemented.
  cl_device_svm_capabilities svm_capabilities = 0;
  // The OpenCL 3.0 mandated minimums.
  cl_device_atomic_capabilities atomic_memory_capabilities = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                                             CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  cl_device_atomic_capabilities atomic_fence_capabilities =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  cl_device_device_enqueue_capabilities device_enqueue_capabilities = 0;
  DeviceQueueLimits device_queues;
  cl_bool non_uniform_work_group_support = CL_FALSE;
  cl_bool work_group_collective_functions_support = CL_FALSE;
  cl_bool generic_address_space_support = CL_FALSE;
  cl_bool pipe_support = CL_FALSE;
  PipeLimits pipes;
  cl_uint max_num_sub_groups = 0;  // 0: no sub-groups
  cl_uint sub_group_width = 0;     // work-items of every sub-group but a group's last
  cl_bool sub_group_independent_forward_progress = CL_FALSE;
  size_t max_global_variable_size = 0;  // 0 without program scope global variables
  size_t global_variable_preferred_total_size = 0;
  std::array<cl_uint, 3> preferred_atomic_alignment{0, 0, 0};  // platform, global, local; 0 = natural

  // cl_khr_integer_dot_product (answered only where listed in extensions)
  cl_device_integer_dot_product_capabilities_khr integer_dot_product_capabilities = 0;
  cl_device_integer_dot_product_acceleration_properties_khr integer_dot_product_8bit{};
  cl_device_integer_dot_product_acceleration_properties_khr integer_dot_product_4x8bit_packed{};

  // cl_ext_float_atomics (answered only where listed in extensions): the atomic operations on
  // each floating-point type, in global and in local memory.
  cl_device_fp_atomic_capabilities_ext single_fp_atomic_capabilities = 0;
  cl_device_fp_atomic_capabilities_ext double_fp_atomic_capabilities = 0;
  cl_device_fp_atomic_capabilities_ext half_fp_atomic_capabilities = 0;

  // cl_khr_device_uuid / cl_khr_pci_bus_info (answered only where listed in extensions)
  std::array<cl_uchar, CL_UUID_SIZE_KHR> uuid{};
  std::array<cl_uchar, CL_UUID_SIZE_KHR> driver_uuid{};
  cl_device_pci_bus_info_khr pci_bus_info{};

  // cl_nv_device_attribute_query (answered only where listed in extensions; its PCI bus,
  // slot and domain come from pci_bus_info)
  struct NvAttributes {
    cl_uint compute_capability_major = 0;
    cl_uint compute_capability_minor = 0;
    cl_uint registers_per_block = 0;
    cl_uint warp_size = 0;
    cl_uint async_engine_count = 0;
    cl_bool gpu_overlap = CL_FALSE;
    cl_bool kernel_exec_timeout = CL_FALSE;
    cl_bool integrated_memory = CL_FALSE;
  } nv;
};

}  // namespace cucl::backend

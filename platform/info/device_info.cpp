// clGetDeviceInfo: limits, memory, floating point, queues, partitioning and the optional
// OpenCL 2.x/3.0 features. Names, versions and extension lists: device_info_versions.cpp.
#include <CL/cl_ext.h>

#include <vector>

#include "platform/objects/device.h"
#include "platform/info/device_info_extensions.h"
#include "platform/info/device_info_nv.h"
#include "platform/info/device_info_versions.h"
#include "platform/info/info.h"
#include "platform/objects/platform.h"

namespace cucl {
namespace {

using backend::VectorType;

// "If the device cannot be partitioned ... a value of 0 will be returned."
std::vector<cl_device_partition_property> partition_properties(const backend::DeviceDescription& d) {
  if (d.partition_properties.empty()) return {0};
  return d.partition_properties;
}

void vector_width(InfoWriter& out, const backend::DeviceDescription& d, VectorType type, bool native) {
  out.scalar(native ? d.native_vector_width[type] : d.preferred_vector_width[type]);
}

}  // namespace

void device_info(Device& device, cl_device_info param, InfoWriter& out) {
  if (device_version_info(device, param, out)) return;
  if (device_extension_info(device, param, out)) return;
  if (nv_device_attribute_info(device, param, out)) return;
  const auto& d = device.description();
  const auto& images = d.images;
  switch (param) {
    case CL_DEVICE_TYPE: return out.scalar(d.type);
    case CL_DEVICE_VENDOR_ID: return out.scalar(d.vendor_id);
    case CL_DEVICE_PLATFORM: return out.scalar(Platform::instance().id());
    case CL_DEVICE_AVAILABLE: return out.scalar(static_cast<cl_bool>(device.available()));
    case CL_DEVICE_COMPILER_AVAILABLE: return out.scalar(d.compiler_available);
    case CL_DEVICE_LINKER_AVAILABLE: return out.scalar(d.linker_available);
    case CL_DEVICE_ENDIAN_LITTLE: return out.scalar(d.endian_little);
    case CL_DEVICE_ADDRESS_BITS: return out.scalar(d.address_bits);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return out.scalar(d.max_clock_frequency_mhz);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return out.scalar(d.profiling_timer_resolution_ns);

    // Root devices: no parent, a constant reference count, never partitioned so far.
    case CL_DEVICE_PARENT_DEVICE: return out.scalar(cl_device_id{nullptr});
    case CL_DEVICE_REFERENCE_COUNT: return out.scalar(device.api_ref_count());
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return out.scalar(d.partition_max_sub_devices);
    case CL_DEVICE_PARTITION_PROPERTIES: return out.array(partition_properties(d));
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return out.scalar(d.partition_affinity_domain);
    case CL_DEVICE_PARTITION_TYPE: return out.array(std::vector<cl_device_partition_property>{});

    // Execution model
    case CL_DEVICE_MAX_COMPUTE_UNITS: return out.scalar(d.max_compute_units);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return out.scalar(d.max_work_item_dimensions);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
      return out.bytes(d.max_work_item_sizes.data(), d.max_work_item_dimensions * sizeof(size_t));
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return out.scalar(d.max_work_group_size);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return out.scalar(d.preferred_work_group_size_multiple);
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return out.scalar(d.non_uniform_work_group_support);
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
      return out.scalar(d.work_group_collective_functions_support);
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: return out.scalar(d.max_num_sub_groups);
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
      return out.scalar(d.sub_group_independent_forward_progress);
    case CL_DEVICE_EXECUTION_CAPABILITIES: return out.scalar(d.execution_capabilities);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return out.scalar(d.max_parameter_size);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return out.scalar(d.printf_buffer_size);
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return out.scalar(d.generic_address_space_support);

    // Vector widths
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: return vector_width(out, d, backend::kChar, false);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT: return vector_width(out, d, backend::kShort, false);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: return vector_width(out, d, backend::kInt, false);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG: return vector_width(out, d, backend::kLong, false);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: return vector_width(out, d, backend::kFloat, false);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: return vector_width(out, d, backend::kDouble, false);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: return vector_width(out, d, backend::kHalf, false);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: return vector_width(out, d, backend::kChar, true);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: return vector_width(out, d, backend::kShort, true);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT: return vector_width(out, d, backend::kInt, true);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: return vector_width(out, d, backend::kLong, true);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return vector_width(out, d, backend::kFloat, true);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return vector_width(out, d, backend::kDouble, true);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return vector_width(out, d, backend::kHalf, true);

    // Floating point. CL_DEVICE_HALF_FP_CONFIG belongs to cl_khr_fp16 but is answered
    // (0 without fp16) because tools such as clinfo ask for it unconditionally.
    case CL_DEVICE_SINGLE_FP_CONFIG: return out.scalar(d.single_fp_config);
    case CL_DEVICE_DOUBLE_FP_CONFIG: return out.scalar(d.double_fp_config);
    case CL_DEVICE_HALF_FP_CONFIG: return out.scalar(d.half_fp_config);

    // Memory
    case CL_DEVICE_GLOBAL_MEM_SIZE: return out.scalar(d.global_mem_size);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return out.scalar(d.max_mem_alloc_size);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return out.scalar(d.global_mem_cache_type);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return out.scalar(d.global_mem_cacheline_size);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return out.scalar(d.global_mem_cache_size);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return out.scalar(d.max_constant_buffer_size);
    case CL_DEVICE_MAX_CONSTANT_ARGS: return out.scalar(d.max_constant_args);
    case CL_DEVICE_LOCAL_MEM_TYPE: return out.scalar(d.local_mem_type);
    case CL_DEVICE_LOCAL_MEM_SIZE: return out.scalar(d.local_mem_size);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return out.scalar(d.mem_base_addr_align_bits);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return out.scalar(d.min_data_type_align_size);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return out.scalar(d.host_unified_memory);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return out.scalar(d.error_correction_support);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: return out.scalar(d.max_global_variable_size);
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: return out.scalar(d.global_variable_preferred_total_size);
    case CL_DEVICE_SVM_CAPABILITIES: return out.scalar(d.svm_capabilities);
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT: return out.scalar(d.preferred_atomic_alignment[0]);
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT: return out.scalar(d.preferred_atomic_alignment[1]);
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return out.scalar(d.preferred_atomic_alignment[2]);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: return out.scalar(d.atomic_memory_capabilities);
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: return out.scalar(d.atomic_fence_capabilities);

    // Queues. CL_DEVICE_QUEUE_PROPERTIES (1.x) is the same enumerant as ON_HOST_PROPERTIES.
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: return out.scalar(d.queue_on_host_properties);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: return out.scalar(d.device_enqueue_capabilities);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: return out.scalar(d.device_queues.properties);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE: return out.scalar(d.device_queues.preferred_size);
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: return out.scalar(d.device_queues.max_size);
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES: return out.scalar(d.device_queues.max_queues);
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: return out.scalar(d.device_queues.max_events);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return out.scalar(d.preferred_interop_user_sync);

    // Pipes
    case CL_DEVICE_PIPE_SUPPORT: return out.scalar(d.pipe_support);
    case CL_DEVICE_MAX_PIPE_ARGS: return out.scalar(d.pipes.max_pipe_args);
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS: return out.scalar(d.pipes.max_active_reservations);
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: return out.scalar(d.pipes.max_packet_size);

    // Images
    case CL_DEVICE_IMAGE_SUPPORT: return out.scalar(d.image_support);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: return out.scalar(images.max_read_image_args);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: return out.scalar(images.max_write_image_args);
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: return out.scalar(images.max_read_write_image_args);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH: return out.scalar(images.image2d_max_width);
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return out.scalar(images.image2d_max_height);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH: return out.scalar(images.image3d_max_width);
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT: return out.scalar(images.image3d_max_height);
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: return out.scalar(images.image3d_max_depth);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return out.scalar(images.image_max_buffer_size);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return out.scalar(images.image_max_array_size);
    case CL_DEVICE_MAX_SAMPLERS: return out.scalar(images.max_samplers);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return out.scalar(images.image_pitch_alignment);
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return out.scalar(images.image_base_address_alignment);

    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

#include "backends/compiler_description.h"

#include <algorithm>
#include <functional>
#include <string_view>

#include "base/settings.h"

namespace cucl::backend {

void describe_opencl_c_compiler(DeviceDescription& d, const CompilerSetup& setup) {
  d.compiler_available = CL_TRUE;
  d.linker_available = CL_TRUE;
  d.compiler.triple = setup.triple;
  d.compiler.clang_args = setup.clang_args;
  d.compiler.code_target = setup.code_target;
  d.compiler.compiler_identity = "clang-" CUCL_CLANG_VERSION "/cucl-" + std::string(setup.builtin_library_name) + "-" +
                                 std::to_string(std::hash<std::string_view>{}(setup.builtin_library)) + "-" +
                                 std::to_string(setup.builtin_library.size());
  // CL_DEVICE_OPENCL_C_VERSION stays 1.2: a 3.0 device may name a newer version there
  // only if it has every optional feature of that version.
  d.opencl_c_version = "OpenCL C 1.2 cucl";
  d.opencl_c_numeric_version = CL_MAKE_VERSION(1, 2, 0);
  d.opencl_c_all_versions = {{CL_MAKE_VERSION(1, 0, 0), "OpenCL C"}, {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
                             {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"}, {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}};
  const cl_version v3 = CL_MAKE_VERSION(3, 0, 0);
  d.opencl_c_features = {{v3, "__opencl_c_int64"},
                         {v3, "__opencl_c_fp64"},
                         {v3, "__opencl_c_generic_address_space"},
                         {v3, "__opencl_c_program_scope_global_variables"},
                         {v3, "__opencl_c_atomic_order_acq_rel"},
                         {v3, "__opencl_c_atomic_order_seq_cst"},
                         {v3, "__opencl_c_atomic_scope_device"},
                         {v3, "__opencl_c_work_group_collective_functions"},
                         {v3, "__opencl_c_integer_dot_product_input_4x8bit"},
                         {v3, "__opencl_c_integer_dot_product_input_4x8bit_packed"}};
  if (setup.all_devices_scope) d.opencl_c_features.push_back({v3, "__opencl_c_atomic_scope_all_devices"});
  // SPIR-V through the SPIRV-LLVM-Translator 15 (platform/compiler/spirv_reader.cpp).
  d.ils = {{CL_MAKE_VERSION(1, 0, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 1, 0), "SPIR-V"},
           {CL_MAKE_VERSION(1, 2, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 3, 0), "SPIR-V"},
           {CL_MAKE_VERSION(1, 4, 0), "SPIR-V"}};
  const cl_version v1 = CL_MAKE_VERSION(1, 0, 0);
  for (const char* extension :
       {"cl_khr_il_program", "cl_khr_fp64", "cl_khr_byte_addressable_store", "cl_khr_global_int32_base_atomics",
        "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics",
        "cl_khr_local_int32_extended_atomics", "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
        "cl_khr_extended_bit_ops", "cl_khr_spirv_queries", "cl_khr_suggested_local_work_size"}) {
    d.extensions.push_back({v1, extension});
  }
  // Replayed by platform/command_buffer/ on any device that runs kernels; 0.9.8 is 1.0's API.
  d.extensions.push_back({CL_MAKE_VERSION(0, 9, 8), "cl_khr_command_buffer"});
  // Kernel commands' ranges and arguments can be replaced after finalizing (0.9.5).
  d.extensions.push_back({CL_MAKE_VERSION(0, 9, 5), "cl_khr_command_buffer_mutable_dispatch"});
  // Buffers with a fixed address on each device, and device pointers as kernel arguments
  // (platform/memory/device_address_rules.h): 1.0.2 of the Khronos headers.
  d.extensions.push_back({CL_MAKE_VERSION(1, 0, 2), "cl_ext_buffer_device_address"});
  // Version 2 adds the acceleration queries.
  d.extensions.push_back({CL_MAKE_VERSION(2, 0, 0), "cl_khr_integer_dot_product"});
  d.integer_dot_product_capabilities =
      CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR;
  d.generic_address_space_support = CL_TRUE;
  d.work_group_collective_functions_support = CL_TRUE;
  d.non_uniform_work_group_support = CL_TRUE;
  d.max_global_variable_size = 64 * 1024 * 1024;
  d.global_variable_preferred_total_size = 64 * 1024 * 1024;
  const cl_device_atomic_capabilities orders = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                               CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
  cl_device_atomic_capabilities scopes = CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  if (setup.all_devices_scope) scopes |= CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  d.atomic_memory_capabilities = orders | scopes;
  d.atomic_fence_capabilities = orders | scopes | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;
  describe_float_atomics(d);
}

namespace {

constexpr cl_device_fp_atomic_capabilities_ext kEveryFpAtomic =
    CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
    CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
    CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;

// The OpenCL C feature macros of cl_ext_float_atomics for `type` (fp16, fp32, fp64), each
// versioned as the OpenCL C it extends.
void add_fp_atomic_features(DeviceDescription& d, std::string_view type, std::initializer_list<const char*> operations) {
  for (const char* operation : operations) {
    d.opencl_c_features.push_back({CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_" + std::string(type) + "_" + operation});
  }
}

constexpr std::initializer_list<const char*> kAddMinMax = {"global_atomic_add", "local_atomic_add",
                                                           "global_atomic_min_max", "local_atomic_min_max"};

}  // namespace

void describe_float_atomics(DeviceDescription& d) {
  d.single_fp_atomic_capabilities = kEveryFpAtomic;
  d.double_fp_atomic_capabilities = kEveryFpAtomic;
  d.extensions.push_back({CL_EXT_FLOAT_ATOMICS_EXTENSION_VERSION, CL_EXT_FLOAT_ATOMICS_EXTENSION_NAME});
  // float and double load, store and exchange are OpenCL C 2.0's, without feature macros.
  add_fp_atomic_features(d, "fp32", kAddMinMax);
  add_fp_atomic_features(d, "fp64", kAddMinMax);
}

void describe_half_atomics(DeviceDescription& d) {
  if (d.half_fp_config == 0) return;
  d.half_fp_atomic_capabilities = kEveryFpAtomic;
  add_fp_atomic_features(d, "fp16", kAddMinMax);
  add_fp_atomic_features(d, "fp16", {"global_atomic_load_store", "local_atomic_load_store"});
}

void describe_half_precision(DeviceDescription& d, cl_uint native_width, bool hardware_fma) {
  if (!settings::enabled(settings::Name::CUCL_FP16)) return;
  d.half_fp_config = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
  if (hardware_fma) d.half_fp_config |= CL_FP_FMA;
  d.native_vector_width[kHalf] = native_width;
  d.preferred_vector_width[kHalf] = native_width;
  d.extensions.push_back({CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp16"});
  d.opencl_c_features.push_back({CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp16"});
}

void report_opencl_3_1_where_complete(DeviceDescription& d) {
  const auto listed = [&](std::string_view name) {
    return std::any_of(d.extensions.begin(), d.extensions.end(), [&](const NameVersion& e) { return e.name == name; });
  };
  const bool reads_spirv_1_4 = std::any_of(d.ils.begin(), d.ils.end(), [](const NameVersion& il) {
    return il.version == CL_MAKE_VERSION(1, 4, 0);
  });
  bool complete = d.compiler_available && d.max_num_sub_groups > 0 && reads_spirv_1_4;
  for (const char* promoted : {"cl_khr_device_uuid", "cl_khr_extended_bit_ops", "cl_khr_integer_dot_product",
                               "cl_khr_spirv_queries", "cl_khr_subgroup_extended_types", "cl_khr_subgroup_rotate",
                               "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
                               "cl_khr_suggested_local_work_size"}) {
    complete = complete && listed(promoted);
  }
  if (!complete) return;
  d.version = "OpenCL 3.1 cucl";
  d.numeric_version = CL_MAKE_VERSION(3, 1, 0);
  d.opencl_c_all_versions.push_back({CL_MAKE_VERSION(3, 1, 0), "OpenCL C"});
}

void describe_software_images(DeviceDescription& d) {
  if (!settings::enabled(settings::Name::CUCL_IMAGES)) return;
  d.image_support = CL_TRUE;
  ImageLimits& limits = d.images;
  limits.max_read_image_args = 128;
  limits.max_write_image_args = 64;
  limits.max_read_write_image_args = 64;
  limits.image2d_max_width = limits.image2d_max_height = 16384;
  limits.image3d_max_width = limits.image3d_max_height = limits.image3d_max_depth = 2048;
  limits.image_max_array_size = 2048;
  // In pixels: a 1D buffer image of 16-byte pixels stays within one allocation.
  limits.image_max_buffer_size = static_cast<size_t>(std::max<cl_ulong>(65536, d.max_mem_alloc_size / 16));
  limits.max_samplers = 16;
  // Row pitches are multiples of the pixel size, and every allocation a kernel sees starts
  // at a multiple of 16 bytes, so each pixel lies at its natural alignment (which nvptx's
  // loads and stores need; x86 would take any address).
  limits.image_pitch_alignment = 1;
  limits.image_base_address_alignment = 1;
  const cl_version v3 = CL_MAKE_VERSION(3, 0, 0);
  for (const char* feature : {"__opencl_c_images", "__opencl_c_read_write_images", "__opencl_c_3d_image_writes"}) {
    d.opencl_c_features.push_back({v3, feature});
  }
  const cl_version v1 = CL_MAKE_VERSION(1, 0, 0);
  d.extensions.push_back({v1, "cl_khr_3d_image_writes"});
  d.extensions.push_back({v1, "cl_khr_image2d_from_buffer"});
}

void describe_sub_groups(DeviceDescription& d, cl_uint width, bool independent_forward_progress) {
  d.sub_group_width = width;
  d.max_num_sub_groups = static_cast<cl_uint>((d.max_work_group_size + width - 1) / width);
  d.sub_group_independent_forward_progress = independent_forward_progress ? CL_TRUE : CL_FALSE;
  d.opencl_c_features.push_back({CL_MAKE_VERSION(3, 0, 0), "__opencl_c_subgroups"});
  const cl_version v1 = CL_MAKE_VERSION(1, 0, 0);
  // cl_khr_subgroups promises independent forward progress (the device query must say so).
  if (independent_forward_progress) d.extensions.push_back({v1, "cl_khr_subgroups"});
  for (const char* extension :
       {"cl_khr_subgroup_extended_types", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_rotate", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_clustered_reduce"}) {
    d.extensions.push_back({v1, extension});
  }
}

}  // namespace cucl::backend

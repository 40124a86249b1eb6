#include "platform/info/spirv_capabilities.h"

#include <algorithm>

#include "platform/info/name_version.h"

namespace cucl {
namespace {

// Capability numbers from the SPIR-V specification.
enum Capability : cl_uint {
  kAddresses = 4,
  kLinkage = 5,
  kKernel = 6,
  kVector16 = 7,
  kFloat16Buffer = 8,
  kFloat16 = 9,
  kFloat64 = 10,
  kInt64 = 11,
  kInt64Atomics = 12,
  kGroups = 18,
  kInt16 = 22,
  kGenericPointer = 38,
  kInt8 = 39,
  kSubgroupDispatch = 58,
  kGroupNonUniform = 61,
  kGroupNonUniformVote = 62,
  kGroupNonUniformArithmetic = 63,
  kGroupNonUniformBallot = 64,
  kGroupNonUniformShuffle = 65,
  kGroupNonUniformShuffleRelative = 66,
  kGroupNonUniformClustered = 67,
  kImageBasic = 13,
  kImageReadWrite = 14,
  kLiteralSampler = 20,
  kSampled1D = 43,
  kImage1D = 44,
  kSampledBuffer = 46,
  kImageBuffer = 47,
  kDotProductInput4x8Bit = 6017,
  kDotProductInput4x8BitPacked = 6018,
  kDotProduct = 6019,
  kBitInstructions = 6025,
  kGroupNonUniformRotateKHR = 6026,
  kAtomicFloat16MinMaxEXT = 5616,
  kAtomicFloat32MinMaxEXT = 5612,
  kAtomicFloat64MinMaxEXT = 5613,
  kAtomicFloat32AddEXT = 6033,
  kAtomicFloat64AddEXT = 6034,
  kAtomicFloat16AddEXT = 6095,
};

bool has_feature(const backend::DeviceDescription& d, const char* name) {
  return std::any_of(d.opencl_c_features.begin(), d.opencl_c_features.end(),
                     [&](const backend::NameVersion& feature) { return feature.name == name; });
}

// cl_ext_float_atomics: OpAtomicFAddEXT and OpAtomicFMin/FMaxEXT for each type whose
// add or min/max the device has, in either memory.
void add_float_atomics(SpirvSupport& s, const backend::DeviceDescription& d) {
  constexpr cl_device_fp_atomic_capabilities_ext add = CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
                                                       CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT;
  constexpr cl_device_fp_atomic_capabilities_ext min_max = CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT |
                                                           CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;
  const auto half = d.half_fp_atomic_capabilities;
  const auto single = d.single_fp_atomic_capabilities;
  const auto twice = d.double_fp_atomic_capabilities;
  if ((single | twice) & add) s.extensions.push_back("SPV_EXT_shader_atomic_float_add");
  if (half & add) s.extensions.push_back("SPV_EXT_shader_atomic_float16_add");
  if ((half | single | twice) & min_max) s.extensions.push_back("SPV_EXT_shader_atomic_float_min_max");
  if (half & add) s.capabilities.push_back(kAtomicFloat16AddEXT);
  if (single & add) s.capabilities.push_back(kAtomicFloat32AddEXT);
  if (twice & add) s.capabilities.push_back(kAtomicFloat64AddEXT);
  if (half & min_max) s.capabilities.push_back(kAtomicFloat16MinMaxEXT);
  if (single & min_max) s.capabilities.push_back(kAtomicFloat32MinMaxEXT);
  if (twice & min_max) s.capabilities.push_back(kAtomicFloat64MinMaxEXT);
}

}  // namespace

SpirvSupport spirv_support(const backend::DeviceDescription& d) {
  SpirvSupport s;
  if (d.ils.empty()) return s;
  s.extended_instruction_sets = {"OpenCL.std"};
  s.capabilities = {kAddresses, kFloat16Buffer, kInt16, kInt8, kKernel, kLinkage, kVector16};
  auto with_extension = [&](const char* extension, std::initializer_list<cl_uint> capabilities,
                            const char* spirv_extension = nullptr) {
    if (!contains_name(d.extensions, extension)) return;
    if (spirv_extension) s.extensions.push_back(spirv_extension);
    s.capabilities.insert(s.capabilities.end(), capabilities);
  };
  if (has_feature(d, "__opencl_c_int64")) s.capabilities.push_back(kInt64);
  if (d.generic_address_space_support) s.capabilities.push_back(kGenericPointer);
  if (d.max_num_sub_groups > 0 || d.work_group_collective_functions_support) s.capabilities.push_back(kGroups);
  // SPIR-V 1.1's SubgroupsPerWorkgroup execution mode (the reader keeps it as the kernel's
  // CL_KERNEL_COMPILE_NUM_SUB_GROUPS).
  if (d.max_num_sub_groups > 0) s.capabilities.push_back(kSubgroupDispatch);
  if (d.image_support) {
    s.capabilities.insert(s.capabilities.end(),
                          {kImageBasic, kLiteralSampler, kSampled1D, kImage1D, kSampledBuffer, kImageBuffer});
    if (has_feature(d, "__opencl_c_read_write_images")) s.capabilities.push_back(kImageReadWrite);
  }
  with_extension("cl_khr_fp16", {kFloat16});
  with_extension("cl_khr_fp64", {kFloat64});
  with_extension("cl_khr_int64_base_atomics", {kInt64Atomics});
  with_extension("cl_khr_extended_bit_ops", {kBitInstructions}, "SPV_KHR_bit_instructions");
  with_extension("cl_khr_integer_dot_product", {kDotProduct, kDotProductInput4x8Bit, kDotProductInput4x8BitPacked},
                 "SPV_KHR_integer_dot_product");
  with_extension("cl_khr_subgroup_ballot", {kGroupNonUniform, kGroupNonUniformBallot});
  with_extension("cl_khr_subgroup_clustered_reduce", {kGroupNonUniformClustered});
  with_extension("cl_khr_subgroup_non_uniform_arithmetic", {kGroupNonUniformArithmetic});
  with_extension("cl_khr_subgroup_non_uniform_vote", {kGroupNonUniform, kGroupNonUniformVote});
  with_extension("cl_khr_subgroup_rotate", {kGroupNonUniformRotateKHR}, "SPV_KHR_subgroup_rotate");
  with_extension("cl_khr_subgroup_shuffle", {kGroupNonUniformShuffle});
  with_extension("cl_khr_subgroup_shuffle_relative", {kGroupNonUniformShuffleRelative});
  if (contains_name(d.extensions, "cl_ext_float_atomics")) add_float_atomics(s, d);
  std::sort(s.capabilities.begin(), s.capabilities.end());
  s.capabilities.erase(std::unique(s.capabilities.begin(), s.capabilities.end()), s.capabilities.end());
  return s;
}

}  // namespace cucl

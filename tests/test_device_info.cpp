// clGetDeviceInfo on every cucl device: every OpenCL 1.0-3.0 query answers with the right
// size and type, the size rules hold, and the answers agree with each other and with the
// specification's FULL_PROFILE minimums.
#include <CL/cl_ext.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>

#include "device_queries.h"
#include "support/test_support.h"

using namespace cucl_test;
using namespace device_queries;

namespace {

// cl_khr_spirv_queries (2025), not in the Debian headers.
constexpr cl_device_info kSpirvExtendedInstructionSets = 0x12B9, kSpirvExtensions = 0x12BA,
                         kSpirvCapabilities = 0x12BB;

std::vector<unsigned char> raw_value(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(device, param, 0, nullptr, &size), CL_SUCCESS);
  std::vector<unsigned char> value(size);
  EXPECT_EQ(clGetDeviceInfo(device, param, size, value.data(), nullptr), CL_SUCCESS);
  return value;
}

template <class T>
std::vector<T> device_array(cl_device_id device, cl_device_info param) {
  auto raw = raw_value(device, param);
  std::vector<T> values(raw.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), raw.data(), values.size() * sizeof(T));
  return values;
}

std::set<std::string> split(const std::string& list, char separator) {
  std::set<std::string> names;
  std::stringstream stream(list);
  std::string name;
  while (std::getline(stream, name, separator)) {
    if (!name.empty()) names.insert(name);
  }
  return names;
}

// The names of a *_WITH_VERSION list; fails the test on a duplicate or unterminated name.
std::set<std::string> names_of(const std::vector<cl_name_version>& list) {
  std::set<std::string> names;
  for (const auto& entry : list) {
    EXPECT_NE(std::memchr(entry.name, '\0', CL_NAME_VERSION_MAX_NAME_SIZE), nullptr);
    EXPECT_TRUE(names.insert(entry.name).second) << "duplicate " << entry.name;
  }
  return names;
}

// major.minor parsed after `prefix` ("OpenCL " or "OpenCL C "), followed by a space or the end.
bool parse_version(const std::string& text, const std::string& prefix, cl_uint& major, cl_uint& minor) {
  std::smatch match;
  std::regex pattern("^" + prefix + "([0-9]+)\\.([0-9]+)( .*)?$");
  if (!std::regex_match(text, match, pattern)) return false;
  major = std::stoul(match[1]);
  minor = std::stoul(match[2]);
  return true;
}

bool has_extension(cl_device_id device, const std::string& name) {
  return split(device_string(device, CL_DEVICE_EXTENSIONS), ' ').count(name) == 1;
}

// A test run on every cucl device; the body sees `device`.
#define DEVICE_TEST(name)                                              \
  void name##_on(cl_device_id device);                                 \
  TEST(DeviceInfo, name) {                                             \
    auto devices = cucl_devices();                                     \
    ASSERT_FALSE(devices.empty());                                     \
    for (cl_device_id device : devices) {                              \
      SCOPED_TRACE(device_string(device, CL_DEVICE_NAME));             \
      name##_on(device);                                               \
    }                                                                  \
  }                                                                    \
  void name##_on(cl_device_id device)

DEVICE_TEST(EveryQueryReportsItsSizeAndWritesExactlyThat) {
  for (const Query& query : kQueries) {
    SCOPED_TRACE(query.name);
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device, query.param, 0, nullptr, &size), CL_SUCCESS);
    switch (query.shape) {
      case Shape::Fixed: EXPECT_EQ(size, query.size); break;
      case Shape::Array: EXPECT_EQ(size % query.size, 0u); break;
      case Shape::String: EXPECT_GE(size, 1u); break;
    }
    // One spare byte, to see that nothing beyond the reported size is written.
    std::vector<unsigned char> value(size + 1, 0xAB);
    size_t written = 0;
    ASSERT_EQ(clGetDeviceInfo(device, query.param, value.size(), value.data(), &written), CL_SUCCESS);
    EXPECT_EQ(written, size);
    EXPECT_EQ(value[size], 0xAB);
    if (query.shape == Shape::String) {
      EXPECT_EQ(value[size - 1], '\0');
      EXPECT_EQ(std::strlen(reinterpret_cast<const char*>(value.data())) + 1, size);
    }
    EXPECT_EQ(clGetDeviceInfo(device, query.param, size, value.data(), nullptr), CL_SUCCESS);
    if (size > 0) {
      EXPECT_EQ(clGetDeviceInfo(device, query.param, size - 1, value.data(), nullptr), CL_INVALID_VALUE);
    }
  }
}

DEVICE_TEST(UnknownQueriesAndWrongHandlesAreRejected) {
  cl_uint value = 0;
  for (cl_device_info unknown : {cl_device_info{0}, cl_device_info{0x0FFF}, cl_device_info{0x105F + 0x1000},
                                 cl_device_info{0x400B} /* past cl_nv_device_attribute_query's */,
                                 cl_device_info{CL_PLATFORM_NAME}, cl_device_info{CL_CONTEXT_DEVICES}}) {
    EXPECT_EQ(clGetDeviceInfo(device, unknown, sizeof value, &value, nullptr), CL_INVALID_VALUE) << unknown;
    EXPECT_EQ(clGetDeviceInfo(device, unknown, 0, nullptr, nullptr), CL_INVALID_VALUE) << unknown;
  }
  // Extension queries exist only while the extension is listed.
  const std::pair<cl_device_info, const char*> extension_queries[] = {
      {CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, "cl_khr_extended_versioning"},
      {CL_DEVICE_UUID_KHR, "cl_khr_device_uuid"},
      {CL_DEVICE_NODE_MASK_KHR, "cl_khr_device_uuid"},
      {CL_DEVICE_PCI_BUS_INFO_KHR, "cl_khr_pci_bus_info"},
      {CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, "cl_khr_integer_dot_product"},
      {kSpirvCapabilities, "cl_khr_spirv_queries"},
      {CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, "cl_nv_device_attribute_query"},
      {CL_DEVICE_WARP_SIZE_NV, "cl_nv_device_attribute_query"},
      {cl_device_info{0x4009}, "cl_nv_device_attribute_query"},  // CL_DEVICE_PCI_SLOT_ID_NV
      {cl_device_info{0x400A}, "cl_nv_device_attribute_query"},  // CL_DEVICE_PCI_DOMAIN_ID_NV
      {cl_device_info{0x4231}, "cl_ext_float_atomics"},  // CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
      {cl_device_info{0x4233}, "cl_ext_float_atomics"},  // CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT
  };
  for (const auto& [param, extension] : extension_queries) {
    size_t size = 0;
    cl_int expected = has_extension(device, extension) ? CL_SUCCESS : CL_INVALID_VALUE;
    EXPECT_EQ(clGetDeviceInfo(device, param, 0, nullptr, &size), expected) << extension;
  }
  // A live handle of another kind reaches cucl through the loader and must be refused.
  auto platform = reinterpret_cast<cl_device_id>(cucl_platform());
  EXPECT_EQ(clGetDeviceInfo(platform, CL_DEVICE_TYPE, sizeof value, &value, nullptr), CL_INVALID_DEVICE);
}

DEVICE_TEST(IdentityAndVersionsAreWellFormed) {
  auto type = info_value<cl_device_type>(clGetDeviceInfo, device, CL_DEVICE_TYPE);
  EXPECT_EQ(std::popcount(type), 1);
  EXPECT_TRUE(type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM));
  EXPECT_EQ(info_value<cl_platform_id>(clGetDeviceInfo, device, CL_DEVICE_PLATFORM), cucl_platform());
  EXPECT_FALSE(device_string(device, CL_DEVICE_NAME).empty());
  EXPECT_FALSE(device_string(device, CL_DEVICE_VENDOR).empty());
  EXPECT_FALSE(device_string(device, CL_DRIVER_VERSION).empty());
  EXPECT_EQ(device_string(device, CL_DEVICE_PROFILE), "FULL_PROFILE");
  EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_AVAILABLE), CL_TRUE);

  cl_uint major = 0, minor = 0;
  ASSERT_TRUE(parse_version(device_string(device, CL_DEVICE_VERSION), "OpenCL ", major, minor));
  EXPECT_EQ(major, 3u);
  EXPECT_LE(minor, 1u);
  auto numeric = info_value<cl_version>(clGetDeviceInfo, device, CL_DEVICE_NUMERIC_VERSION);
  EXPECT_EQ(CL_VERSION_MAJOR(numeric), major);
  EXPECT_EQ(CL_VERSION_MINOR(numeric), minor);

  std::regex conformance(R"(^v[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])-[0-9]{2}$)");
  EXPECT_TRUE(std::regex_match(device_string(device, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED), conformance));
}

DEVICE_TEST(OpenCLCVersionsAgree) {
  cl_uint major = 0, minor = 0;
  std::string c_version = device_string(device, CL_DEVICE_OPENCL_C_VERSION);
  ASSERT_TRUE(parse_version(c_version, "OpenCL C ", major, minor)) << c_version;
  EXPECT_GE(CL_MAKE_VERSION(major, minor, 0), CL_MAKE_VERSION(1, 2, 0)) << "an OpenCL 3.0 device needs OpenCL C 1.2";
  if (has_extension(device, "cl_khr_extended_versioning")) {
    auto numeric = info_value<cl_version>(clGetDeviceInfo, device, CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR);
    EXPECT_EQ(CL_VERSION_MAJOR(numeric), major);
    EXPECT_EQ(CL_VERSION_MINOR(numeric), minor);
  }

  auto all_versions = name_versions(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS);
  auto features = name_versions(device, CL_DEVICE_OPENCL_C_FEATURES);
  names_of(features);
  if (!info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_COMPILER_AVAILABLE)) {
    // No compiler: nothing can be built, so no OpenCL C version or feature is claimed.
    EXPECT_TRUE(all_versions.empty());
    EXPECT_TRUE(features.empty());
    return;
  }
  std::set<std::pair<cl_uint, cl_uint>> versions;
  for (const auto& entry : all_versions) {
    EXPECT_STREQ(entry.name, "OpenCL C");
    versions.insert({CL_VERSION_MAJOR(entry.version), CL_VERSION_MINOR(entry.version)});
  }
  EXPECT_TRUE(versions.count({major, minor})) << "CL_DEVICE_OPENCL_C_VERSION missing from the list";
  for (auto required : {std::pair{1u, 0u}, std::pair{1u, 1u}, std::pair{1u, 2u}, std::pair{3u, 0u}}) {
    EXPECT_TRUE(versions.count(required)) << "OpenCL C " << required.first << "." << required.second;
  }
}

DEVICE_TEST(ListsAgreeWithTheirStrings) {
  auto extensions = names_of(name_versions(device, CL_DEVICE_EXTENSIONS_WITH_VERSION));
  EXPECT_EQ(extensions, split(device_string(device, CL_DEVICE_EXTENSIONS), ' '));

  auto kernels = names_of(name_versions(device, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION));
  EXPECT_EQ(kernels, split(device_string(device, CL_DEVICE_BUILT_IN_KERNELS), ';'));

  std::set<std::string> ils;
  for (const auto& il : name_versions(device, CL_DEVICE_ILS_WITH_VERSION)) {
    ils.insert(std::string(il.name) + "_" + std::to_string(CL_VERSION_MAJOR(il.version)) + "." +
               std::to_string(CL_VERSION_MINOR(il.version)));
  }
  EXPECT_EQ(ils, split(device_string(device, CL_DEVICE_IL_VERSION), ' '));

  // The platform's extensions (cl_khr_icd aside) are ones every device has.
  auto platform_extensions = split(platform_string(cucl_platform(), CL_PLATFORM_EXTENSIONS), ' ');
  for (const auto& name : platform_extensions) {
    if (name != "cl_khr_icd") {
      EXPECT_TRUE(extensions.count(name)) << name;
    }
  }
}

DEVICE_TEST(WorkGroupLimitsAreConsistent) {
  EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  auto dimensions = info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  EXPECT_GE(dimensions, 3u);
  auto group_size = info_value<size_t>(clGetDeviceInfo, device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(group_size, 1u);
  auto item_sizes = device_array<size_t>(device, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  ASSERT_EQ(item_sizes.size(), dimensions);
  for (size_t size : item_sizes) {
    EXPECT_GE(size, 1u);
    EXPECT_LE(size, group_size);
  }
  auto multiple = info_value<size_t>(clGetDeviceInfo, device, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
  EXPECT_GE(multiple, 1u);
  EXPECT_LE(multiple, group_size);
  EXPECT_GE(info_value<size_t>(clGetDeviceInfo, device, CL_DEVICE_MAX_PARAMETER_SIZE), 1024u);
  EXPECT_GE(info_value<size_t>(clGetDeviceInfo, device, CL_DEVICE_PRINTF_BUFFER_SIZE), 1024u * 1024u);
  EXPECT_TRUE(info_value<cl_device_exec_capabilities>(clGetDeviceInfo, device, CL_DEVICE_EXECUTION_CAPABILITIES) &
              CL_EXEC_KERNEL);
  auto resolution = info_value<size_t>(clGetDeviceInfo, device, CL_DEVICE_PROFILING_TIMER_RESOLUTION);
  EXPECT_GE(resolution, 1u);

  auto sub_groups = info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_NUM_SUB_GROUPS);
  if (sub_groups == 0) {
    EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), CL_FALSE);
  }
}

DEVICE_TEST(MemoryMeetsFullProfileMinimums) {
  auto global = info_value<cl_ulong>(clGetDeviceInfo, device, CL_DEVICE_GLOBAL_MEM_SIZE);
  auto max_alloc = info_value<cl_ulong>(clGetDeviceInfo, device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_GT(global, 0u);
  EXPECT_LE(max_alloc, global);
  // OpenCL 3.0: max(min(1 GiB, global / 4), 32 MiB); earlier full profiles: max(global / 4, 128 MiB).
  EXPECT_GE(max_alloc, std::max<cl_ulong>(std::min<cl_ulong>(1ull << 30, global / 4), 32ull << 20));
  EXPECT_GE(max_alloc, std::min<cl_ulong>(global, std::max<cl_ulong>(global / 4, 128ull << 20)));
  EXPECT_GE(info_value<cl_ulong>(clGetDeviceInfo, device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), 64u * 1024u);
  EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_CONSTANT_ARGS), 8u);
  EXPECT_GE(info_value<cl_ulong>(clGetDeviceInfo, device, CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024u);
  auto local_type = info_value<cl_device_local_mem_type>(clGetDeviceInfo, device, CL_DEVICE_LOCAL_MEM_TYPE);
  EXPECT_TRUE(local_type == CL_LOCAL || local_type == CL_GLOBAL);

  auto base_align_bits = info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  EXPECT_GE(base_align_bits, 16u * 8u * 8u) << "long16, in bits";
  EXPECT_TRUE(std::has_single_bit(base_align_bits));
  EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE), 16u * 8u)
      << "long16, in bytes";

  auto cache = info_value<cl_device_mem_cache_type>(clGetDeviceInfo, device, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE);
  EXPECT_TRUE(cache == CL_NONE || cache == CL_READ_ONLY_CACHE || cache == CL_READ_WRITE_CACHE);
  if (cache != CL_NONE) {
    EXPECT_GT(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE), 0u);
  }

  auto bits = info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_ADDRESS_BITS);
  EXPECT_TRUE(bits == 32 || bits == 64);
  if (info_value<cl_device_type>(clGetDeviceInfo, device, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_CPU) {
    EXPECT_EQ(bits, sizeof(void*) * 8);
    EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_HOST_UNIFIED_MEMORY), CL_TRUE);
    EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_ENDIAN_LITTLE) == CL_TRUE,
              std::endian::native == std::endian::little);
  }
  // Without program scope global variables both sizes are 0.
  if (info_value<size_t>(clGetDeviceInfo, device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) != 0) {
    EXPECT_GE(info_value<size_t>(clGetDeviceInfo, device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE), 64u * 1024u);
  }
  auto svm = info_value<cl_device_svm_capabilities>(clGetDeviceInfo, device, CL_DEVICE_SVM_CAPABILITIES);
  EXPECT_EQ(svm & ~cl_device_svm_capabilities{CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                              CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS},
            0u);
}

DEVICE_TEST(FloatingPointAndVectorWidthsAgree) {
  auto single = info_value<cl_device_fp_config>(clGetDeviceInfo, device, CL_DEVICE_SINGLE_FP_CONFIG);
  EXPECT_EQ(single & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN), CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN);
  for (cl_device_info width : {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
                               CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
                               CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
                               CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
                               CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT}) {
    EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, width), 1u) << width;
  }
  bool fp64 = info_value<cl_device_fp_config>(clGetDeviceInfo, device, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  EXPECT_EQ(fp64, has_extension(device, "cl_khr_fp64"));
  EXPECT_EQ(fp64, info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) != 0);
  EXPECT_EQ(fp64, info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE) != 0);
  bool fp16 = has_extension(device, "cl_khr_fp16");
  EXPECT_EQ(fp16, info_value<cl_device_fp_config>(clGetDeviceInfo, device, CL_DEVICE_HALF_FP_CONFIG) != 0);
  EXPECT_EQ(fp16, info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) != 0);
  EXPECT_EQ(fp16, info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) != 0);
}

DEVICE_TEST(OptionalFeaturesReportZeroLimitsWhenAbsent) {
  if (!info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_IMAGE_SUPPORT)) {
    for (cl_device_info limit : {CL_DEVICE_MAX_READ_IMAGE_ARGS, CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
                                 CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, CL_DEVICE_MAX_SAMPLERS,
                                 CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT}) {
      EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, device, limit), 0u) << limit;
    }
    for (cl_device_info limit : {CL_DEVICE_IMAGE2D_MAX_WIDTH, CL_DEVICE_IMAGE2D_MAX_HEIGHT,
                                 CL_DEVICE_IMAGE3D_MAX_WIDTH, CL_DEVICE_IMAGE3D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_DEPTH,
                                 CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE}) {
      EXPECT_EQ(info_value<size_t>(clGetDeviceInfo, device, limit), 0u) << limit;
    }
  } else {
    EXPECT_GE(info_value<size_t>(clGetDeviceInfo, device, CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
    EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
    EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_SAMPLERS), 16u);
  }

  bool generic = info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT);
  if (info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_PIPE_SUPPORT)) {
    EXPECT_TRUE(generic);
    EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_PIPE_ARGS), 16u);
    EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_PIPE_MAX_PACKET_SIZE), 1024u);
  } else {
    EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_PIPE_ARGS), 0u);
    EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS), 0u);
    EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_PIPE_MAX_PACKET_SIZE), 0u);
  }

  auto enqueue =
      info_value<cl_device_device_enqueue_capabilities>(clGetDeviceInfo, device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES);
  if (enqueue & CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT) {
    EXPECT_TRUE(enqueue & CL_DEVICE_QUEUE_SUPPORTED);
  }
  if (enqueue & CL_DEVICE_QUEUE_SUPPORTED) {
    EXPECT_TRUE(generic);
  } else {
    EXPECT_EQ(info_value<cl_command_queue_properties>(clGetDeviceInfo, device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES),
              0u);
    for (cl_device_info limit : {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
                                 CL_DEVICE_MAX_ON_DEVICE_QUEUES, CL_DEVICE_MAX_ON_DEVICE_EVENTS}) {
      EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, device, limit), 0u) << limit;
    }
  }

  auto compiler = info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_COMPILER_AVAILABLE);
  if (compiler) {
    EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_LINKER_AVAILABLE), CL_TRUE);
  }
}

DEVICE_TEST(QueuesAndAtomicsMeetTheMandatedMinimums) {
  auto host_queues =
      info_value<cl_command_queue_properties>(clGetDeviceInfo, device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(host_queues & CL_QUEUE_PROFILING_ENABLE);
  EXPECT_EQ(host_queues & ~cl_command_queue_properties{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE},
            0u);
  EXPECT_EQ(info_value<cl_command_queue_properties>(clGetDeviceInfo, device, CL_DEVICE_QUEUE_PROPERTIES), host_queues);

  auto memory =
      info_value<cl_device_atomic_capabilities>(clGetDeviceInfo, device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  cl_device_atomic_capabilities memory_minimum = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  EXPECT_EQ(memory & memory_minimum, memory_minimum);
  auto fence = info_value<cl_device_atomic_capabilities>(clGetDeviceInfo, device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  cl_device_atomic_capabilities fence_minimum =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  EXPECT_EQ(fence & fence_minimum, fence_minimum);
  // Orders are hierarchical: seq_cst implies acq_rel.
  for (auto caps : {memory, fence}) {
    if (caps & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) {
      EXPECT_TRUE(caps & CL_DEVICE_ATOMIC_ORDER_ACQ_REL);
    }
  }
}

// memory_scope_all_devices (and all_svm_devices) comes with SVM atomics on every cucl device:
// on a GPU it is system scope, which reaches the host and the other devices only in the SVM
// allocations they share. Atomics and fences, the capabilities and the OpenCL C feature agree.
DEVICE_TEST(AllDevicesScopeComesWithSvmAtomics) {
  const auto svm = info_value<cl_device_svm_capabilities>(clGetDeviceInfo, device, CL_DEVICE_SVM_CAPABILITIES);
  const bool svm_atomics = (svm & CL_DEVICE_SVM_ATOMICS) != 0;
  const auto memory =
      info_value<cl_device_atomic_capabilities>(clGetDeviceInfo, device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  const auto fence = info_value<cl_device_atomic_capabilities>(clGetDeviceInfo, device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  if (info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_COMPILER_AVAILABLE) != CL_TRUE) return;
  EXPECT_EQ((memory & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0, svm_atomics);
  EXPECT_EQ((fence & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0, svm_atomics);
  EXPECT_EQ(lists_feature(device, "__opencl_c_atomic_scope_all_devices"), svm_atomics);
}

DEVICE_TEST(RootDevicesAreNotPartitioned) {
  EXPECT_EQ(info_value<cl_device_id>(clGetDeviceInfo, device, CL_DEVICE_PARENT_DEVICE), nullptr);
  EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_REFERENCE_COUNT), 1u);
  auto max_sub_devices = info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
  EXPECT_LE(max_sub_devices, info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_COMPUTE_UNITS));
  auto schemes = device_array<cl_device_partition_property>(device, CL_DEVICE_PARTITION_PROPERTIES);
  ASSERT_FALSE(schemes.empty());
  bool partitionable = schemes.front() != 0;
  EXPECT_EQ(partitionable, max_sub_devices > 1);
  if (!partitionable) {
    EXPECT_EQ(schemes.size(), 1u) << "a value of 0 and nothing else";
    EXPECT_EQ(info_value<cl_device_affinity_domain>(clGetDeviceInfo, device, CL_DEVICE_PARTITION_AFFINITY_DOMAIN), 0u);
  }
  // A root device has no partition type: no value, or a single 0.
  auto type = device_array<cl_device_partition_property>(device, CL_DEVICE_PARTITION_TYPE);
  EXPECT_TRUE(type.empty() || (type.size() == 1 && type[0] == 0));
}

// Every device has a UUID (the host device's from the machine's identity), the same in every
// query and different from its driver's.
DEVICE_TEST(UuidsIdentifyTheDeviceAndItsDriver) {
  ASSERT_TRUE(has_extension(device, "cl_khr_device_uuid"));
  std::array<cl_uchar, CL_UUID_SIZE_KHR> uuid{}, again{}, driver{};
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, uuid.size(), uuid.data(), nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, again.size(), again.data(), nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(device, CL_DRIVER_UUID_KHR, driver.size(), driver.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(uuid, again);
  EXPECT_NE(uuid, driver);
  EXPECT_NE(uuid, (std::array<cl_uchar, CL_UUID_SIZE_KHR>{}));
  EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_LUID_VALID_KHR), cl_bool(CL_FALSE));
}

// cl_khr_spirv_queries: what a device that reads SPIR-V accepts follows from what it reports
// (the OpenCL SPIR-V environment's list), and each name is a real string.
DEVICE_TEST(SpirvQueriesFollowTheReportedFeatures) {
  if (!has_extension(device, "cl_khr_spirv_queries")) {
    EXPECT_EQ(device_string(device, CL_DEVICE_IL_VERSION), "");
    return;
  }
  auto sets = device_array<const char*>(device, kSpirvExtendedInstructionSets);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_STREQ(sets[0], "OpenCL.std");
  auto capabilities = device_array<cl_uint>(device, kSpirvCapabilities);
  auto has = [&](cl_uint capability) {
    return std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end();
  };
  // Addresses, Linkage, Kernel, Vector16, Float16Buffer, Int16, Int8: every device.
  for (cl_uint required : {4u, 5u, 6u, 7u, 8u, 22u, 39u}) EXPECT_TRUE(has(required)) << required;
  EXPECT_EQ(has(10), has_extension(device, "cl_khr_fp64"));                       // Float64
  EXPECT_EQ(has(9), has_extension(device, "cl_khr_fp16"));                        // Float16
  EXPECT_EQ(has(61), has_extension(device, "cl_khr_subgroup_ballot"));            // GroupNonUniform
  EXPECT_EQ(has(63), has_extension(device, "cl_khr_subgroup_non_uniform_arithmetic"));
  EXPECT_EQ(has(6019), has_extension(device, "cl_khr_integer_dot_product"));      // DotProduct
  EXPECT_EQ(has(18), info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0);  // Groups
  EXPECT_FALSE(has(17)) << "Pipes";
  const bool images = info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_IMAGE_SUPPORT);
  for (cl_uint image_capability : {13u, 20u, 43u, 44u, 46u, 47u}) {  // ImageBasic, LiteralSampler, 1D, buffers
    EXPECT_EQ(has(image_capability), images) << image_capability;
  }
  EXPECT_EQ(has(14), images && lists_feature(device, "__opencl_c_read_write_images")) << "ImageReadWrite";
  auto extensions = device_array<const char*>(device, kSpirvExtensions);
  std::set<std::string> names;
  for (const char* name : extensions) names.insert(name);
  EXPECT_EQ(names.count("SPV_KHR_integer_dot_product"), size_t(has_extension(device, "cl_khr_integer_dot_product")));
  EXPECT_EQ(names.count("SPV_KHR_bit_instructions"), size_t(has_extension(device, "cl_khr_extended_bit_ops")));
  // cl_ext_float_atomics with fp32 and fp64 add and min/max (test_builtins_float_atomics
  // checks the capabilities): AtomicFloat32MinMaxEXT, 64, AtomicFloat32AddEXT, 64.
  const bool float_atomics = has_extension(device, "cl_ext_float_atomics");
  for (cl_uint capability : {5612u, 5613u, 6033u, 6034u}) EXPECT_EQ(has(capability), float_atomics) << capability;
  EXPECT_EQ(names.count("SPV_EXT_shader_atomic_float_add"), size_t(float_atomics));
  EXPECT_EQ(names.count("SPV_EXT_shader_atomic_float_min_max"), size_t(float_atomics));
}

// OpenCL 3.1 where the device has what 3.1 requires: sub-groups, SPIR-V 1.0 to 1.4, the
// extensions 3.1 promotes, and OpenCL C 3.1; the platform is 3.1 either way.
DEVICE_TEST(OpenCL31DevicesHaveWhatItRequires) {
  auto platform_numeric = info_value<cl_version>(clGetPlatformInfo, cucl_platform(), CL_PLATFORM_NUMERIC_VERSION);
  EXPECT_EQ(platform_numeric, CL_MAKE_VERSION(3, 1, 0));
  auto numeric = info_value<cl_version>(clGetDeviceInfo, device, CL_DEVICE_NUMERIC_VERSION);
  if (numeric != CL_MAKE_VERSION(3, 1, 0)) return;
  EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_NUM_SUB_GROUPS), 1u);
  const std::string ils = device_string(device, CL_DEVICE_IL_VERSION);
  for (const char* version : {"SPIR-V_1.0", "SPIR-V_1.1", "SPIR-V_1.2", "SPIR-V_1.3", "SPIR-V_1.4"}) {
    EXPECT_NE(ils.find(version), std::string::npos) << version;
  }
  for (const char* promoted : {"cl_khr_device_uuid", "cl_khr_extended_bit_ops", "cl_khr_integer_dot_product",
                               "cl_khr_spirv_queries", "cl_khr_subgroup_extended_types", "cl_khr_subgroup_rotate",
                               "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
                               "cl_khr_suggested_local_work_size"}) {
    EXPECT_TRUE(has_extension(device, promoted)) << promoted;
  }
  auto versions = device_array<cl_name_version>(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS);
  EXPECT_TRUE(std::any_of(versions.begin(), versions.end(),
                          [](const cl_name_version& v) { return v.version == CL_MAKE_VERSION(3, 1, 0); }));
}

}  // namespace

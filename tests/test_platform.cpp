// The platform and device entry points: discovery, clGetPlatformInfo, the error codes of
// every platform/device function, timers, sub-devices and extension function lookup.
// Everything goes through the ICD loader; wrong handles are live objects of another kind,
// which the loader forwards to cucl (a dangling pointer would crash in the loader itself).
#include <CL/cl_ext.h>

#include <cstring>
#include <regex>
#include <set>
#include <sstream>

#include "support/test_support.h"

using namespace cucl_test;

namespace {

std::set<std::string> split_words(const std::string& text) {
  std::set<std::string> words;
  std::stringstream stream(text);
  std::string word;
  while (stream >> word) words.insert(word);
  return words;
}

cl_platform_id platform_as_wrong_kind(cl_device_id device) { return reinterpret_cast<cl_platform_id>(device); }
cl_device_id device_as_wrong_kind(cl_platform_id platform) { return reinterpret_cast<cl_device_id>(platform); }

TEST(Platform, IdsAreListedAndArgumentsChecked) {
  cl_uint count = 0;
  ASSERT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS);
  ASSERT_GE(count, 1u);
  std::vector<cl_platform_id> platforms(count);
  cl_uint again = 0;
  ASSERT_EQ(clGetPlatformIDs(count, platforms.data(), &again), CL_SUCCESS);
  EXPECT_EQ(again, count);
  EXPECT_NE(std::find(platforms.begin(), platforms.end(), cucl_platform()), platforms.end());

  cl_platform_id one = nullptr;
  EXPECT_EQ(clGetPlatformIDs(0, &one, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformIDs(0, &one, &count), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformIDs(1, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST(Platform, IcdEntryPointListsTheOnePlatform) {
  using GetIds = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);
  auto get_ids = reinterpret_cast<GetIds>(
      clGetExtensionFunctionAddressForPlatform(cucl_platform(), "clIcdGetPlatformIDsKHR"));
  ASSERT_NE(get_ids, nullptr);
  cl_uint count = 0;
  ASSERT_EQ(get_ids(0, nullptr, &count), CL_SUCCESS);
  ASSERT_GE(count, 1u);
  std::vector<cl_platform_id> platforms(count);
  ASSERT_EQ(get_ids(count, platforms.data(), nullptr), CL_SUCCESS);
  EXPECT_NE(std::find(platforms.begin(), platforms.end(), cucl_platform()), platforms.end());
  cl_platform_id one = nullptr;
  EXPECT_EQ(get_ids(0, &one, &count), CL_INVALID_VALUE);
  EXPECT_EQ(get_ids(1, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST(Platform, ExtensionFunctionLookup) {
  cl_platform_id platform = cucl_platform();
  EXPECT_NE(clGetExtensionFunctionAddressForPlatform(platform, "clIcdGetPlatformIDsKHR"), nullptr);
  for (const char* unknown : {"clNoSuchFunctionCUCL", "clNoSuchFunctionKHR", "", "clIcdGetPlatformIDs"}) {
    EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform, unknown), nullptr) << unknown;
  }
  // Core functions are not extension functions.
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform, "clGetPlatformInfo"), nullptr);
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform_as_wrong_kind(host_device()), "clNoSuchFunctionCUCL"),
            nullptr);
}

TEST(Platform, InfoStringsAreWellFormed) {
  cl_platform_id platform = cucl_platform();
  EXPECT_EQ(platform_string(platform, CL_PLATFORM_NAME), "cucl");
  EXPECT_EQ(platform_string(platform, CL_PLATFORM_PROFILE), "FULL_PROFILE");
  EXPECT_EQ(platform_string(platform, CL_PLATFORM_ICD_SUFFIX_KHR), "CUCL");
  EXPECT_FALSE(platform_string(platform, CL_PLATFORM_VENDOR).empty());

  std::string version = platform_string(platform, CL_PLATFORM_VERSION);
  std::smatch match;
  ASSERT_TRUE(std::regex_match(version, match, std::regex(R"(^OpenCL ([0-9]+)\.([0-9]+) .*$)"))) << version;
  cl_version numeric = 0;
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric, &numeric, nullptr), CL_SUCCESS);
  EXPECT_EQ(CL_VERSION_MAJOR(numeric), std::stoul(match[1]));
  EXPECT_EQ(CL_VERSION_MINOR(numeric), std::stoul(match[2]));
  EXPECT_EQ(CL_VERSION_MAJOR(numeric), 3u);

  cl_ulong resolution = 0;
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution, &resolution, nullptr),
            CL_SUCCESS);
  EXPECT_GT(resolution, 0u) << "cucl supports device and host timer synchronisation";
}

TEST(Platform, ExtensionsAgreeWithTheVersionedList) {
  cl_platform_id platform = cucl_platform();
  auto names = split_words(platform_string(platform, CL_PLATFORM_EXTENSIONS));
  EXPECT_TRUE(names.count("cl_khr_icd"));
  size_t size = 0;
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &size), CL_SUCCESS);
  ASSERT_EQ(size % sizeof(cl_name_version), 0u);
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, list.data(), nullptr), CL_SUCCESS);
  std::set<std::string> versioned;
  for (const auto& entry : list) {
    EXPECT_TRUE(versioned.insert(entry.name).second) << "duplicate " << entry.name;
    EXPECT_GT(entry.version, 0u) << entry.name;
  }
  EXPECT_EQ(versioned, names);

  // Exactly the extensions that every device supports, plus the platform's own cl_khr_icd.
  std::set<std::string> shared;
  bool first = true;
  for (cl_device_id device : cucl_devices()) {
    auto device_names = split_words(device_string(device, CL_DEVICE_EXTENSIONS));
    if (first) {
      shared = device_names;
      first = false;
    }
    std::erase_if(shared, [&](const std::string& name) { return !device_names.count(name); });
  }
  shared.insert("cl_khr_icd");
  EXPECT_EQ(names, shared);
}

TEST(Platform, InfoSizeRulesAndErrors) {
  cl_platform_id platform = cucl_platform();
  const cl_platform_info strings[] = {CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION, CL_PLATFORM_NAME,
                                      CL_PLATFORM_VENDOR, CL_PLATFORM_EXTENSIONS, CL_PLATFORM_ICD_SUFFIX_KHR};
  for (cl_platform_info param : strings) {
    size_t size = 0;
    ASSERT_EQ(clGetPlatformInfo(platform, param, 0, nullptr, &size), CL_SUCCESS) << param;
    std::vector<char> value(size + 1, 'x');
    size_t written = 0;
    ASSERT_EQ(clGetPlatformInfo(platform, param, value.size(), value.data(), &written), CL_SUCCESS);
    EXPECT_EQ(written, size);
    EXPECT_EQ(std::strlen(value.data()) + 1, size);
    EXPECT_EQ(value[size], 'x');
    EXPECT_EQ(clGetPlatformInfo(platform, param, size - 1, value.data(), nullptr), CL_INVALID_VALUE) << param;
  }
  for (cl_platform_info param : {CL_PLATFORM_NUMERIC_VERSION, CL_PLATFORM_HOST_TIMER_RESOLUTION}) {
    size_t size = 0;
    ASSERT_EQ(clGetPlatformInfo(platform, param, 0, nullptr, &size), CL_SUCCESS);
    EXPECT_EQ(size, param == CL_PLATFORM_NUMERIC_VERSION ? sizeof(cl_version) : sizeof(cl_ulong));
    cl_ulong value = 0;
    EXPECT_EQ(clGetPlatformInfo(platform, param, size - 1, &value, nullptr), CL_INVALID_VALUE);
  }
  size_t size = 0;
  EXPECT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &size), CL_SUCCESS);
  cl_name_version entry{};
  EXPECT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size - 1, &entry, nullptr),
            CL_INVALID_VALUE);

  char buffer[64];
  for (cl_platform_info unknown : {cl_platform_info{0}, cl_platform_info{0x0908}, cl_platform_info{CL_DEVICE_NAME}}) {
    EXPECT_EQ(clGetPlatformInfo(platform, unknown, sizeof buffer, buffer, nullptr), CL_INVALID_VALUE) << unknown;
  }
  EXPECT_EQ(clGetPlatformInfo(platform_as_wrong_kind(host_device()), CL_PLATFORM_NAME, sizeof buffer, buffer, nullptr),
            CL_INVALID_PLATFORM);
}

TEST(Devices, DeviceTypesSelectDevices) {
  cl_platform_id platform = cucl_platform();
  auto all = cucl_devices(CL_DEVICE_TYPE_ALL);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(cucl_devices(CL_DEVICE_TYPE_CPU).size(), 1u);

  cl_uint count = 0;
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 0, nullptr, &count), CL_SUCCESS);
  EXPECT_EQ(count, 1u) << "exactly one default device";
  cl_device_id default_device = nullptr;
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &default_device, nullptr), CL_SUCCESS);
  EXPECT_NE(std::find(all.begin(), all.end(), default_device), all.end());
  EXPECT_NE(info_value<cl_device_type>(clGetDeviceInfo, default_device, CL_DEVICE_TYPE) & ~CL_DEVICE_TYPE_DEFAULT, 0u);

  // Each device is listed under its own type, and the per-type lists add up to ALL.
  size_t listed = 0;
  for (cl_device_type type : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM}) {
    cl_uint n = 0;
    cl_int status = clGetDeviceIDs(platform, type, 0, nullptr, &n);
    if (status == CL_DEVICE_NOT_FOUND) continue;
    ASSERT_EQ(status, CL_SUCCESS);
    std::vector<cl_device_id> devices(n);
    ASSERT_EQ(clGetDeviceIDs(platform, type, n, devices.data(), nullptr), CL_SUCCESS);
    for (cl_device_id device : devices)
      EXPECT_EQ(info_value<cl_device_type>(clGetDeviceInfo, device, CL_DEVICE_TYPE), type);
    listed += n;
  }
  EXPECT_EQ(listed, all.size());

  // A short array gets the first entries; the count is still the full count.
  cl_device_id first = nullptr;
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &first, &count), CL_SUCCESS);
  EXPECT_EQ(first, all[0]);
  EXPECT_EQ(count, all.size());
  // Combined bits select the union.
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU, 0, nullptr, &count), CL_SUCCESS);
  EXPECT_GE(count, 1u);
}

TEST(Devices, GetDeviceIdsErrors) {
  cl_platform_id platform = cucl_platform();
  cl_device_id device = nullptr;
  cl_uint count = 0;
  EXPECT_EQ(clGetDeviceIDs(platform_as_wrong_kind(host_device()), CL_DEVICE_TYPE_ALL, 1, &device, nullptr),
            CL_INVALID_PLATFORM);
  EXPECT_EQ(clGetDeviceIDs(platform, 0, 1, &device, nullptr), CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clGetDeviceIDs(platform, cl_device_type{1} << 20, 1, &device, nullptr), CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU | (cl_device_type{1} << 40), 1, &device, nullptr),
            CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, &device, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, &device, &count), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr), CL_INVALID_VALUE);

  // Types with no device report CL_DEVICE_NOT_FOUND and leave the outputs alone.
  for (cl_device_type type : {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM}) {
    if (!cucl_devices(type).empty()) continue;
    count = 7;
    EXPECT_EQ(clGetDeviceIDs(platform, type, 1, &device, &count), CL_DEVICE_NOT_FOUND) << type;
    EXPECT_EQ(clGetDeviceIDs(platform, type, 0, nullptr, &count), CL_DEVICE_NOT_FOUND) << type;
  }
}

TEST(Devices, RetainAndReleaseOfRootDevicesKeepTheCount) {
  cl_device_id device = host_device();
  EXPECT_EQ(clRetainDevice(device), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clReleaseDevice(device), CL_SUCCESS);
  EXPECT_EQ(clReleaseDevice(device), CL_SUCCESS);
  EXPECT_EQ(clRetainDevice(device), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_REFERENCE_COUNT), 1u);
  cl_device_id wrong = device_as_wrong_kind(cucl_platform());
  EXPECT_EQ(clRetainDevice(wrong), CL_INVALID_DEVICE);
  EXPECT_EQ(clReleaseDevice(wrong), CL_INVALID_DEVICE);
}

TEST(Devices, SubDevicesAreRefusedWhereNoSchemeIsSupported) {
  for (cl_device_id device : cucl_devices()) {
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
    std::vector<cl_device_partition_property> schemes(size / sizeof(cl_device_partition_property));
    ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, size, schemes.data(), nullptr), CL_SUCCESS);
    if (!schemes.empty() && schemes[0] != 0) continue;  // partitionable: not this test's subject

    cl_uint units = info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_COMPUTE_UNITS);
    const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    const cl_device_partition_property by_counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                                      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    const cl_device_partition_property by_affinity[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                        CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
    const cl_device_partition_property unknown[] = {0x4242, 1, 0};
    std::vector<cl_device_id> out(units + 1);
    cl_uint count = 99;
    for (const cl_device_partition_property* properties : {equally, by_counts, by_affinity, unknown}) {
      EXPECT_EQ(clCreateSubDevices(device, properties, static_cast<cl_uint>(out.size()), out.data(), &count),
                CL_INVALID_VALUE);
      EXPECT_EQ(clCreateSubDevices(device, properties, 0, nullptr, &count), CL_INVALID_VALUE);
    }
    EXPECT_EQ(count, 99u);
    EXPECT_EQ(clCreateSubDevices(device, nullptr, 0, nullptr, &count), CL_INVALID_VALUE);
    EXPECT_EQ(clCreateSubDevices(device_as_wrong_kind(cucl_platform()), equally, 0, nullptr, &count),
              CL_INVALID_DEVICE);
  }
}

TEST(Timers, DeviceAndHostTimersAreOrderedAndChecked) {
  for (cl_device_id device : cucl_devices()) {
    cl_ulong host_before = 0, device_time = 0, host_time = 0, host_after = 0, device_later = 0, host_later = 0;
    ASSERT_EQ(clGetHostTimer(device, &host_before), CL_SUCCESS);
    ASSERT_EQ(clGetDeviceAndHostTimer(device, &device_time, &host_time), CL_SUCCESS);
    ASSERT_EQ(clGetHostTimer(device, &host_after), CL_SUCCESS);
    ASSERT_EQ(clGetDeviceAndHostTimer(device, &device_later, &host_later), CL_SUCCESS);
    // One host timebase for both functions, and both clocks are monotonic.
    EXPECT_LE(host_before, host_time);
    EXPECT_LE(host_time, host_after);
    EXPECT_LE(host_after, host_later);
    EXPECT_LE(device_time, device_later);
    if (info_value<cl_device_type>(clGetDeviceInfo, device, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_CPU) {
      // The host device's clock is the host clock, read just before the host timestamp.
      EXPECT_LE(host_before, device_time);
      EXPECT_LE(device_time, host_time);
    }

    cl_ulong value = 0;
    EXPECT_EQ(clGetDeviceAndHostTimer(device, nullptr, &value), CL_INVALID_VALUE);
    EXPECT_EQ(clGetDeviceAndHostTimer(device, &value, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(clGetHostTimer(device, nullptr), CL_INVALID_VALUE);
  }
  cl_device_id wrong = device_as_wrong_kind(cucl_platform());
  cl_ulong a = 0, b = 0;
  EXPECT_EQ(clGetDeviceAndHostTimer(wrong, &a, &b), CL_INVALID_DEVICE);
  EXPECT_EQ(clGetHostTimer(wrong, &a), CL_INVALID_DEVICE);
}

TEST(Platform, UnloadCompilerChecksThePlatform) {
  EXPECT_EQ(clUnloadPlatformCompiler(cucl_platform()), CL_SUCCESS);
  EXPECT_EQ(clUnloadPlatformCompiler(platform_as_wrong_kind(host_device())), CL_INVALID_PLATFORM);
  EXPECT_EQ(clUnloadCompiler(), CL_SUCCESS);
}

}  // namespace

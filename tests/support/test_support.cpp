#include "support/test_support.h"

#include <cstring>
#include <sstream>

namespace cucl_test {

cl_platform_id cucl_platform() {
  cl_uint count = 0;
  EXPECT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS);
  std::vector<cl_platform_id> platforms(count);
  if (count) clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    if (platform_string(platform, CL_PLATFORM_NAME) == "cucl") return platform;
  }
  ADD_FAILURE() << "the loader does not list the cucl platform (OCL_ICD_VENDORS set?)";
  return nullptr;
}

std::vector<cl_device_id> cucl_devices(cl_device_type type) {
  cl_uint count = 0;
  if (clGetDeviceIDs(cucl_platform(), type, 0, nullptr, &count) != CL_SUCCESS) return {};
  std::vector<cl_device_id> devices(count);
  clGetDeviceIDs(cucl_platform(), type, count, devices.data(), nullptr);
  return devices;
}

cl_device_id host_device() {
  auto devices = cucl_devices(CL_DEVICE_TYPE_CPU);
  EXPECT_EQ(devices.size(), 1u) << "cucl always has exactly one host device";
  return devices.empty() ? nullptr : devices[0];
}

// A NUL-terminated string value of any clGet*Info query.
template <class Handle, class Param, class Getter>
static std::string info_string(Getter getter, Handle handle, Param param) {
  size_t size = 0;
  if (getter(handle, param, 0, nullptr, &size) != CL_SUCCESS) return {};
  std::string value(size, '\0');
  getter(handle, param, size, value.data(), nullptr);
  return value.c_str();
}

std::string platform_string(cl_platform_id platform, cl_platform_info param) {
  return info_string(clGetPlatformInfo, platform, param);
}

std::string device_string(cl_device_id device, cl_device_info param) {
  return info_string(clGetDeviceInfo, device, param);
}

bool lists_extension(cl_device_id device, const std::string& name) {
  std::istringstream names(device_string(device, CL_DEVICE_EXTENSIONS));
  std::string listed;
  while (names >> listed) {
    if (listed == name) return true;
  }
  return false;
}

std::vector<cl_name_version> name_versions(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(device, param, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> values(size / sizeof(cl_name_version));
  EXPECT_EQ(clGetDeviceInfo(device, param, size, values.data(), nullptr), CL_SUCCESS);
  return values;
}

bool lists_feature(cl_device_id device, const std::string& name) {
  for (const cl_name_version& feature : name_versions(device, CL_DEVICE_OPENCL_C_FEATURES)) {
    if (name == feature.name) return true;
  }
  return false;
}

cl_version extension_version(cl_device_id device, const std::string& name) {
  for (const cl_name_version& extension : name_versions(device, CL_DEVICE_EXTENSIONS_WITH_VERSION)) {
    if (name == extension.name) return extension.version;
  }
  return 0;
}

Env::Env(cl_device_id device_id, cl_command_queue_properties properties) : device(device_id) {
  cl_int status = CL_SUCCESS;
  context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  queue = clCreateCommandQueue(context, device, properties, &status);
  EXPECT_EQ(status, CL_SUCCESS);
}

Env::~Env() {
  if (queue) {
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  }
  if (context) {
    EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  }
}

cl_uint ref_count(cl_context context) {
  return info_value<cl_uint>(clGetContextInfo, context, CL_CONTEXT_REFERENCE_COUNT);
}

cl_uint ref_count(cl_command_queue queue) {
  return info_value<cl_uint>(clGetCommandQueueInfo, queue, CL_QUEUE_REFERENCE_COUNT);
}

cl_uint ref_count(cl_mem memory) { return info_value<cl_uint>(clGetMemObjectInfo, memory, CL_MEM_REFERENCE_COUNT); }

cl_uint ref_count(cl_event event) { return info_value<cl_uint>(clGetEventInfo, event, CL_EVENT_REFERENCE_COUNT); }

}  // namespace cucl_test

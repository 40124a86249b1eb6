// Platform and device discovery, info, sub-devices, timers and extension lookup.
#include <CL/cl_ext.h>

#include <cstring>

#include "icd/entry.h"
#include "base/clock.h"
#include "platform/info.h"
#include "platform/platform.h"

using namespace cucl;
using cucl::icd::guard;

namespace {

cl_int get_platform_ids(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  return guard([&] {
    check(!(num_entries == 0 && platforms), CL_INVALID_VALUE);
    check(platforms || num_platforms, CL_INVALID_VALUE);
    if (platforms) platforms[0] = Platform::instance().id();
    if (num_platforms) *num_platforms = 1;
  });
}

// A null platform means the one platform, as the spec allows.
Platform& platform_of(cl_platform_id platform) {
  Platform& only = Platform::instance();
  check(platform == nullptr || platform == only.id(), CL_INVALID_PLATFORM);
  return only;
}

constexpr cl_device_type kKnownDeviceTypes =
    CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
    CL_DEVICE_TYPE_CUSTOM;

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                                       cl_uint* num_platforms) {
  return get_platform_ids(num_entries, platforms, num_platforms);
}

}  // extern "C"

namespace {

// Entry points of the extensions cucl reports. Core functions are never listed: the
// spec forbids returning them from clGetExtensionFunctionAddressForPlatform.
struct ExtensionFunction {
  const char* name;
  void* address;
};
const ExtensionFunction kExtensionFunctions[] = {
    {"clIcdGetPlatformIDsKHR", reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR)},
};

}  // namespace

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                                 cl_uint* num_platforms) {
  return get_platform_ids(num_entries, platforms, num_platforms);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) {
  return guard([&] {
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    platform_info(platform_of(platform), param_name, out);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                               cl_uint num_entries, cl_device_id* devices, cl_uint* num_devices) {
  return guard([&] {
    Platform& cucl_platform = platform_of(platform);
    check(device_type == CL_DEVICE_TYPE_ALL ||
              ((device_type & kKnownDeviceTypes) != 0 && (device_type & ~kKnownDeviceTypes) == 0),
          CL_INVALID_DEVICE_TYPE);
    check(!(num_entries == 0 && devices), CL_INVALID_VALUE);
    check(devices || num_devices, CL_INVALID_VALUE);
    std::vector<cl_device_id> found;
    const auto& all = cucl_platform.devices();
    for (size_t i = 0; i < all.size(); ++i) {
      // The first device (the host device) is the default device.
      bool wanted = (all[i]->type() & device_type) || (i == 0 && (device_type & CL_DEVICE_TYPE_DEFAULT));
      if (wanted) found.push_back(all[i]->id());
    }
    check(!found.empty(), CL_DEVICE_NOT_FOUND);
    if (devices) {
      for (cl_uint i = 0; i < num_entries && i < found.size(); ++i) devices[i] = found[i];
    }
    if (num_devices) *num_devices = static_cast<cl_uint>(found.size());
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                                size_t param_value_size, void* param_value,
                                                size_t* param_value_size_ret) {
  return cucl::icd::query<Device>(device, param_name, param_value_size, param_value, param_value_size_ret, device_info);
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                                   const cl_device_partition_property* properties,
                                                   cl_uint num_devices, cl_device_id* out_devices,
                                                   cl_uint* num_devices_ret) {
  return guard([&] {
    lookup<Device>(in_device);
    check(properties != nullptr, CL_INVALID_VALUE);
    // No cucl device can be partitioned (CL_DEVICE_PARTITION_PROPERTIES reports none), so
    // every scheme, known or not, is "not supported by in_device": CL_INVALID_VALUE.
    fail(CL_INVALID_VALUE);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return guard([&] { lookup<Device>(device); });  // root devices are not reference counted
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return guard([&] { lookup<Device>(device); });
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                                                        cl_ulong* host_timestamp) {
  return guard([&] {
    auto cucl_device = lookup<Device>(device);
    check(device_timestamp && host_timestamp, CL_INVALID_VALUE);
    *device_timestamp = cucl_device->backend().device_timer_ns();
    *host_timestamp = now_ns();
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
  return guard([&] {
    lookup<Device>(device);
    check(host_timestamp != nullptr, CL_INVALID_VALUE);
    *host_timestamp = now_ns();
  });
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char* func_name) {
  if (platform != Platform::instance().id()) return nullptr;
  return clGetExtensionFunctionAddress(func_name);
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
  if (!func_name) return nullptr;
  for (const auto& function : kExtensionFunctions) {
    if (std::strcmp(func_name, function.name) == 0) return function.address;
  }
  return nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return guard([&] { check(platform == Platform::instance().id(), CL_INVALID_PLATFORM); });
}

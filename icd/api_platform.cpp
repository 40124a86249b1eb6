// Platform and device discovery, info, sub-devices, timers and extension lookup.
#include <CL/cl_ext.h>

#include <cstring>

#include "icd/entry.h"
#include "icd/extension_functions.h"
#include "platform/memory/buffer_device_address_ext.h"
#include "platform/objects/device_rules.h"
#include "platform/info/info.h"

using namespace cucl;
using cucl::icd::guard;

namespace {

cl_int get_platform_ids(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  return guard([&] { platform_ids(num_entries, platforms, num_platforms); });
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                                       cl_uint* num_platforms) {
  return get_platform_ids(num_entries, platforms, num_platforms);
}

}  // extern "C"

namespace {

using cucl::icd::ExtensionFunction;

const ExtensionFunction kExtensionFunctions[] = {
    {"clIcdGetPlatformIDsKHR", reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR), nullptr},
    {"clCreateProgramWithILKHR", reinterpret_cast<void*>(&clCreateProgramWithILKHR), "cl_khr_il_program"},
    {"clGetKernelSubGroupInfoKHR", reinterpret_cast<void*>(&clGetKernelSubGroupInfoKHR), "cl_khr_subgroups"},
    {"clGetKernelSuggestedLocalWorkSizeKHR", reinterpret_cast<void*>(&clGetKernelSuggestedLocalWorkSizeKHR),
     "cl_khr_suggested_local_work_size"},
    {"clSetKernelArgDevicePointerEXT", reinterpret_cast<void*>(&clSetKernelArgDevicePointerEXT),
     "cl_ext_buffer_device_address"},
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
    platform_info(lookup_platform(platform), param_name, out);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                               cl_uint num_entries, cl_device_id* devices, cl_uint* num_devices) {
  return guard([&] { device_ids(lookup_platform(platform), device_type, num_entries, devices, num_devices); });
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
    create_sub_devices(*lookup<Device>(in_device), properties);
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
    device_and_host_timer(*lookup<Device>(device), device_timestamp, host_timestamp);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
  return guard([&] { host_timer(*lookup<Device>(device), host_timestamp); });
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char* func_name) {
  if (!lookup_or_null<Platform>(platform)) return nullptr;
  return clGetExtensionFunctionAddress(func_name);
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
  if (!func_name) return nullptr;
  for (std::span<const ExtensionFunction> table : {std::span<const ExtensionFunction>(kExtensionFunctions),
                                                   cucl::icd::command_buffer_functions()}) {
    for (const auto& function : table) {
      if (std::strcmp(func_name, function.name) != 0) continue;
      if (!function.device_extension) return function.address;
      for (const Device* device : Platform::instance().devices()) {
        for (const auto& extension : device->description().extensions) {
          if (extension.name == function.device_extension) return function.address;
        }
      }
      return nullptr;
    }
  }
  return nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return guard([&] { lookup<Platform>(platform); });  // null is no platform here
}

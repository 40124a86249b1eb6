// The platform and device calls: clGetPlatformIDs, clGetDeviceIDs, clCreateSubDevices and
// the timers, with their argument rules.
#pragma once

#include "platform/objects/platform.h"

namespace cucl {

// The platform a handle names: null means the one platform, as the specification allows;
// anything else but its handle is CL_INVALID_PLATFORM.
Platform& lookup_platform(cl_platform_id platform);

// clGetPlatformIDs (and clIcdGetPlatformIDsKHR): the one platform.
void platform_ids(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms);

// clGetDeviceIDs: the devices of `type` (Platform::devices_of_type); CL_DEVICE_NOT_FOUND
// when there are none.
void device_ids(const Platform& platform, cl_device_type type, cl_uint num_entries, cl_device_id* devices,
                cl_uint* num_devices);

// clCreateSubDevices: no cucl device can be partitioned, so this only checks and fails.
[[noreturn]] void create_sub_devices(Device& device, const cl_device_partition_property* properties);

// clGetDeviceAndHostTimer and clGetHostTimer.
void device_and_host_timer(const Device& device, cl_ulong* device_timestamp, cl_ulong* host_timestamp);
void host_timer(const Device& device, cl_ulong* host_timestamp);

}  // namespace cucl

#include "platform/objects/device_rules.h"

#include "base/clock.h"
#include "base/error.h"

namespace cucl {
namespace {

// The rules every clGet*IDs call shares for its output list and count.
void check_list_output(cl_uint num_entries, const void* list, const cl_uint* count) {
  check(!(num_entries == 0 && list), CL_INVALID_VALUE);
  check(list || count, CL_INVALID_VALUE);
}

}  // namespace

Platform& lookup_platform(cl_platform_id platform) {
  Platform& only = Platform::instance();
  check(platform == nullptr || platform == only.id(), CL_INVALID_PLATFORM);
  return only;
}

void platform_ids(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  check_list_output(num_entries, platforms, num_platforms);
  if (platforms) platforms[0] = Platform::instance().id();
  if (num_platforms) *num_platforms = 1;
}

void device_ids(const Platform& platform, cl_device_type type, cl_uint num_entries, cl_device_id* devices,
                cl_uint* num_devices) {
  std::vector<Device*> found = platform.devices_of_type(type);
  check_list_output(num_entries, devices, num_devices);
  check(!found.empty(), CL_DEVICE_NOT_FOUND);
  if (devices) {
    for (cl_uint i = 0; i < num_entries && i < found.size(); ++i) devices[i] = found[i]->id();
  }
  if (num_devices) *num_devices = static_cast<cl_uint>(found.size());
}

void create_sub_devices(Device&, const cl_device_partition_property* properties) {
  check(properties != nullptr, CL_INVALID_VALUE);
  // No cucl device can be partitioned (CL_DEVICE_PARTITION_PROPERTIES reports none), so
  // every scheme, known or not, is "not supported by in_device": CL_INVALID_VALUE.
  fail(CL_INVALID_VALUE);
}

void device_and_host_timer(const Device& device, cl_ulong* device_timestamp, cl_ulong* host_timestamp) {
  check(device_timestamp && host_timestamp, CL_INVALID_VALUE);
  *device_timestamp = device.timer_ns();
  *host_timestamp = now_ns();
}

void host_timer(const Device&, cl_ulong* host_timestamp) {
  check(host_timestamp != nullptr, CL_INVALID_VALUE);
  *host_timestamp = now_ns();
}

}  // namespace cucl

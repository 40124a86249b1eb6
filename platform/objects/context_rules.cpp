#include "platform/objects/context_rules.h"

#include <algorithm>

#include "platform/objects/device.h"
#include "base/error.h"
#include "platform/objects/lookup.h"
#include "platform/objects/platform.h"

namespace cucl {
namespace {

// Validates the notify pair and builds the context.
Ref<Context> checked_context(std::vector<Device*> devices, const cl_context_properties* properties,
                             ContextNotify notify, void* user_data) {
  auto validated = context_properties(properties);
  check(notify || !user_data, CL_INVALID_VALUE);
  for (const Device* device : devices) check(device->available(), CL_DEVICE_NOT_AVAILABLE);
  return make<Context>(std::move(devices), std::move(validated), notify, user_data);
}

}  // namespace

std::vector<cl_context_properties> context_properties(const cl_context_properties* properties) {
  std::vector<cl_context_properties> result;
  if (!properties) return result;
  std::vector<cl_context_properties> seen;
  for (const cl_context_properties* p = properties; *p; p += 2) {
    cl_context_properties name = p[0], value = p[1];
    check(std::find(seen.begin(), seen.end(), name) == seen.end(), CL_INVALID_PROPERTY);
    seen.push_back(name);
    switch (name) {
      case CL_CONTEXT_PLATFORM:
        check(reinterpret_cast<cl_platform_id>(value) == Platform::instance().id(), CL_INVALID_PLATFORM);
        break;
      case CL_CONTEXT_INTEROP_USER_SYNC:
        check(value == CL_TRUE || value == CL_FALSE, CL_INVALID_PROPERTY);
        break;
      default: fail(CL_INVALID_PROPERTY);
    }
    result.push_back(name);
    result.push_back(value);
  }
  result.push_back(0);
  return result;
}

Ref<Context> create_context(const cl_context_properties* properties, cl_uint num_devices, const cl_device_id* devices,
                            ContextNotify notify, void* user_data) {
  check(devices && num_devices, CL_INVALID_VALUE);
  std::vector<Device*> members;
  for (cl_uint i = 0; i < num_devices; ++i) {
    auto device = lookup<Device>(devices[i]);
    if (std::find(members.begin(), members.end(), device.get()) == members.end()) members.push_back(device.get());
  }
  return checked_context(std::move(members), properties, notify, user_data);
}

Ref<Context> create_context_from_type(const cl_context_properties* properties, cl_device_type type,
                                      ContextNotify notify, void* user_data) {
  context_properties(properties);  // property errors come before device-type errors
  std::vector<Device*> found = Platform::instance().devices_of_type(type);
  check(!found.empty(), CL_DEVICE_NOT_FOUND);
  std::vector<Device*> members;
  for (Device* device : found) {
    if (device->available()) members.push_back(device);
  }
  check(!members.empty(), CL_DEVICE_NOT_AVAILABLE);
  return checked_context(std::move(members), properties, notify, user_data);
}

}  // namespace cucl

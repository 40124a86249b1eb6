#include "platform/context_rules.h"

#include <algorithm>

#include "platform/device.h"
#include "base/error.h"
#include "platform/platform.h"

namespace cucl {

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

Ref<Context> create_context(std::vector<Device*> devices, const cl_context_properties* properties,
                            ContextNotify notify, void* user_data) {
  auto validated = context_properties(properties);
  check(notify || !user_data, CL_INVALID_VALUE);
  for (const Device* device : devices) check(device->backend().available(), CL_DEVICE_NOT_AVAILABLE);
  return make<Context>(std::move(devices), std::move(validated), notify, user_data);
}

}  // namespace cucl

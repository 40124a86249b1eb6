// TEMPORARY minimal version; the full OpenCL 3.0 query table replaces it.
#include "platform/device.h"
#include "platform/info.h"
#include "platform/platform.h"

namespace cucl {

void device_info(Device& device, cl_device_info param, InfoWriter& out) {
  const auto& d = device.description();
  switch (param) {
    case CL_DEVICE_TYPE: return out.scalar(d.type);
    case CL_DEVICE_NAME: return out.string(d.name);
    case CL_DEVICE_PLATFORM: return out.scalar(Platform::instance().id());
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

// The half of clGetDeviceInfo that names the device: identity and version strings, the
// name/version lists and their string twins, and the queries extensions add.
#pragma once

#include <CL/cl.h>

#include "platform/info/info_writer.h"

namespace cucl {

class Device;

// Answers `param` and returns true when it is one of these queries; false otherwise.
// Throws CL_INVALID_VALUE for an extension query whose extension the device lacks.
bool device_version_info(const Device& device, cl_device_info param, InfoWriter& out);

}  // namespace cucl

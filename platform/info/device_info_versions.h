// The part of clGetDeviceInfo that names the device: identity and version strings, the
// name/version lists and their string twins.
#pragma once

#include <CL/cl.h>

#include "platform/info/info_writer.h"

namespace cucl {

class Device;

// Answers `param` and returns true when it is one of these queries; false otherwise.
bool device_version_info(const Device& device, cl_device_info param, InfoWriter& out);

}  // namespace cucl

// The device queries cl_khr extensions add (device UUID, PCI bus, integer dot product, SPIR-V
// queries, command buffers): each exists only while the device lists the extension that
// defines it.
#pragma once

#include <CL/cl.h>

#include "platform/info/info_writer.h"

namespace cucl {

class Device;

// Answers `param` and returns true when it is one of these queries; false otherwise.
// Throws CL_INVALID_VALUE for a query whose extension the device lacks.
bool device_extension_info(const Device& device, cl_device_info param, InfoWriter& out);

}  // namespace cucl

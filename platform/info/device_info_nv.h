// clGetDeviceInfo's queries of cl_nv_device_attribute_query, which NVIDIA's OpenCL has long
// offered and applications use to pick code for the GPU (CUDA compute capability, warp
// size, registers) and to find it on the PCI bus.
#pragma once

#include <CL/cl.h>

#include "platform/info/info_writer.h"

namespace cucl {

class Device;

// Debian's CL/cl_ext.h (2023) stops at 0x4006; NVIDIA's extension goes on.
inline constexpr cl_device_info kDeviceAsyncEngineCountNv = 0x4007;
inline constexpr cl_device_info kDevicePciBusIdNv = 0x4008;
inline constexpr cl_device_info kDevicePciSlotIdNv = 0x4009;
inline constexpr cl_device_info kDevicePciDomainIdNv = 0x400A;

// Answers `param` and returns true when it is one of the extension's queries (throwing
// CL_INVALID_VALUE when the device does not list the extension); false otherwise.
bool nv_device_attribute_info(const Device& device, cl_device_info param, InfoWriter& out);

}  // namespace cucl

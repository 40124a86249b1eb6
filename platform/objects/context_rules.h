#pragma once

#include <vector>

#include "platform/objects/context.h"

namespace cucl {

// Validates clCreateContext* properties (CL_CONTEXT_PLATFORM, CL_CONTEXT_INTEROP_USER_SYNC)
// and returns them as given, terminator included.
std::vector<cl_context_properties> context_properties(const cl_context_properties* properties);

// clCreateContext: the listed devices (duplicates are ignored, as the spec says), then the
// properties, the notify pair and each device's availability.
Ref<Context> create_context(const cl_context_properties* properties, cl_uint num_devices, const cl_device_id* devices,
                            ContextNotify notify, void* user_data);

// clCreateContextFromType: the properties first, then the devices of `type` that are
// available (CL_DEVICE_NOT_FOUND when the type has none, CL_DEVICE_NOT_AVAILABLE when none
// of them is available).
Ref<Context> create_context_from_type(const cl_context_properties* properties, cl_device_type type,
                                      ContextNotify notify, void* user_data);

}  // namespace cucl

#pragma once

#include <vector>

#include "platform/context.h"

namespace cucl {

// Validates clCreateContext* properties (CL_CONTEXT_PLATFORM, CL_CONTEXT_INTEROP_USER_SYNC)
// and returns them as given, terminator included.
std::vector<cl_context_properties> context_properties(const cl_context_properties* properties);

// Validates the notify pair and builds the context.
Ref<Context> create_context(std::vector<Device*> devices, const cl_context_properties* properties,
                            ContextNotify notify, void* user_data);

}  // namespace cucl

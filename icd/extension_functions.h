// Entry points of the extensions cucl reports, as clGetExtensionFunctionAddress[ForPlatform]
// hands them out. Core functions are never listed: the specification forbids returning them.
#pragma once

#include <span>

namespace cucl::icd {

struct ExtensionFunction {
  const char* name;
  void* address;
  const char* device_extension;  // offered only while a device lists it (null: always)
};

// cl_khr_command_buffer's (api_command_buffer.cpp, which cannot share a translation unit
// with the older prototypes of the system's headers).
std::span<const ExtensionFunction> command_buffer_functions();

}  // namespace cucl::icd

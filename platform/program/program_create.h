// The clCreateProgramWith* rules: what each accepts and the program it makes.
#pragma once

#include <vector>

#include "platform/program/program.h"

namespace cucl {

Ref<Program> create_program_with_source(Ref<Context> context, cl_uint count, const char** strings,
                                        const size_t* lengths);
Ref<Program> create_program_with_il(Ref<Context> context, const void* il, size_t length);
// Writes each device's status to `binary_status` (when given) before any error is thrown.
Ref<Program> create_program_with_binary(Ref<Context> context, cl_uint num_devices, const cl_device_id* device_list,
                                        const size_t* lengths, const unsigned char** binaries,
                                        cl_int* binary_status);
// CL_DEVICE_BUILT_IN_KERNELS is empty on every device: after the device checks, no name in
// the list (not even the empty name of "") is supported (CL_INVALID_VALUE).
[[noreturn]] void create_program_with_built_in_kernels(const Context& context, cl_uint num_devices,
                                                       const cl_device_id* device_list, const char* kernel_names);

}  // namespace cucl

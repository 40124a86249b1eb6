// The arguments of clBuildProgram, clCompileProgram and clLinkProgram (device lists, embedded
// headers, link inputs, the notify pair) and clSetProgramReleaseCallback. Builds run
// synchronously: the notify callback, when given, hears of the end before the call returns.
#pragma once

#include "platform/program/program_build.h"

namespace cucl {

void build_program(Program& program, cl_uint num_devices, const cl_device_id* device_list, const char* options,
                   ProgramNotify notify, void* user_data);

// The headers are programs of `program`'s context, each named by its include name.
void compile_program(Program& program, cl_uint num_devices, const cl_device_id* device_list, const char* options,
                     cl_uint num_input_headers, const cl_program* input_headers, const char** header_include_names,
                     ProgramNotify notify, void* user_data);

// Links programs of `context` for `device_list` (all the context's devices when null).
// Returns the new program, already published (the notify callback gets its handle);
// `link_error` is CL_SUCCESS or CL_LINK_PROGRAM_FAILURE (the program is still returned then,
// with its log).
cl_program link_program(Ref<Context> context, cl_uint num_devices, const cl_device_id* device_list,
                        const char* options, cl_uint num_input_programs, const cl_program* input_programs,
                        ProgramNotify notify, void* user_data, cl_int& link_error);

// No device runs program-scope global destructors, so there is nothing to call back:
// CL_INVALID_OPERATION after the argument check.
[[noreturn]] void set_program_release_callback(Program& program, ProgramNotify notify, void* user_data);

}  // namespace cucl

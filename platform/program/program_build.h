// clBuildProgram, clCompileProgram and clLinkProgram on the devices chosen: the rules of the
// specification around the compiler (platform/compiler/) and each device's code generator.
// program_rules.h checks the calls' other arguments and runs the notify callbacks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "platform/program/program.h"

namespace cucl {

using ProgramNotify = void(CL_CALLBACK*)(cl_program program, void* user_data);

// The devices `device_list` names, each one of `members` (CL_INVALID_DEVICE otherwise), or
// all of `members` when the list is null.
std::vector<Device*> listed_devices(const std::vector<Device*>& members, cl_uint num_devices,
                                    const cl_device_id* device_list);
// The devices a build acts on: `device_list`, or all of the program's when it is null.
// CL_INVALID_VALUE / CL_INVALID_DEVICE as the specification says.
std::vector<Device*> build_devices(const Program& program, cl_uint num_devices, const cl_device_id* device_list);

// Each throws the call's error; CL_BUILD_PROGRAM_FAILURE / CL_COMPILE_PROGRAM_FAILURE
// after recording the log of every device that failed.
void build_on_devices(Program& program, const std::vector<Device*>& devices, const char* options);
void compile_on_devices(Program& program, const std::vector<Device*>& devices, const char* options,
                        const std::vector<std::pair<std::string, Ref<Program>>>& headers);
// Returns the new program; `link_error` is CL_SUCCESS or CL_LINK_PROGRAM_FAILURE (the
// program is still returned then, with its log).
Ref<Program> link_on_devices(Ref<Context> context, const std::vector<Device*>& devices, const char* options,
                             const std::vector<Ref<Program>>& inputs, cl_int& link_error);

}  // namespace cucl

// cl_khr_command_buffer_mutable_dispatch 0.9.5: recording kernel commands (mutable or not)
// with their properties, clUpdateMutableCommandsKHR, and clGetMutableCommandInfoKHR.
#pragma once

#include "platform/command_buffer/command_buffer.h"
#include "platform/info/info_writer.h"

namespace cucl {

// What a mutable command may change, on every device that lists the extension: the range and
// the arguments (execution info is SVM's, which no device has).
inline constexpr cl_mutable_dispatch_fields_khr kMutableDispatchFields =
    CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR | CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR |
    CL_MUTABLE_DISPATCH_ARGUMENTS_KHR;

// clCommandNDRangeKernelKHR after the checks every record call makes: a plain command, or,
// where the application asks for a handle (a mutable buffer only), a mutable one, which may
// be recorded before every argument is set if its arguments are updatable.
void record_kernel(CommandBuffer& buffer, const cl_command_properties_khr* properties, Kernel& kernel,
                   cl_uint work_dim, const size_t* global_work_offset, const size_t* global_work_size,
                   const size_t* local_work_size, cl_sync_point_khr* sync_point, cl_mutable_command_khr* handle);

// All the updates are checked before any is made: an error leaves every command as it was.
void update_mutable_commands(CommandBuffer& buffer, cl_uint num_configs, const cl_uint* config_types,
                             const void** configs);

void mutable_command_info(MutableCommand& command, cl_uint param, InfoWriter& out);

}  // namespace cucl

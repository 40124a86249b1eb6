// cl_khr_command_buffer as version 0.9.8 (1.0) defines it, where Debian's (2023) headers
// have an older version: the names they lack, and the entry points with their 0.9.8
// parameters (every record call takes a properties list). Written from the extension's
// specification. A file that includes this must not see the older prototypes of
// <CL/cl_ext.h>: it defines CL_NO_PROTOTYPES before including any OpenCL header.
#pragma once

#include <CL/cl_ext.h>

typedef cl_properties cl_command_properties_khr;

#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
#define CL_COMMAND_BUFFER_STATE_FINALIZED_KHR 2
#endif

// The version this implementation follows (CL_DEVICE_EXTENSIONS_WITH_VERSION).
#define CUCL_COMMAND_BUFFER_VERSION CL_MAKE_VERSION(0, 9, 8)

// cl_khr_command_buffer_mutable_dispatch 0.9.5: Debian's headers have an older version whose
// update struct starts with a type and a next pointer.
#define CUCL_MUTABLE_DISPATCH_VERSION CL_MAKE_VERSION(0, 9, 5)
#define CUCL_MUTABLE_COMMAND_PROPERTIES_ARRAY 0x12A2          // CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR
#define CUCL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG 0         // CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
#define CUCL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS 0x12B7   // CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR
#define CUCL_MUTABLE_DISPATCH_ASSERTS 0x12B8                  // CL_MUTABLE_DISPATCH_ASSERTS_KHR
#define CUCL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS (1 << 0)
typedef cl_bitfield cl_mutable_dispatch_asserts_khr;
typedef cl_uint cl_command_buffer_update_type_khr;

namespace cucl {
// cl_mutable_dispatch_config_khr as 0.9.5 lays it out.
struct MutableDispatchConfig {
  cl_mutable_command_khr command;
  cl_uint num_args;
  cl_uint num_svm_args;
  cl_uint num_exec_infos;
  cl_uint work_dim;
  const cl_mutable_dispatch_arg_khr* arg_list;
  const cl_mutable_dispatch_arg_khr* arg_svm_list;
  const cl_mutable_dispatch_exec_info_khr* exec_info_list;
  const size_t* global_work_offset;
  const size_t* global_work_size;
  const size_t* local_work_size;
};
}  // namespace cucl

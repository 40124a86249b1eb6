// cl_khr_command_buffer 0.9.8 (1.0) and cl_khr_command_buffer_mutable_dispatch 0.9.5 as an
// application reaches them: the entry points through clGetExtensionFunctionAddressForPlatform,
// with their current parameters (the system's headers declare older versions).
#pragma once

#include <CL/cl_ext.h>

#include "support/test_support.h"

namespace cucl_test {

using cl_command_properties_khr = cl_properties;
constexpr cl_command_buffer_info_khr kCommandBufferContext = 0x1299;                    // CL_COMMAND_BUFFER_CONTEXT_KHR
constexpr cl_device_info kCommandBufferSupportedQueueProperties = 0x129A;  // CL_DEVICE_..._SUPPORTED_QUEUE_PROPERTIES_KHR
constexpr cl_command_buffer_state_khr kCommandBufferStateFinalized = 2;     // CL_COMMAND_BUFFER_STATE_FINALIZED_KHR

// Mutable dispatch 0.9.5's names, where Debian's headers have an older version.
constexpr cl_mutable_command_info_khr kMutableCommandPropertiesArray = 0x12A2;  // CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR
constexpr cl_uint kMutableDispatchConfigType = 0;  // CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
constexpr cl_command_buffer_properties_khr kCommandBufferMutableDispatchAsserts = 0x12B7;
constexpr cl_command_properties_khr kMutableDispatchAsserts = 0x12B8;
constexpr cl_bitfield kAssertNoAdditionalWorkGroups = 1;
// cl_mutable_dispatch_config_khr as 0.9.5 lays it out (no type and next fields).
struct MutableDispatchConfig {
  cl_mutable_command_khr command = nullptr;
  cl_uint num_args = 0;
  cl_uint num_svm_args = 0;
  cl_uint num_exec_infos = 0;
  cl_uint work_dim = 0;
  const cl_mutable_dispatch_arg_khr* arg_list = nullptr;
  const cl_mutable_dispatch_arg_khr* arg_svm_list = nullptr;
  const cl_mutable_dispatch_exec_info_khr* exec_info_list = nullptr;
  const size_t* global_work_offset = nullptr;
  const size_t* global_work_size = nullptr;
  const size_t* local_work_size = nullptr;
};

struct CommandBufferApi {
  cl_command_buffer_khr(CL_API_CALL* create)(cl_uint, const cl_command_queue*, const cl_command_buffer_properties_khr*,
                                             cl_int*) = nullptr;
  cl_int(CL_API_CALL* finalize)(cl_command_buffer_khr) = nullptr;
  cl_int(CL_API_CALL* retain)(cl_command_buffer_khr) = nullptr;
  cl_int(CL_API_CALL* release)(cl_command_buffer_khr) = nullptr;
  cl_int(CL_API_CALL* enqueue)(cl_uint, cl_command_queue*, cl_command_buffer_khr, cl_uint, const cl_event*,
                               cl_event*) = nullptr;
  cl_int(CL_API_CALL* barrier)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*, cl_uint,
                               const cl_sync_point_khr*, cl_sync_point_khr*, cl_mutable_command_khr*) = nullptr;
  cl_int(CL_API_CALL* copy_buffer)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*, cl_mem,
                                   cl_mem, size_t, size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                   cl_sync_point_khr*, cl_mutable_command_khr*) = nullptr;
  cl_int(CL_API_CALL* copy_buffer_rect)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*,
                                        cl_mem, cl_mem, const size_t*, const size_t*, const size_t*, size_t, size_t,
                                        size_t, size_t, cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                        cl_mutable_command_khr*) = nullptr;
  cl_int(CL_API_CALL* fill_buffer)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*, cl_mem,
                                   const void*, size_t, size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                   cl_sync_point_khr*, cl_mutable_command_khr*) = nullptr;
  cl_int(CL_API_CALL* ndrange)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*, cl_kernel,
                               cl_uint, const size_t*, const size_t*, const size_t*, cl_uint, const cl_sync_point_khr*,
                               cl_sync_point_khr*, cl_mutable_command_khr*) = nullptr;
  cl_int(CL_API_CALL* svm_memcpy)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*, void*,
                                  const void*, size_t, cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                  cl_mutable_command_khr*) = nullptr;
  cl_int(CL_API_CALL* copy_image)(cl_command_buffer_khr, cl_command_queue, const cl_command_properties_khr*, cl_mem,
                                  cl_mem, const size_t*, const size_t*, const size_t*, cl_uint,
                                  const cl_sync_point_khr*, cl_sync_point_khr*, cl_mutable_command_khr*) = nullptr;
  cl_int(CL_API_CALL* info)(cl_command_buffer_khr, cl_command_buffer_info_khr, size_t, void*, size_t*) = nullptr;
  cl_int(CL_API_CALL* update)(cl_command_buffer_khr, cl_uint, const cl_uint*, const void**) = nullptr;
  cl_int(CL_API_CALL* mutable_info)(cl_mutable_command_khr, cl_mutable_command_info_khr, size_t, void*,
                                    size_t*) = nullptr;

  // Every pointer, or a test failure naming the first one missing.
  static CommandBufferApi load();
};

}  // namespace cucl_test

// cl_khr_command_buffer 0.9.8 (1.0) as an application reaches it: the entry points through
// clGetExtensionFunctionAddressForPlatform, with the 0.9.8 parameters (the system's
// headers declare an older version).
#pragma once

#include <CL/cl_ext.h>

#include "support/test_support.h"

namespace cucl_test {

using cl_command_properties_khr = cl_properties;
constexpr cl_command_buffer_info_khr kCommandBufferContext = 0x1299;                    // CL_COMMAND_BUFFER_CONTEXT_KHR
constexpr cl_device_info kCommandBufferSupportedQueueProperties = 0x129A;  // CL_DEVICE_..._SUPPORTED_QUEUE_PROPERTIES_KHR

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

  // Every pointer, or a test failure naming the first one missing.
  static CommandBufferApi load();
};

}  // namespace cucl_test

// cl_khr_command_buffer 0.9.8 (1.0): create, finalize, retain, release, enqueue, the record
// calls and clGetCommandBufferInfoKHR; and cl_khr_command_buffer_mutable_dispatch 0.9.5's
// update and query. The system's headers declare an older version of these
// functions with other parameters, so this file sees no prototypes (CL_NO_PROTOTYPES) and
// its definitions are the 0.9.8 ones (platform/command_buffer/command_buffer_khr.h). The
// application finds them through clGetExtensionFunctionAddressForPlatform.
#define CL_NO_PROTOTYPES
#include <CL/cl.h>

#include "icd/entry.h"
#include "icd/extension_functions.h"
#include "platform/command_buffer/command_buffer_rules.h"
#include "platform/command_buffer/mutable_dispatch_rules.h"
#include "platform/memory/buffer_commands.h"
#include "platform/memory/image_commands.h"
#include "platform/memory/memory_rules.h"
#include "platform/memory/svm_commands.h"
#include "platform/program/ndrange.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

namespace {

// The common tail of every record call: the checks all share, then the command's own
// builder (given the buffer's queue), then the recording.
template <class Build>
cl_int record_call(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                   const cl_command_properties_khr* properties, cl_uint num_sync_points,
                   const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
                   cl_mutable_command_khr* mutable_handle, Build&& build) {
  return guard([&] {
    auto buffer = lookup<CommandBuffer>(command_buffer);
    Queue& queue = check_record_call(*buffer, command_queue, properties, num_sync_points, sync_point_wait_list,
                                     mutable_handle);
    record_command(*buffer, build(queue), sync_point);
  });
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_command_buffer_khr CL_API_CALL clCreateCommandBufferKHR(
    cl_uint num_queues, const cl_command_queue* queues, const cl_command_buffer_properties_khr* properties,
    cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_command_buffer_khr>(create_command_buffer(num_queues, queues, properties));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clFinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  return guard([&] { lookup<CommandBuffer>(command_buffer)->finalize(); });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  return cucl::icd::retain<CommandBuffer>(command_buffer);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  return cucl::icd::release<CommandBuffer>(command_buffer);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue* queues,
                                                          cl_command_buffer_khr command_buffer,
                                                          cl_uint num_events_in_wait_list,
                                                          const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto buffer = lookup<CommandBuffer>(command_buffer);
    enqueue_command_buffer(num_queues, queues, *buffer, num_events_in_wait_list, event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandBarrierWithWaitListKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr* properties, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  // Commands run in the order they were recorded: a barrier orders nothing that is not
  // already ordered.
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle, [&](Queue&) {
                       CommandSpec spec;
                       spec.type = CL_COMMAND_BARRIER;
                       spec.operation = backend::op::Nothing{};
                       return spec;
                     });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyBufferKHR(cl_command_buffer_khr command_buffer,
                                                       cl_command_queue command_queue,
                                                       const cl_command_properties_khr* properties, cl_mem src_buffer,
                                                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                                       size_t size, cl_uint num_sync_points_in_wait_list,
                                                       const cl_sync_point_khr* sync_point_wait_list,
                                                       cl_sync_point_khr* sync_point,
                                                       cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle, [&](Queue& queue) {
                       auto src = lookup_buffer(src_buffer);
                       auto dst = lookup_buffer(dst_buffer);
                       return copy_buffer(queue, *src, *dst, src_offset, dst_offset, size);
                     });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyBufferRectKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr* properties,
    cl_mem src_buffer, cl_mem dst_buffer, const size_t* src_origin, const size_t* dst_origin, const size_t* region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle, [&](Queue& queue) {
                       auto src = lookup_buffer(src_buffer);
                       auto dst = lookup_buffer(dst_buffer);
                       return copy_buffer_rect(queue, *src, *dst, {src_origin, src_row_pitch, src_slice_pitch},
                                               {dst_origin, dst_row_pitch, dst_slice_pitch}, region);
                     });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandFillBufferKHR(cl_command_buffer_khr command_buffer,
                                                       cl_command_queue command_queue,
                                                       const cl_command_properties_khr* properties, cl_mem buffer,
                                                       const void* pattern, size_t pattern_size, size_t offset,
                                                       size_t size, cl_uint num_sync_points_in_wait_list,
                                                       const cl_sync_point_khr* sync_point_wait_list,
                                                       cl_sync_point_khr* sync_point,
                                                       cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle, [&](Queue& queue) {
                       auto memory = lookup_buffer(buffer);
                       return fill_buffer(queue, *memory, pattern, pattern_size, offset, size);
                     });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandNDRangeKernelKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr* properties,
    cl_kernel kernel, cl_uint work_dim, const size_t* global_work_offset, const size_t* global_work_size,
    const size_t* local_work_size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  // The only record call that takes properties and hands out a handle (mutable dispatch).
  return guard([&] {
    auto buffer = lookup<CommandBuffer>(command_buffer);
    check_record_call(*buffer, command_queue, nullptr, num_sync_points_in_wait_list, sync_point_wait_list, nullptr);
    auto target = lookup<Kernel>(kernel);
    record_kernel(*buffer, properties, *target, work_dim, global_work_offset, global_work_size, local_work_size,
                  sync_point, mutable_handle);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyBufferToImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr* properties,
    cl_mem src_buffer, cl_mem dst_image, size_t src_offset, const size_t* dst_origin, const size_t* region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle, [&](Queue& queue) {
                       auto src = lookup_buffer(src_buffer);
                       auto dst = lookup_image(dst_image);
                       return copy_buffer_to_image(queue, *src, *dst, src_offset, dst_origin, region);
                     });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr* properties,
    cl_mem src_image, cl_mem dst_image, const size_t* src_origin, const size_t* dst_origin, const size_t* region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle, [&](Queue& queue) {
                       auto src = lookup_image(src_image);
                       auto dst = lookup_image(dst_image);
                       return copy_image(queue, *src, *dst, src_origin, dst_origin, region);
                     });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr* properties,
    cl_mem src_image, cl_mem dst_buffer, const size_t* src_origin, const size_t* region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle, [&](Queue& queue) {
                       auto src = lookup_image(src_image);
                       auto dst = lookup_buffer(dst_buffer);
                       return copy_image_to_buffer(queue, *src, *dst, src_origin, region, dst_offset);
                     });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandFillImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr* properties,
    cl_mem image, const void* fill_color, const size_t* origin, const size_t* region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle, [&](Queue& queue) {
                       auto target = lookup_image(image);
                       return fill_image(queue, *target, fill_color, origin, region);
                     });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandSVMMemcpyKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr* properties,
    void* dst_ptr, const void* src_ptr, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle,
                     [&](Queue& queue) { return svm_memcpy(queue, dst_ptr, src_ptr, size); });
}

CL_API_ENTRY cl_int CL_API_CALL clCommandSVMMemFillKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr* properties,
    void* svm_ptr, const void* pattern, size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
    cl_mutable_command_khr* mutable_handle) {
  return record_call(command_buffer, command_queue, properties, num_sync_points_in_wait_list, sync_point_wait_list,
                     sync_point, mutable_handle,
                     [&](Queue& queue) { return svm_mem_fill(queue, svm_ptr, pattern, pattern_size, size); });
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandBufferInfoKHR(cl_command_buffer_khr command_buffer,
                                                          cl_command_buffer_info_khr param_name,
                                                          size_t param_value_size, void* param_value,
                                                          size_t* param_value_size_ret) {
  return cucl::icd::query<CommandBuffer>(command_buffer, param_name, param_value_size, param_value,
                                         param_value_size_ret, command_buffer_info);
}

CL_API_ENTRY cl_int CL_API_CALL clUpdateMutableCommandsKHR(cl_command_buffer_khr command_buffer, cl_uint num_configs,
                                                           const cl_command_buffer_update_type_khr* config_types,
                                                           const void** configs) {
  return guard([&] {
    auto buffer = lookup<CommandBuffer>(command_buffer);
    update_mutable_commands(*buffer, num_configs, config_types, configs);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetMutableCommandInfoKHR(cl_mutable_command_khr command,
                                                           cl_mutable_command_info_khr param_name,
                                                           size_t param_value_size, void* param_value,
                                                           size_t* param_value_size_ret) {
  return cucl::icd::query<MutableCommand>(command, param_name, param_value_size, param_value, param_value_size_ret,
                                          mutable_command_info);
}

}  // extern "C"

namespace cucl::icd {

std::span<const ExtensionFunction> command_buffer_functions() {
#define CUCL_COMMAND_BUFFER_FUNCTION(name) {#name, reinterpret_cast<void*>(&name), "cl_khr_command_buffer"}
  static const ExtensionFunction kFunctions[] = {
      CUCL_COMMAND_BUFFER_FUNCTION(clCreateCommandBufferKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clFinalizeCommandBufferKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clRetainCommandBufferKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clReleaseCommandBufferKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clEnqueueCommandBufferKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandBarrierWithWaitListKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandCopyBufferKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandCopyBufferRectKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandCopyBufferToImageKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandCopyImageKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandCopyImageToBufferKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandFillBufferKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandFillImageKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandSVMMemcpyKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandSVMMemFillKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clCommandNDRangeKernelKHR),
      CUCL_COMMAND_BUFFER_FUNCTION(clGetCommandBufferInfoKHR),
      {"clUpdateMutableCommandsKHR", reinterpret_cast<void*>(&clUpdateMutableCommandsKHR),
       "cl_khr_command_buffer_mutable_dispatch"},
      {"clGetMutableCommandInfoKHR", reinterpret_cast<void*>(&clGetMutableCommandInfoKHR),
       "cl_khr_command_buffer_mutable_dispatch"},
  };
#undef CUCL_COMMAND_BUFFER_FUNCTION
  return kFunctions;
}

}  // namespace cucl::icd

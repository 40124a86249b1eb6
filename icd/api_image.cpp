// Images, samplers and pipes. Images and samplers exist where a device of the context supports
// them (platform/memory/image*.h, sampler.h); no device supports pipes, so no pipe can exist:
// clCreatePipe reports that and the calls on a pipe handle answer that no such object exists.
#include "icd/entry.h"
#include "platform/info/info.h"
#include "platform/memory/image_commands.h"
#include "platform/memory/image_rules.h"
#include "platform/memory/memory_rules.h"
#include "platform/memory/sampler.h"
#include "platform/queue/enqueue.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                                              const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_mem>(create_image(*lookup<Context>(context), nullptr, flags, image_format, image_desc, host_ptr));
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                                            cl_mem_flags flags, const cl_image_format* image_format,
                                                            const cl_image_desc* image_desc, void* host_ptr,
                                                            cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_mem>(
        create_image(*lookup<Context>(context), properties, flags, image_format, image_desc, host_ptr));
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_row_pitch, void* host_ptr,
                                                cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_mem>(create_legacy_image(*lookup<Context>(context), flags, image_format,
                                               {image_width, image_height, 0, image_row_pitch, 0}, host_ptr));
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void* host_ptr, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_mem>(create_legacy_image(
        *lookup<Context>(context), flags, image_format,
        {image_width, image_height, image_depth, image_row_pitch, image_slice_pitch}, host_ptr));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type, cl_uint num_entries,
                                                           cl_image_format* image_formats,
                                                           cl_uint* num_image_formats) {
  return guard([&] {
    supported_image_formats(*lookup<Context>(context), flags, image_type, num_entries, image_formats,
                            num_image_formats);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    auto found = lookup_image(image);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    image_info(*found, param_name, out);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                                                   const size_t* origin, const size_t* region, size_t row_pitch,
                                                   size_t slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto target = lookup_image(image);
    auto spec = read_image(*queue, *target, origin, region, {row_pitch, slice_pitch}, ptr);
    submit(*queue, std::move(spec), num_events_in_wait_list, event_wait_list, event, blocking_read);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                                    cl_bool blocking_write, const size_t* origin, const size_t* region,
                                                    size_t input_row_pitch, size_t input_slice_pitch, const void* ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto target = lookup_image(image);
    auto spec = write_image(*queue, *target, origin, region, {input_row_pitch, input_slice_pitch}, ptr);
    submit(*queue, std::move(spec), num_events_in_wait_list, event_wait_list, event, blocking_write);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                                                   const size_t* src_origin, const size_t* dst_origin,
                                                   const size_t* region, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto src = lookup_image(src_image);
    auto dst = lookup_image(dst_image);
    submit(*queue, copy_image(*queue, *src, *dst, src_origin, dst_origin, region), num_events_in_wait_list,
           event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                                   const void* fill_color, const size_t* origin, const size_t* region,
                                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                   cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto target = lookup_image(image);
    submit(*queue, fill_image(*queue, *target, fill_color, origin, region), num_events_in_wait_list,
           event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                                           cl_mem dst_buffer, const size_t* src_origin,
                                                           const size_t* region, size_t dst_offset,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto src = lookup_image(src_image);
    auto dst = lookup_buffer(dst_buffer);
    submit(*queue, copy_image_to_buffer(*queue, *src, *dst, src_origin, region, dst_offset), num_events_in_wait_list,
           event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                                           cl_mem dst_image, size_t src_offset,
                                                           const size_t* dst_origin, const size_t* region,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto src = lookup_buffer(src_buffer);
    auto dst = lookup_image(dst_image);
    submit(*queue, copy_buffer_to_image(*queue, *src, *dst, src_offset, dst_origin, region), num_events_in_wait_list,
           event_wait_list, event);
  });
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                                 cl_map_flags map_flags, const size_t* origin, const size_t* region,
                                                 size_t* image_row_pitch, size_t* image_slice_pitch,
                                                 cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                 cl_event* event, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    auto queue = lookup<Queue>(command_queue);
    auto target = lookup_image(image);
    return enqueue_map_image(*queue, *target, blocking_map, map_flags, origin, region, image_row_pitch,
                             image_slice_pitch, num_events_in_wait_list, event_wait_list, event);
  });
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                                    cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_sampler>(create_sampler(*lookup<Context>(context), normalized_coords, addressing_mode,
                                              filter_mode));
  });
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties* sampler_properties,
                                                                  cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_sampler>(create_sampler_with_properties(*lookup<Context>(context), sampler_properties));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) { return cucl::icd::retain<Sampler>(sampler); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) { return cucl::icd::release<Sampler>(sampler); }

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  return cucl::icd::query<Sampler>(sampler, param_name, param_value_size, param_value, param_value_size_ret,
                                   sampler_info);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint,
                                             const cl_pipe_properties*, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem { reject_pipe(*lookup<Context>(context)); });
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info, size_t, void*, size_t*) {
  return guard([&] { lookup_pipe(pipe); });
}

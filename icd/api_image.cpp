// Images, samplers and pipes. No device supports them yet, so no image, sampler or pipe
// object can exist: platform/image_rules.h checks what the specification checks before the
// missing feature and reports the error it gives for it. None of these calls ever claims
// success, except clGetSupportedImageFormats, whose true answer is "no formats"; the calls
// on an image, sampler or pipe handle answer that no such object exists.
#include "icd/entry.h"
#include "platform/objects/context.h"
#include "platform/memory/image_rules.h"
#include "platform/queue/queue.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

namespace {

// Every image command: the queue first, then the image.
cl_int image_command(cl_command_queue command_queue, cl_mem image) {
  return guard([&] {
    lookup<Queue>(command_queue);
    lookup_image(image);
  });
}

}  // namespace

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*,
                                              const cl_image_desc*, void*, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    reject_image(*lookup<Context>(context));
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties*,
                                                            cl_mem_flags, const cl_image_format*,
                                                            const cl_image_desc*, void*, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    reject_image(*lookup<Context>(context));
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_row_pitch, void* host_ptr,
                                                cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    reject_legacy_image(*lookup<Context>(context), flags, image_format,
                        {image_width, image_height, 0, image_row_pitch, 0}, host_ptr);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void* host_ptr, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    reject_legacy_image(*lookup<Context>(context), flags, image_format,
                        {image_width, image_height, image_depth, image_row_pitch, image_slice_pitch}, host_ptr);
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

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info, size_t, void*, size_t*) {
  return guard([&] { lookup_image(image); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool, const size_t*,
                                                   const size_t*, size_t, size_t, void*, cl_uint, const cl_event*,
                                                   cl_event*) {
  return image_command(command_queue, image);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool,
                                                    const size_t*, const size_t*, size_t, size_t, const void*, cl_uint,
                                                    const cl_event*, cl_event*) {
  return image_command(command_queue, image);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem,
                                                   const size_t*, const size_t*, const size_t*, cl_uint,
                                                   const cl_event*, cl_event*) {
  return image_command(command_queue, src_image);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void*,
                                                   const size_t*, const size_t*, cl_uint, const cl_event*,
                                                   cl_event*) {
  return image_command(command_queue, image);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem,
                                                           const size_t*, const size_t*, size_t, cl_uint,
                                                           const cl_event*, cl_event*) {
  return image_command(command_queue, src_image);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem, cl_mem dst_image,
                                                           size_t, const size_t*, const size_t*, cl_uint,
                                                           const cl_event*, cl_event*) {
  return image_command(command_queue, dst_image);
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool, cl_map_flags,
                                                 const size_t*, const size_t*, size_t*, size_t*, cl_uint,
                                                 const cl_event*, cl_event*, cl_int* errcode_ret) {
  if (errcode_ret) *errcode_ret = image_command(command_queue, image);
  return nullptr;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                                    cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_sampler {
    reject_sampler(*lookup<Context>(context), normalized_coords, addressing_mode, filter_mode);
  });
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties* sampler_properties,
                                                                  cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_sampler {
    reject_sampler_with_properties(*lookup<Context>(context), sampler_properties);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return guard([&] { lookup_sampler(sampler); });
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return guard([&] { lookup_sampler(sampler); });
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info, size_t, void*, size_t*) {
  return guard([&] { lookup_sampler(sampler); });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint,
                                             const cl_pipe_properties*, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    reject_pipe(*lookup<Context>(context));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info, size_t, void*, size_t*) {
  return guard([&] { lookup_pipe(pipe); });
}

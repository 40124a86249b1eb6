// Images, samplers and pipes. These are the answers until the image and pipe issues land:
// CL_DEVICE_IMAGE_SUPPORT and CL_DEVICE_PIPE_SUPPORT are false on every device, so no
// image, sampler or pipe object can exist. Every call validates what the specification
// checks before the missing feature, then reports the error it gives for it. None of
// them ever claims success, except clGetSupportedImageFormats, whose true answer is
// "no formats".
#include <limits>

#include "icd/entry.h"
#include "platform/context.h"
#include "platform/memory_rules.h"
#include "platform/queue.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

namespace {

cl_uint channel_count(cl_channel_order order) {
  switch (order) {
    case CL_R: case CL_A: case CL_DEPTH: case CL_LUMINANCE: case CL_INTENSITY:
      return 1;
    case CL_RG: case CL_RA: case CL_Rx:
      return 2;
    case CL_RGB: case CL_RGx: case CL_sRGB:
      return 3;
    case CL_RGBA: case CL_ARGB: case CL_BGRA: case CL_ABGR: case CL_RGBx: case CL_sRGBA: case CL_sBGRA: case CL_sRGBx:
      return 4;
    default:
      return 0;
  }
}

// Bytes per pixel of `format`, or 0 when it is not a valid image format descriptor.
size_t pixel_size(const cl_image_format& format) {
  cl_channel_order order = format.image_channel_order;
  cl_uint channels = channel_count(order);
  if (channels == 0) return 0;
  bool rgb = order == CL_RGB || order == CL_RGBx;
  switch (format.image_channel_data_type) {
    case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
      return channels;
    case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
      return 2 * channels;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT:
      return 4 * channels;
    // Packed types: one value per pixel, and only in the channel orders the table allows.
    case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555:
      return rgb ? 2 : 0;
    case CL_UNORM_INT_101010:
      return rgb ? 4 : 0;
    case CL_UNORM_INT_101010_2:
      return order == CL_RGBA ? 4 : 0;
    default:
      return 0;
  }
}

// clCreateImage2D/3D's pitch rules: 0 without host_ptr; with it, 0 (meaning `count`
// units) or at least that and a multiple of `unit`. Returns the pitch in effect.
size_t checked_pitch(size_t pitch, size_t count, size_t unit, const void* host_ptr) {
  check(count <= std::numeric_limits<size_t>::max() / unit, CL_INVALID_IMAGE_SIZE);
  size_t minimum = count * unit;
  if (!host_ptr) {
    check(pitch == 0, CL_INVALID_IMAGE_SIZE);
  } else {
    check(pitch == 0 || (pitch >= minimum && pitch % unit == 0), CL_INVALID_IMAGE_SIZE);
  }
  return pitch ? pitch : minimum;
}

struct LegacyImage {
  size_t width, height, depth;  // depth 0 for clCreateImage2D
  size_t row_pitch, slice_pitch;
};

// clCreateImage2D/3D list CL_INVALID_OPERATION after the checks of their own arguments.
// The checks against device limits and supported formats are left out: they only have a
// meaning for a device that supports images.
[[noreturn]] void reject_legacy_image(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                                      const LegacyImage& image, const void* host_ptr) {
  lookup<Context>(context);
  check_mem_flags(flags);
  check(format != nullptr, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  size_t pixel = pixel_size(*format);
  check(pixel != 0, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  bool is_3d = image.depth != 0;
  check(image.width != 0 && image.height != 0 && (!is_3d || image.depth > 1), CL_INVALID_IMAGE_SIZE);
  size_t row_pitch = checked_pitch(image.row_pitch, image.width, pixel, host_ptr);
  if (is_3d) checked_pitch(image.slice_pitch, image.height, row_pitch, host_ptr);
  check_host_ptr(flags, host_ptr);
  fail(CL_INVALID_OPERATION);
}

bool is_image_type(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE3D: case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return true;
    default:
      return false;
  }
}

// Every image command: the queue first, then the image, which cannot be a live image.
cl_int reject_image_command(cl_command_queue command_queue) {
  return guard([&] {
    lookup<Queue>(command_queue);
    fail(CL_INVALID_MEM_OBJECT);
  });
}

bool valid_addressing_mode(cl_ulong mode) {
  return mode == CL_ADDRESS_NONE || mode == CL_ADDRESS_CLAMP_TO_EDGE || mode == CL_ADDRESS_CLAMP ||
         mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT;
}

bool valid_filter_mode(cl_ulong mode) { return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR; }

bool valid_bool(cl_ulong value) { return value == CL_TRUE || value == CL_FALSE; }

// The sampler properties of the core specification (the cl_khr_mipmap_image ones are not
// supported), each at most once, with valid values.
void check_sampler_properties(const cl_sampler_properties* properties) {
  if (!properties) return;
  bool seen_coords = false, seen_addressing = false, seen_filter = false;
  for (const cl_sampler_properties* p = properties; *p != 0; p += 2) {
    auto value = static_cast<cl_ulong>(p[1]);
    bool* seen = nullptr;
    bool valid = false;
    switch (p[0]) {
      case CL_SAMPLER_NORMALIZED_COORDS: seen = &seen_coords; valid = valid_bool(value); break;
      case CL_SAMPLER_ADDRESSING_MODE: seen = &seen_addressing; valid = valid_addressing_mode(value); break;
      case CL_SAMPLER_FILTER_MODE: seen = &seen_filter; valid = valid_filter_mode(value); break;
      default: fail(CL_INVALID_VALUE);
    }
    check(!*seen && valid, CL_INVALID_VALUE);
    *seen = true;
  }
}

}  // namespace

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*,
                                              const cl_image_desc*, void*, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    lookup<Context>(context);
    fail(CL_INVALID_OPERATION);  // the specification checks image support right after the context
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties*,
                                                            cl_mem_flags, const cl_image_format*,
                                                            const cl_image_desc*, void*, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    lookup<Context>(context);
    fail(CL_INVALID_OPERATION);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_row_pitch, void* host_ptr,
                                                cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    reject_legacy_image(context, flags, image_format, {image_width, image_height, 0, image_row_pitch, 0}, host_ptr);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void* host_ptr, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    reject_legacy_image(context, flags, image_format,
                        {image_width, image_height, image_depth, image_row_pitch, image_slice_pitch}, host_ptr);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type, cl_uint num_entries,
                                                           cl_image_format* image_formats,
                                                           cl_uint* num_image_formats) {
  return guard([&] {
    lookup<Context>(context);
    check_mem_flags(flags & ~CL_MEM_KERNEL_READ_AND_WRITE);
    check(is_image_type(image_type), CL_INVALID_VALUE);
    check(num_entries != 0 || image_formats == nullptr, CL_INVALID_VALUE);
    // The union of the formats of the context's devices: none supports images.
    if (num_image_formats) *num_image_formats = 0;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem, cl_image_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;  // no image can exist; a buffer is not an image either
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem, cl_bool, const size_t*,
                                                   const size_t*, size_t, size_t, void*, cl_uint, const cl_event*,
                                                   cl_event*) {
  return reject_image_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem, cl_bool, const size_t*,
                                                    const size_t*, size_t, size_t, const void*, cl_uint,
                                                    const cl_event*, cl_event*) {
  return reject_image_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem, cl_mem, const size_t*,
                                                   const size_t*, const size_t*, cl_uint, const cl_event*,
                                                   cl_event*) {
  return reject_image_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem, const void*,
                                                   const size_t*, const size_t*, cl_uint, const cl_event*,
                                                   cl_event*) {
  return reject_image_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem, cl_mem,
                                                           const size_t*, const size_t*, size_t, cl_uint,
                                                           const cl_event*, cl_event*) {
  return reject_image_command(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem, cl_mem, size_t,
                                                           const size_t*, const size_t*, cl_uint, const cl_event*,
                                                           cl_event*) {
  return reject_image_command(command_queue);
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem, cl_bool, cl_map_flags,
                                                 const size_t*, const size_t*, size_t*, size_t*, cl_uint,
                                                 const cl_event*, cl_event*, cl_int* errcode_ret) {
  if (errcode_ret) *errcode_ret = reject_image_command(command_queue);
  return nullptr;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                                    cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_sampler {
    lookup<Context>(context);
    check(valid_bool(normalized_coords) && valid_addressing_mode(addressing_mode) && valid_filter_mode(filter_mode),
          CL_INVALID_VALUE);
    fail(CL_INVALID_OPERATION);  // no device supports images
  });
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties* sampler_properties,
                                                                  cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_sampler {
    lookup<Context>(context);
    check_sampler_properties(sampler_properties);
    fail(CL_INVALID_OPERATION);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler) { return CL_INVALID_SAMPLER; }
CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler) { return CL_INVALID_SAMPLER; }

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler, cl_sampler_info, size_t, void*, size_t*) {
  return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint,
                                             const cl_pipe_properties*, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_mem {
    lookup<Context>(context);
    fail(CL_INVALID_OPERATION);  // CL_DEVICE_PIPE_SUPPORT is false on every device
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;  // no pipe can exist
}

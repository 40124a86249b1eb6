#include "platform/memory/image_rules.h"

#include <limits>

#include "base/error.h"
#include "platform/memory/memory_rules.h"

namespace cucl {
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

bool valid_addressing_mode(cl_ulong mode) {
  return mode == CL_ADDRESS_NONE || mode == CL_ADDRESS_CLAMP_TO_EDGE || mode == CL_ADDRESS_CLAMP ||
         mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT;
}

bool valid_filter_mode(cl_ulong mode) { return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR; }

bool valid_bool(cl_ulong value) { return value == CL_TRUE || value == CL_FALSE; }

}  // namespace

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

bool is_image_type(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE3D: case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return true;
    default:
      return false;
  }
}

void check_sampler_values(cl_bool normalized_coords, cl_addressing_mode addressing_mode, cl_filter_mode filter_mode) {
  check(valid_bool(normalized_coords) && valid_addressing_mode(addressing_mode) && valid_filter_mode(filter_mode),
        CL_INVALID_VALUE);
}

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

void reject_image(const Context&) { fail(CL_INVALID_OPERATION); }

void reject_legacy_image(const Context&, cl_mem_flags flags, const cl_image_format* format, const LegacyImage& image,
                         const void* host_ptr) {
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

void supported_image_formats(const Context&, cl_mem_flags flags, cl_mem_object_type image_type, cl_uint num_entries,
                             cl_image_format* image_formats, cl_uint* num_image_formats) {
  check_mem_flags(flags & ~CL_MEM_KERNEL_READ_AND_WRITE);
  check(is_image_type(image_type), CL_INVALID_VALUE);
  check(num_entries != 0 || image_formats == nullptr, CL_INVALID_VALUE);
  if (num_image_formats) *num_image_formats = 0;
}

void lookup_image(cl_mem) { fail(CL_INVALID_MEM_OBJECT); }

void lookup_sampler(cl_sampler) { fail(CL_INVALID_SAMPLER); }

void lookup_pipe(cl_mem) { fail(CL_INVALID_MEM_OBJECT); }

void reject_sampler(const Context&, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                    cl_filter_mode filter_mode) {
  check_sampler_values(normalized_coords, addressing_mode, filter_mode);
  fail(CL_INVALID_OPERATION);
}

void reject_sampler_with_properties(const Context&, const cl_sampler_properties* properties) {
  check_sampler_properties(properties);
  fail(CL_INVALID_OPERATION);
}

void reject_pipe(const Context&) { fail(CL_INVALID_OPERATION); }

}  // namespace cucl

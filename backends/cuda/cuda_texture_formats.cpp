#include "backends/cuda/cuda_texture_formats.h"

namespace cucl::backend::cuda {
namespace {

// The channels of `order` in memory, where the texture unit can hold them (it takes 1, 2 or 4
// channels a pixel); 0 otherwise.
unsigned texture_channels(cl_channel_order order) {
  switch (order) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: return 1;
    case CL_RG: case CL_RA: return 2;
    case CL_RGBA: case CL_BGRA: case CL_ARGB: case CL_ABGR: case CL_sRGBA: case CL_sBGRA: return 4;
    default: return 0;  // RGB and sRGB (3 channels), the padded (x) orders, depth
  }
}

bool is_srgb(cl_channel_order order) { return order == CL_sRGBA || order == CL_sBGRA; }

}  // namespace

std::optional<TextureFormat> texture_format(const cl_image_format& format) {
  const unsigned channels = texture_channels(format.image_channel_order);
  if (channels == 0) return std::nullopt;
  const bool srgb = is_srgb(format.image_channel_order);
  const auto read_as_float = [&](CUarray_format type) { return TextureFormat{type, channels, false, srgb}; };
  const auto read_as_integer = [&](CUarray_format type) { return TextureFormat{type, channels, true, false}; };
  if (srgb && format.image_channel_data_type != CL_UNORM_INT8) return std::nullopt;
  switch (format.image_channel_data_type) {
    case CL_UNORM_INT8: return read_as_float(CU_AD_FORMAT_UNSIGNED_INT8);
    case CL_UNORM_INT16: return read_as_float(CU_AD_FORMAT_UNSIGNED_INT16);
    case CL_FLOAT: return read_as_float(CU_AD_FORMAT_FLOAT);
    case CL_HALF_FLOAT: return read_as_float(CU_AD_FORMAT_HALF);
    case CL_SIGNED_INT8: return read_as_integer(CU_AD_FORMAT_SIGNED_INT8);
    case CL_SIGNED_INT16: return read_as_integer(CU_AD_FORMAT_SIGNED_INT16);
    case CL_SIGNED_INT32: return read_as_integer(CU_AD_FORMAT_SIGNED_INT32);
    case CL_UNSIGNED_INT8: return read_as_integer(CU_AD_FORMAT_UNSIGNED_INT8);
    case CL_UNSIGNED_INT16: return read_as_integer(CU_AD_FORMAT_UNSIGNED_INT16);
    case CL_UNSIGNED_INT32: return read_as_integer(CU_AD_FORMAT_UNSIGNED_INT32);
    default: return std::nullopt;  // SNORM rounding, packed and 24-bit formats: software
  }
}

}  // namespace cucl::backend::cuda

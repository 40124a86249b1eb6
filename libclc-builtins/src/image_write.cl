// Image writes: the colour converted to the image's format and stored in the pixel at coord.
// A coordinate outside the image, which the spec leaves undefined, writes nothing.
#include "builtin_support.h"
#include "image_format.h"

// The lanes a kind lacks are 0 and its extent there is 1, so they always lie inside.
static bool inside_image(image_descriptor image, int4 coord, int kind) {
  const int4 extent = image_extent(image, kind);
  return (uint)coord.x < (uint)extent.x && (uint)coord.y < (uint)extent.y && (uint)coord.z < (uint)extent.z;
}

void __cucl_image_write_float(image_descriptor image, int4 coord, float4 color, int kind) {
  if (!inside_image(image, coord, kind)) return;
  // The commonest formats first, with the general encoder's conversions but without its
  // dispatch on order and type (which costs a GPU resample a good part of its time).
  if (image->channel_order == CLK_RGBA) {
    __global uchar* pixel = image_pixel(image, coord);
    if (image->channel_data_type == CLK_UNORM_INT8) {
      *(__global pixel_uint*)pixel = pack_bytes(float_to_unorm(color, (double4)255.0)).x;
      return;
    }
    if (image->channel_data_type == CLK_FLOAT) {
      *(__global pixel_uint4*)pixel = as_uint4(color);
      return;
    }
  }
  const image_format format = image_format_of(image);
  store_pixel_bits(image_pixel(image, coord), format.pixel_size, encode_float(format, color));
}

void __cucl_image_write_int(image_descriptor image, int4 coord, int4 color, int kind) {
  if (!inside_image(image, coord, kind)) return;
  const image_format format = image_format_of(image);
  store_pixel_bits(image_pixel(image, coord), format.pixel_size, encode_int(format, color));
}

void __cucl_image_write_uint(image_descriptor image, int4 coord, uint4 color, int kind) {
  if (!inside_image(image, coord, kind)) return;
  const image_format format = image_format_of(image);
  store_pixel_bits(image_pixel(image, coord), format.pixel_size, encode_uint(format, color));
}

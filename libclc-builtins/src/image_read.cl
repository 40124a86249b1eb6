// Image reads at integer coordinates: the sampler-less reads, and the reads with a sampler that
// take int coordinates. Coordinates outside the image (undefined without a sampler or with
// CLK_ADDRESS_NONE) read the nearest pixel inside it; with CLK_ADDRESS_CLAMP they read the
// border colour. The spec leaves reads through any other sampler (normalized, repeating or
// linear) at integer coordinates undefined: they read like CLK_ADDRESS_CLAMP_TO_EDGE.
#include "builtin_support.h"
#include "image_format.h"

// The pixel coordinate of an integer read: an array's layer is always clamped, as is every
// coordinate of a kind that lacks it.
static int4 kind_coord(int4 coord, int kind) {
  const int dimensions = image_dimensions(kind);
  return (int4)(coord.x, dimensions >= 2 ? coord.y : 0,
                dimensions == 3 || image_is_array(kind) ? coord.z : 0, 0);
}

// Whether coord lies outside the image on an axis the addressing mode applies to.
static bool outside_image(int4 coord, int4 extent, int kind) {
  const int dimensions = image_dimensions(kind);
  return (uint)coord.x >= (uint)extent.x || (dimensions >= 2 && (uint)coord.y >= (uint)extent.y) ||
         (dimensions == 3 && (uint)coord.z >= (uint)extent.z);
}

static bool reads_border(image_descriptor image, uint sampler, int4 coord, int kind) {
  return (sampler & SAMPLER_ADDRESS_MASK) == CLK_ADDRESS_CLAMP &&
         outside_image(coord, image_extent(image, kind), kind);
}

static uint4 bits_at(image_descriptor image, image_format format, int4 coord, int kind) {
  return pixel_bits_at(image, format, image_clamp_coord(kind_coord(coord, kind), image_extent(image, kind)));
}

float4 __cucl_image_read_float(image_descriptor image, int4 coord, int kind) {
  const image_format format = image_format_of(image);
  return decode_float(format, bits_at(image, format, coord, kind));
}

int4 __cucl_image_read_int(image_descriptor image, int4 coord, int kind) {
  const image_format format = image_format_of(image);
  return decode_int(format, bits_at(image, format, coord, kind));
}

uint4 __cucl_image_read_uint(image_descriptor image, int4 coord, int kind) {
  return as_uint4(__cucl_image_read_int(image, coord, kind));
}

float4 __cucl_image_sample_float_at(image_descriptor image, uint sampler, int4 coord, int kind) {
  const image_format format = image_format_of(image);
  if (reads_border(image, sampler, coord, kind)) return border_float(format);
  return decode_float(format, bits_at(image, format, coord, kind));
}

int4 __cucl_image_sample_int_at(image_descriptor image, uint sampler, int4 coord, int kind) {
  const image_format format = image_format_of(image);
  if (reads_border(image, sampler, coord, kind)) return border_int(format);
  return decode_int(format, bits_at(image, format, coord, kind));
}

uint4 __cucl_image_sample_uint_at(image_descriptor image, uint sampler, int4 coord, int kind) {
  return as_uint4(__cucl_image_sample_int_at(image, sampler, coord, kind));
}

// Image reads with a sampler at float coordinates: the addressing modes and the nearest and
// linear filters, with the formulas of the environment spec's "Image Addressing and Filtering"
// (the linear filter for read_imagef only; read_imagei and read_imageui always take the nearest
// pixel). An array's layer is clamp(rint(layer), 0, layers - 1) whatever the sampler.
//
// The axes are computed together in a float4 (lanes x, y, z; the lanes a kind lacks, and an
// array's layer lane, are fixed afterwards). Every float becomes an int through floor_to_int,
// and every pixel read is clamped into the image, so no coordinate (NaN, infinite, huge, or
// through a sampler the spec leaves undefined) reads outside it.
#include "builtin_support.h"
#include "image_format.h"

// floor(x) as an int, NaN and values beyond +-2^30 giving +-2^30 (so the conversion is defined,
// and adding or subtracting an image size cannot overflow).
static int4 floor_to_int(float4 x) {
  float4 f = __builtin_elementwise_floor(x);
  f = f >= (float4)-0x1p30f ? f : (float4)-0x1p30f;
  f = f <= (float4)0x1p30f ? f : (float4)0x1p30f;
  return __builtin_convertvector(f, int4);
}

static int4 clamp_int4(int4 x, int4 lo, int4 hi) {
  return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);
}

// The coordinate the mirrored-repeat mode maps s to: |s - 2 rint(s / 2)|, in [0, 1].
static float4 mirror(float4 s) { return __builtin_elementwise_abs(s - 2.0f * ROUNDEVEN(0.5f * s)); }

// The layer of an array: clamp(rint(w), 0, layers - 1), NaN giving 0.
static int array_layer(float w, int layers) {
  float layer = ROUNDEVEN(w);
  layer = layer >= 0.0f ? layer : 0.0f;
  layer = layer <= (float)(layers - 1) ? layer : (float)(layers - 1);
  return (int)layer;
}

// Replaces the lanes of pixel coordinates that the addressing mode does not apply to: those the
// kind lacks (0) and an array's layer.
static int4 fix_other_lanes(int4 i, int kind, int layer) {
  const int dimensions = image_dimensions(kind);
  return (int4)(i.x, dimensions >= 2 ? i.y : 0, dimensions == 3 ? i.z : layer, 0);
}

// The pixel the nearest filter picks on each axis. CLK_ADDRESS_CLAMP may give -1 or the size
// (the border); CLK_ADDRESS_NONE, undefined outside the image, clamps like CLAMP_TO_EDGE.
static int4 nearest_pixel(uint address, bool normalized, float4 s, int4 size) {
  const float4 sizef = __builtin_convertvector(size, float4);
  switch (address) {
    case CLK_ADDRESS_REPEAT: {
      const int4 i = floor_to_int((s - __builtin_elementwise_floor(s)) * sizef);
      return i > size - 1 ? i - size : i;
    }
    case CLK_ADDRESS_MIRRORED_REPEAT:
      return __builtin_elementwise_min(floor_to_int(mirror(s) * sizef), size - 1);
    case CLK_ADDRESS_CLAMP: return clamp_int4(floor_to_int(normalized ? s * sizef : s), (int4)-1, size);
    default: return clamp_int4(floor_to_int(normalized ? s * sizef : s), (int4)0, size - 1);
  }
}

// The two pixels the linear filter weighs on each axis, and the weight of the second.
typedef struct {
  int4 i0, i1;
  float4 weight;
} linear_pixels;

static linear_pixels linear_pair(uint address, bool normalized, float4 s, int4 size) {
  const float4 sizef = __builtin_convertvector(size, float4);
  float4 u;
  switch (address) {
    case CLK_ADDRESS_REPEAT: u = (s - __builtin_elementwise_floor(s)) * sizef; break;
    case CLK_ADDRESS_MIRRORED_REPEAT: u = mirror(s) * sizef; break;
    default: u = normalized ? s * sizef : s; break;
  }
  linear_pixels p;
  p.i0 = floor_to_int(u - 0.5f);
  p.i1 = p.i0 + 1;
  p.weight = (u - 0.5f) - __builtin_elementwise_floor(u - 0.5f);
  switch (address) {
    case CLK_ADDRESS_REPEAT:
      p.i0 = p.i0 < 0 ? size + p.i0 : p.i0;
      p.i1 = p.i1 > size - 1 ? p.i1 - size : p.i1;
      break;
    case CLK_ADDRESS_MIRRORED_REPEAT:
      p.i0 = __builtin_elementwise_max(p.i0, (int4)0);
      p.i1 = __builtin_elementwise_min(p.i1, size - 1);
      break;
    case CLK_ADDRESS_CLAMP:
      p.i0 = clamp_int4(p.i0, (int4)-1, size);
      p.i1 = clamp_int4(p.i1, (int4)-1, size);
      break;
    default:
      p.i0 = clamp_int4(p.i0, (int4)0, size - 1);
      p.i1 = clamp_int4(p.i1, (int4)0, size - 1);
      break;
  }
  return p;
}

static bool outside(int4 i, int4 extent) {
  return (uint)i.x >= (uint)extent.x || (uint)i.y >= (uint)extent.y || (uint)i.z >= (uint)extent.z;
}

// Pixel i's channels in storage order as the linear filter weighs them, decoded as `decode`
// says: none outside the image (the border: transparent black, or opaque black once a missing
// alpha is placed).
static inline float4 texel_channels(image_descriptor image, image_format decode, int4 i, int4 extent) {
  const float4 channels = float_channels(decode, pixel_bits_at(image, decode, image_clamp_coord(i, extent)));
  return outside(i, extent) ? (float4)0.0f : channels;
}

// The weighted sum of the 2, 4 or 8 pixels around the coordinate, in the spec's order (corner n
// takes i1 on the axes whose bit is set in n), with what the orders with a padding channel need:
// those (Rx, RGx, RGBx, sRGBx) read alpha 1 inside the image and 0 in the border, so their alpha
// is the weight of the pixels inside whenever one is outside.
typedef struct {
  float4 sum;
  float inside;
  bool any_outside;
} linear_sum;

// Adds corner n, its pixel decoded as `decode` says (the format itself, or a constant one where
// linear_filter knows it).
static inline __attribute__((always_inline)) void add_corner(linear_sum* s, image_descriptor image,
                                                             image_format decode, linear_pixels p, int4 extent,
                                                             int dimensions, int n) {
  const float4 w1 = p.weight, w0 = 1.0f - p.weight;
  const int4 i = (int4)(n & 1 ? p.i1.x : p.i0.x, n & 2 ? p.i1.y : p.i0.y, n & 4 ? p.i1.z : p.i0.z, 0);
  float weight = n & 1 ? w1.x : w0.x;
  if (dimensions >= 2) weight *= n & 2 ? w1.y : w0.y;
  if (dimensions == 3) weight *= n & 4 ? w1.z : w0.z;
  s->sum += weight * texel_channels(image, decode, i, extent);
  const bool out = outside(i, extent);
  s->any_outside |= out;
  s->inside += out ? 0.0f : weight;
}

static inline float4 linear_sum_to_rgba(image_format format, linear_sum s) {
  const float4 color = float_channels_to_rgba(format, s.sum);
  return s.any_outside && order_has_padding_channel(format.order) ? (float4)(color.xyz, s.inside) : color;
}

// Four float channels, which the GPU filters in software in 3D (backends/cuda/
// cuda_image_arrays.cpp: the texture unit's weights are too coarse for them there), and on the
// host four 8-bit ones, the common layout (the GPU's texture unit filters those): `decode` is a
// constant, and the corners are unrolled so that each axis's clamps and offsets are worked out
// once. (Half channels convert in software, which would make 8 unrolled corners large.)
static inline __attribute__((always_inline)) float4 linear_filter_known(image_descriptor image, image_format format,
                                                                        image_format decode, linear_pixels p,
                                                                        int4 extent, int dimensions) {
  linear_sum s = {(float4)0.0f, 0.0f, false};
#pragma unroll
  for (int n = 0; n < 1 << dimensions; ++n) add_corner(&s, image, decode, p, extent, dimensions, n);
  return linear_sum_to_rgba(format, s);
}

// The linear filter. The formats above get a loop of their own, free of the switches over every
// data type and pixel size; the rest share one loop, not unrolled (the decoding is large).
static float4 linear_filter(image_descriptor image, image_format format, linear_pixels p, int4 extent,
                            int dimensions) {
  if (!order_is_srgb(format.order)) {
    const image_format float4_pixels = {CLK_RGBA, CLK_FLOAT, 16};
    if (format.data_type == CLK_FLOAT && format.pixel_size == 16)
      return linear_filter_known(image, format, float4_pixels, p, extent, dimensions);
#ifndef __NVPTX__
    const image_format unorm8x4_pixels = {CLK_RGBA, CLK_UNORM_INT8, 4};
    if (format.data_type == CLK_UNORM_INT8 && format.pixel_size == 4)
      return linear_filter_known(image, format, unorm8x4_pixels, p, extent, dimensions);
#endif
  }
  linear_sum s = {(float4)0.0f, 0.0f, false};
#pragma nounroll
  for (int n = 0; n < 1 << dimensions; ++n) add_corner(&s, image, format, p, extent, dimensions, n);
  return linear_sum_to_rgba(format, s);
}

#ifdef __NVPTX__
// Answered by the code generator (backends/cuda/codegen/textured_variants.h): true in the
// variant of a kernel that runs only where every read-only image argument of a type textures
// serve (every type but 1D buffers) has a texture in each slot, so that the software sampler, and the registers it needs, leave
// that variant.
bool __cucl_images_textured(void);

// A texture holds an image's channels as they lie in memory (backends/cuda/
// cuda_texture_formats.h), which take OpenCL's places here as on every other read; a channel
// the image lacks is 0 or 1 (1.0f for read_imagef), never what the texture unit puts there.
// Placing channels commutes with the linear filter, whose weights sum to 1, and CUDA's border
// is 0 in every channel, so clamping to the border gives OpenCL's border colour, (0, 0, 0, 0)
// for the orders with alpha and (0, 0, 0, 1) for R, RG and LUMINANCE (the environment spec's
// CL_ADDRESS_CLAMP rule), filtered or not. CL_RGBA, the common order, skips the placement
// with one compare: the empty asm keeps the optimizer from folding that compare into the
// placement's switch, whose search tree would test CL_RGBA (its default) last.
static inline uint4 texture_channels_to_rgba(int order, uint4 t, uint one) {
  if (order == CLK_RGBA) return t;
  __asm__("" : "+r"(order));
  return channels_to_rgba(order, t, one);
}

// Reads through `texture` as a 2D texture (2D images, 1D images and 1D arrays as rows: x, y),
// a 3D texture (3D images: x, y, z) or a layered 2D texture (2D arrays: x, y in `layer`, chosen
// as OpenCL says before the texture unit filters within it). `kind` is a constant.
#define DEFINE_TEXTURE_READ(T, PTX_TYPE, CONSTRAINT, ONE)                                            \
  static T##4 texture_read_##T(image_descriptor image, ulong texture, int kind, float x, float y, float z, \
                               int layer) {                                                        \
    T r, g, b, a;                                                                                  \
    if (kind == IMAGE_3D) {                                                                        \
      __asm__("tex.3d.v4." PTX_TYPE ".f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"                \
              : "=" CONSTRAINT(r), "=" CONSTRAINT(g), "=" CONSTRAINT(b), "=" CONSTRAINT(a)          \
              : "l"(texture), "f"(x), "f"(y), "f"(z));                                             \
    } else if (kind == IMAGE_2D_ARRAY) {                                                           \
      __asm__("tex.a2d.v4." PTX_TYPE ".f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"               \
              : "=" CONSTRAINT(r), "=" CONSTRAINT(g), "=" CONSTRAINT(b), "=" CONSTRAINT(a)          \
              : "l"(texture), "r"(layer), "f"(x), "f"(y));                                         \
    } else {                                                                                       \
      __asm__("tex.2d.v4." PTX_TYPE ".f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"                        \
              : "=" CONSTRAINT(r), "=" CONSTRAINT(g), "=" CONSTRAINT(b), "=" CONSTRAINT(a)          \
              : "l"(texture), "f"(x), "f"(y));                                                     \
    }                                                                                              \
    return as_##T##4(texture_channels_to_rgba(image->channel_order, as_uint4((T##4)(r, g, b, a)), ONE)); \
  }
DEFINE_TEXTURE_READ(float, "f32", "f", as_uint(1.0f))
DEFINE_TEXTURE_READ(int, "s32", "r", 1)
DEFINE_TEXTURE_READ(uint, "u32", "r", 1)

// The texture row a 1D image or a 1D array's layer is read at (backends/cuda/
// cuda_image_sampling.cpp: a 1D image is one row, a 1D array's layers are rows): the row's
// centre, where the linear filter gives the rows beside it no weight, in the sampler's
// coordinates (a 1D image's one row is 0.5 in both).
static float texture_row(image_descriptor image, uint sampler, float layer, int kind) {
  if (kind == IMAGE_1D) return 0.5f;
  const int layers = image->array_size;
  const float centre = (float)array_layer(layer, layers) + 0.5f;
  return sampler & SAMPLER_NORMALIZED_MASK ? centre / (float)layers : centre;
}

// Returns from the calling sampled read of an image of a type textures serve where a texture
// serves it: the texture object the descriptor holds for this sampler state (cucl_image.h), or
// 0. The GPU's texture unit then samples as OpenCL says, filtering included. Images are
// read-only wherever a sampler reads them, so the texture cache cannot miss a write (and a 3D
// image's or 2D array's CUDA array is brought up to date before the launch). The kinds are
// those of sampled_through_textures (backends/image_sampling.h).
#define READ_THROUGH_TEXTURE(T, image, sampler, coord, kind)                                        \
  do {                                                                                              \
    if ((kind) != IMAGE_1D_BUFFER) {                                                                \
      const ulong texture = (image)->textures[CUCL_IMAGE_TEXTURE_SLOT(sampler)];                    \
      if (texture || __cucl_images_textured()) {                                                    \
        const bool rows = (kind) == IMAGE_1D || (kind) == IMAGE_1D_ARRAY;                            \
        const float y = rows ? texture_row(image, sampler, (coord).z, kind) : (coord).y;             \
        const int layer = (kind) == IMAGE_2D_ARRAY ? array_layer((coord).z, (image)->array_size) : 0; \
        return texture_read_##T(image, texture, kind, (coord).x, y, (coord).z, layer);               \
      }                                                                                             \
    }                                                                                               \
  } while (0)
#else
#define READ_THROUGH_TEXTURE(T, image, sampler, coord, kind) ((void)0)
#endif

// The pixel the nearest filter reads, or -1 in x for the border.
static int4 nearest_coord(image_descriptor image, uint sampler, float4 coord, int kind) {
  const int4 extent = image_extent(image, kind);
  const int layer = image_is_array(kind) ? array_layer(coord.z, extent.z) : 0;
  int4 i = nearest_pixel(sampler & SAMPLER_ADDRESS_MASK, sampler & SAMPLER_NORMALIZED_MASK, coord, extent);
  i = fix_other_lanes(i, kind, layer);
  return outside(i, extent) ? (int4)-1 : i;
}

float4 __cucl_image_sample_float(image_descriptor image, uint sampler, float4 coord, int kind) {
  READ_THROUGH_TEXTURE(float, image, sampler, coord, kind);
  const image_format format = image_format_of(image);
  if (!(sampler & SAMPLER_FILTER_LINEAR_BIT)) {
    const int4 i = nearest_coord(image, sampler, coord, kind);
    if (i.x < 0) return border_float(format);
    return decode_float(format, pixel_bits_at(image, format, i));
  }
  const int4 extent = image_extent(image, kind);
  const int layer = image_is_array(kind) ? array_layer(coord.z, extent.z) : 0;
  linear_pixels p =
      linear_pair(sampler & SAMPLER_ADDRESS_MASK, sampler & SAMPLER_NORMALIZED_MASK, coord, extent);
  p.i0 = fix_other_lanes(p.i0, kind, layer);
  p.i1 = fix_other_lanes(p.i1, kind, layer);
  return linear_filter(image, format, p, extent, image_dimensions(kind));
}

int4 __cucl_image_sample_int(image_descriptor image, uint sampler, float4 coord, int kind) {
  READ_THROUGH_TEXTURE(int, image, sampler, coord, kind);
  const image_format format = image_format_of(image);
  const int4 i = nearest_coord(image, sampler, coord, kind);
  if (i.x < 0) return border_int(format);
  return decode_int(format, pixel_bits_at(image, format, i));
}

uint4 __cucl_image_sample_uint(image_descriptor image, uint sampler, float4 coord, int kind) {
  READ_THROUGH_TEXTURE(uint, image, sampler, coord, kind);
  return as_uint4(__cucl_image_sample_int(image, sampler, coord, kind));
}

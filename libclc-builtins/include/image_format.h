// Conversions between a pixel's bits (image_pixel_bits.h) and the colour read_image* returns
// or write_image* takes, for every channel order and data type (OpenCL C "Mapping Image
// Channels to Color Values", the environment spec's "Conversion Rules", and the API spec's
// packed layouts: the first channel in the most significant bits).
//
// Each conversion goes through the channels in storage order: decoding is one switch on the
// data type (bits -> channels; the sRGB orders' 8-bit channels through the transfer function
// instead), then one switch on the order (channels -> r, g, b, a, with the missing ones 0 and
// alpha 1); encoding is the reverse.
// A data type a builtin does not allow (read_imagef of an integer image, ...) gives some value,
// never an access outside the pixel.
#pragma once

#include "half_support.h"
#include "image_pixel_bits.h"
#include "image_support.h"

#ifndef CLK_UNORM_INT_101010_2
#define CLK_UNORM_INT_101010_2 0x10E0  // OpenCL 3.0; not in clang 15's header
#endif

typedef struct {
  int order;
  int data_type;
  int pixel_size;
} image_format;

static inline image_format image_format_of(image_descriptor image) {
  image_format format = {image->channel_order, image->channel_data_type, image->pixel_size};
  return format;
}

// --- channels in storage order <-> r, g, b, a (as bits, so one version serves every result
// type; `one` is the bits of the missing alpha: 1.0f or 1).

static inline uint4 channels_to_rgba(int order, uint4 c, uint one) {
  switch (order) {
    case CLK_R:
    case CLK_Rx:
    case CLK_DEPTH: return (uint4)(c.x, 0, 0, one);
    case CLK_A: return (uint4)(0, 0, 0, c.x);
    case CLK_RG:
    case CLK_RGx: return (uint4)(c.x, c.y, 0, one);
    case CLK_RA: return (uint4)(c.x, 0, 0, c.y);
    case CLK_RGB:
    case CLK_RGBx:
    case CLK_sRGB:
    case CLK_sRGBx: return (uint4)(c.xyz, one);
    case CLK_BGRA:
    case CLK_sBGRA: return c.zyxw;
    case CLK_ARGB: return c.yzwx;
    case CLK_ABGR: return c.wzyx;
    case CLK_INTENSITY: return c.xxxx;
    case CLK_LUMINANCE: return (uint4)(c.xxx, one);
    default: return c;  // CLK_RGBA, CLK_sRGBA
  }
}

// Writes store the red component as the one channel of INTENSITY and LUMINANCE images, and
// whatever lands in a channel the order ignores (the x of Rx, RGx, RGBx).
static inline uint4 rgba_to_channels(int order, uint4 c) {
  switch (order) {
    case CLK_A: return c.wwww;
    case CLK_RA: return c.xwxw;
    case CLK_BGRA:
    case CLK_sBGRA: return c.zyxw;
    case CLK_ARGB: return c.wxyz;
    case CLK_ABGR: return c.wzyx;
    default: return c;
  }
}

// CLK_ADDRESS_CLAMP's border: transparent black where the order has an alpha (or x) channel,
// opaque black where it has none.
static inline uint4 border_bits(int order, uint one) {
  switch (order) {
    case CLK_R:
    case CLK_RG:
    case CLK_RGB:
    case CLK_LUMINANCE:
    case CLK_sRGB:
    case CLK_DEPTH: return (uint4)(0, 0, 0, one);
    default: return (uint4)0;
  }
}

static inline bool order_has_padding_channel(int order) {
  return order == CLK_Rx || order == CLK_RGx || order == CLK_RGBx || order == CLK_sRGBx;
}

static inline bool order_is_srgb(int order) {
  return order == CLK_sRGB || order == CLK_sRGBx || order == CLK_sRGBA || order == CLK_sBGRA;
}

// --- bits <-> channels, by data type.

static inline uint4 byte_channels(uint bits) { return ((uint4)bits >> (uint4)(0, 8, 16, 24)) & 0xffu; }
static inline int4 signed_byte_channels(uint bits) {
  return as_int4((uint4)bits << (uint4)(24, 16, 8, 0)) >> 24;
}
static inline uint4 short_channels(uint4 bits) { return (bits.xxyy >> (uint4)(0, 16, 0, 16)) & 0xffffu; }
static inline int4 signed_short_channels(uint4 bits) {
  return as_int4(bits.xxyy << (uint4)(16, 0, 16, 0)) >> 16;
}
static inline uint4 pack_bytes(uint4 c) { return (uint4)(c.x | c.y << 8 | c.z << 16 | c.w << 24, 0, 0, 0); }
static inline uint4 pack_shorts(uint4 c) { return (uint4)(c.x | c.y << 16, c.z | c.w << 16, 0, 0); }

// c / max, correctly rounded. PTX's correctly rounded division is a long sequence with a slow
// path, four of them per pixel and up to eight pixels per filtered read; the product with the
// reciprocal and one correction step give the same quotient for every channel value of every
// format (checked exhaustively for c in [-max - 1, max]).
static inline float4 divide_by_channel_max(float4 c, float4 max) {
#ifdef __NVPTX__
  const float4 r = 1.0f / max;
  float4 q = c * r;
  const float4 residual = (float4)(__builtin_fmaf(-q.x, max.x, c.x), __builtin_fmaf(-q.y, max.y, c.y),
                                   __builtin_fmaf(-q.z, max.z, c.z), __builtin_fmaf(-q.w, max.w, c.w));
  return (float4)(__builtin_fmaf(residual.x, r.x, q.x), __builtin_fmaf(residual.y, r.y, q.y),
                  __builtin_fmaf(residual.z, r.z, q.z), __builtin_fmaf(residual.w, r.w, q.w));
#else
  return c / max;  // the host's division is one instruction (and the library has no FMA)
#endif
}
static inline float4 unorm_to_float(uint4 c, float4 max) {
  return divide_by_channel_max(__builtin_convertvector(c, float4), max);
}
static inline float4 snorm_to_float(int4 c, float max) {
  return __builtin_elementwise_max(divide_by_channel_max(__builtin_convertvector(c, float4), (float4)max),
                                   (float4)-1.0f);
}

// round_to_nearest_even(clamp(scale * x, lo, hi)), NaN giving 0, ties decided on the exact
// product.
#ifdef __NVPTX__
// In float, as fast as the GPU's fp32 (its fp64 is a fraction of that, and an image write
// converts four channels): the product rounded, p, and its rounding error, e = fma(x, scale,
// -p), exact. Half-integers (below 2^23) are floats, so rounding keeps x * scale and p on the
// same side of each: the two round to the same integer except where p is itself halfway,
// where the sign of e says which way the exact product lies.
static inline int4 float_to_normalized(float4 x, double4 scale_as_double, double4 lo, double4 hi) {
  const float4 scale = __builtin_convertvector(scale_as_double, float4);
  x = x == x ? x : (float4)0.0f;
  const float4 p = x * scale;
  const float4 e = (float4)(__builtin_fmaf(x.x, scale.x, -p.x), __builtin_fmaf(x.y, scale.y, -p.y),
                            __builtin_fmaf(x.z, scale.z, -p.z), __builtin_fmaf(x.w, scale.w, -p.w));
  const float4 below = __builtin_elementwise_floor(p);
  const int4 halfway = p == below + 0.5f;  // not p - below: that could contract into an fma of x
  float4 r = ROUNDEVEN(p);
  r = halfway && e > 0.0f ? below + 1.0f : r;
  r = halfway && e < 0.0f ? below : r;
  r = __builtin_elementwise_min(__builtin_elementwise_max(r, __builtin_convertvector(lo, float4)),
                                __builtin_convertvector(hi, float4));
  return __builtin_convertvector(r, int4);
}
#else
// In double, where the product is exact (24-bit x by at most 16 bits).
static inline int4 float_to_normalized(float4 x, double4 scale, double4 lo, double4 hi) {
  double4 d = __builtin_convertvector(x, double4) * scale;
  d = d == d ? d : (double4)0.0;
  d = __builtin_elementwise_min(__builtin_elementwise_max(d, lo), hi);
  return __builtin_convertvector(ROUNDEVEN(d), int4);
}
#endif
static inline uint4 float_to_unorm(float4 x, double4 max) {
  return as_uint4(float_to_normalized(x, max, (double4)0.0, max));
}
static inline uint4 float_to_snorm(float4 x, double max, uint mask) {
  return as_uint4(float_to_normalized(x, (double4)max, (double4)(-max - 1.0), (double4)max)) & mask;
}

static inline float4 half_channels_to_float(uint4 h) {
  return (float4)(half_bits_to_float((ushort)h.x), half_bits_to_float((ushort)h.y),
                  half_bits_to_float((ushort)h.z), half_bits_to_float((ushort)h.w));
}
static inline uint4 float_to_half_channels(float4 x) {
  return (uint4)(__cucl_double_to_half_bits(x.x, HALF_RTE), __cucl_double_to_half_bits(x.y, HALF_RTE),
                 __cucl_double_to_half_bits(x.z, HALF_RTE), __cucl_double_to_half_bits(x.w, HALF_RTE));
}

static inline float4 channels_to_float(int data_type, uint4 bits) {
  const uint p = bits.x;  // the packed formats
  switch (data_type) {
    case CLK_UNORM_INT8: return unorm_to_float(byte_channels(p), (float4)255.0f);
    case CLK_SNORM_INT8: return snorm_to_float(signed_byte_channels(p), 127.0f);
    case CLK_UNORM_INT16: return unorm_to_float(short_channels(bits), (float4)65535.0f);
    case CLK_SNORM_INT16: return snorm_to_float(signed_short_channels(bits), 32767.0f);
    case CLK_HALF_FLOAT: return half_channels_to_float(short_channels(bits));
    case CLK_FLOAT: return as_float4(bits);
    case CLK_UNORM_SHORT_565:
      return unorm_to_float((uint4)(p >> 11, p >> 5, p, 0) & (uint4)(31, 63, 31, 0), (float4)(31, 63, 31, 1));
    case CLK_UNORM_SHORT_555:
      return unorm_to_float((uint4)(p >> 10, p >> 5, p, 0) & (uint4)(31, 31, 31, 0), (float4)(31, 31, 31, 1));
    case CLK_UNORM_INT_101010:
      return unorm_to_float((uint4)(p >> 20, p >> 10, p, 0) & (uint4)(1023, 1023, 1023, 0),
                            (float4)(1023, 1023, 1023, 1));
    case CLK_UNORM_INT_101010_2:
      return unorm_to_float((uint4)(p >> 22, p >> 12, p >> 2, p) & (uint4)(1023, 1023, 1023, 3),
                            (float4)(1023, 1023, 1023, 3));
    default: return (float4)0.0f;
  }
}

static inline uint4 float_channels_to_bits(int data_type, float4 c) {
  switch (data_type) {
    case CLK_UNORM_INT8: return pack_bytes(float_to_unorm(c, (double4)255.0));
    case CLK_SNORM_INT8: return pack_bytes(float_to_snorm(c, 127.0, 0xffu));
    case CLK_UNORM_INT16: return pack_shorts(float_to_unorm(c, (double4)65535.0));
    case CLK_SNORM_INT16: return pack_shorts(float_to_snorm(c, 32767.0, 0xffffu));
    case CLK_HALF_FLOAT: return pack_shorts(float_to_half_channels(c));
    case CLK_FLOAT: return as_uint4(c);
    case CLK_UNORM_SHORT_565: {
      const uint4 u = float_to_unorm(c, (double4)(31, 63, 31, 0));
      return (uint4)(u.x << 11 | u.y << 5 | u.z, 0, 0, 0);
    }
    case CLK_UNORM_SHORT_555: {
      const uint4 u = float_to_unorm(c, (double4)(31, 31, 31, 0));
      return (uint4)(u.x << 10 | u.y << 5 | u.z, 0, 0, 0);
    }
    case CLK_UNORM_INT_101010: {
      const uint4 u = float_to_unorm(c, (double4)(1023, 1023, 1023, 0));
      return (uint4)(u.x << 20 | u.y << 10 | u.z, 0, 0, 0);
    }
    case CLK_UNORM_INT_101010_2: {
      const uint4 u = float_to_unorm(c, (double4)(1023, 1023, 1023, 3));
      return (uint4)(u.x << 22 | u.y << 12 | u.z << 2 | u.w, 0, 0, 0);
    }
    default: return (uint4)0;
  }
}

// The integer types: signed ones sign-extended, unsigned ones zero-extended to 32 bits.
static inline int4 channels_to_int(int data_type, uint4 bits) {
  switch (data_type) {
    case CLK_SIGNED_INT8: return signed_byte_channels(bits.x);
    case CLK_UNSIGNED_INT8: return as_int4(byte_channels(bits.x));
    case CLK_SIGNED_INT16: return signed_short_channels(bits);
    case CLK_UNSIGNED_INT16: return as_int4(short_channels(bits));
    default: return as_int4(bits);
  }
}

static inline uint4 int_channels_to_bits(int data_type, int4 c) {
  switch (data_type) {
    case CLK_SIGNED_INT8:
      return pack_bytes(as_uint4(__builtin_elementwise_min(__builtin_elementwise_max(c, (int4)-128), (int4)127)) & 0xffu);
    case CLK_SIGNED_INT16:
      return pack_shorts(
          as_uint4(__builtin_elementwise_min(__builtin_elementwise_max(c, (int4)-32768), (int4)32767)) & 0xffffu);
    default: return as_uint4(c);
  }
}

static inline uint4 uint_channels_to_bits(int data_type, uint4 c) {
  switch (data_type) {
    case CLK_UNSIGNED_INT8: return pack_bytes(__builtin_elementwise_min(c, (uint4)255));
    case CLK_UNSIGNED_INT16: return pack_shorts(__builtin_elementwise_min(c, (uint4)65535));
    default: return c;
  }
}

// --- sRGB (OpenCL C "Conversion Rules for sRGBA and sBGRA Images"): the transfer applies to
// r, g and b, which are the first three channels of every sRGB order; alpha is linear.

// Reads compute in double from the 8-bit value: within about half an ulp of the exact result
// (in float, the rounding of c and of the quotient, raised to the power 2.4, gave up to 6 ulp).
static inline float srgb_byte_to_linear(uint v) {
  const double c = (double)v / 255.0;
  return (float)(c <= 0.04045 ? c / 12.92 : powr((c + 0.055) / 1.055, 2.4));
}

static inline uint linear_to_srgb_byte(float c) {
  if (c != c) c = 0.0f;
  if (c > 1.0f) c = 1.0f;
  else if (c < 0.0f) c = 0.0f;
  else if (c < 0.0031308f) c = 12.92f * c;
  else c = 1.055f * powr(c, 1.0f / 2.4f) - 0.055f;
  return (uint)__builtin_floorf(c * 255.0f + 0.5f);
}

// --- whole pixels.

// sRGB images are CL_UNORM_INT8 (other data types read as if they were).
static inline float4 srgb_channels_to_float(uint4 bits) {
  const uint4 v = byte_channels(bits.x);
  return (float4)(srgb_byte_to_linear(v.x), srgb_byte_to_linear(v.y), srgb_byte_to_linear(v.z), (float)v.w / 255.0f);
}

// A pixel's channels as floats in storage order (the sRGB ones made linear), and those (or any
// weighted sum of them) as r, g, b, a: a filter weighs storage-order channels and places them
// once, since placing is linear (a missing alpha is 1 whatever the weights).
static inline float4 float_channels(image_format format, uint4 bits) {
  return order_is_srgb(format.order) ? srgb_channels_to_float(bits) : channels_to_float(format.data_type, bits);
}
static inline float4 float_channels_to_rgba(image_format format, float4 c) {
  return as_float4(channels_to_rgba(format.order, as_uint4(c), as_uint(1.0f)));
}

static inline float4 decode_float(image_format format, uint4 bits) {
  return float_channels_to_rgba(format, float_channels(format, bits));
}

static inline int4 decode_int(image_format format, uint4 bits) {
  return as_int4(channels_to_rgba(format.order, as_uint4(channels_to_int(format.data_type, bits)), 1));
}

static inline uint4 encode_float(image_format format, float4 color) {
  const float4 c = as_float4(rgba_to_channels(format.order, as_uint4(color)));
  if (order_is_srgb(format.order)) {
    const uint alpha = float_to_unorm(c, (double4)255.0).w;
    return pack_bytes((uint4)(linear_to_srgb_byte(c.x), linear_to_srgb_byte(c.y), linear_to_srgb_byte(c.z), alpha));
  }
  return float_channels_to_bits(format.data_type, c);
}

static inline uint4 encode_int(image_format format, int4 color) {
  return int_channels_to_bits(format.data_type, as_int4(rgba_to_channels(format.order, as_uint4(color))));
}

static inline uint4 encode_uint(image_format format, uint4 color) {
  return uint_channels_to_bits(format.data_type, rgba_to_channels(format.order, color));
}

static inline float4 border_float(image_format format) { return as_float4(border_bits(format.order, as_uint(1.0f))); }
static inline int4 border_int(image_format format) { return as_int4(border_bits(format.order, 1)); }

// The pixel at coord, which must be inside the image.
static inline uint4 pixel_bits_at(image_descriptor image, image_format format, int4 coord) {
  return load_pixel_bits(image_pixel(image, coord), format.pixel_size);
}

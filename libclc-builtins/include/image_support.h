// Shared by the image builtins (src/image_*.cl and the wrappers gen/images.py writes): the
// image kinds, the descriptor an image argument points at (cucl_image.h), the extent and
// addresses of its pixels, and the core functions every overload calls.
//
// Every kind addresses a pixel by an int4 (x, y, z, unused): z is the slice of a 3D image or
// the layer of an array (a 1D array's pixels are (x, 0, layer)), and an unused coordinate is 0.
// A float4 coordinate of a sampled read has the same lanes, the layer unnormalized in z.
#pragma once

#include "cucl_image.h"

#define IMAGE_1D 0
#define IMAGE_1D_BUFFER 1
#define IMAGE_1D_ARRAY 2
#define IMAGE_2D 3
#define IMAGE_2D_ARRAY 4
#define IMAGE_3D 5

#define SAMPLER_NORMALIZED_MASK CUCL_SAMPLER_NORMALIZED
#define SAMPLER_ADDRESS_MASK CUCL_SAMPLER_ADDRESS_MASK
#define SAMPLER_FILTER_LINEAR_BIT CUCL_SAMPLER_FILTER_LINEAR

#define IMAGE_DESCRIPTOR(image) __builtin_astype(image, const __global cucl_image*)
#define SAMPLER_BITS(sampler) ((uint)__builtin_astype(sampler, ulong))

typedef const __global cucl_image* image_descriptor;

// The number of coordinates the addressing mode and filter apply to (the layer is not one).
static inline int image_dimensions(int kind) {
  return kind == IMAGE_3D ? 3 : (kind == IMAGE_2D || kind == IMAGE_2D_ARRAY) ? 2 : 1;
}

static inline bool image_is_array(int kind) {
  return kind == IMAGE_1D_ARRAY || kind == IMAGE_2D_ARRAY;
}

// (width, height, depth or layers, 1) of the kind, whatever the descriptor holds for the
// coordinates the kind does not have.
static inline int4 image_extent(image_descriptor image, int kind) {
  const int height = image_dimensions(kind) >= 2 ? image->height : 1;
  const int depth = kind == IMAGE_3D ? image->depth : image_is_array(kind) ? image->array_size : 1;
  return (int4)(image->width, height, depth, 1);
}

// Clamps a pixel coordinate into the image, so that every access stays inside it.
static inline int4 image_clamp_coord(int4 coord, int4 extent) {
  return __builtin_elementwise_min(__builtin_elementwise_max(coord, (int4)0), extent - 1);
}

// The first byte of pixel (x, y, z); the coordinate must be inside the image.
static inline __global uchar* image_pixel(image_descriptor image, int4 coord) {
  return (__global uchar*)image->data + (ulong)(uint)coord.x * (uint)image->pixel_size +
         (ulong)(uint)coord.y * image->row_pitch + (ulong)(uint)coord.z * image->slice_pitch;
}

// The core of the image builtins (src/image_read.cl, image_sample.cl, image_write.cl), for
// any kind; the coordinates as described above.
float4 __cucl_image_read_float(image_descriptor image, int4 coord, int kind);
int4 __cucl_image_read_int(image_descriptor image, int4 coord, int kind);
uint4 __cucl_image_read_uint(image_descriptor image, int4 coord, int kind);
float4 __cucl_image_sample_float_at(image_descriptor image, uint sampler, int4 coord, int kind);
int4 __cucl_image_sample_int_at(image_descriptor image, uint sampler, int4 coord, int kind);
uint4 __cucl_image_sample_uint_at(image_descriptor image, uint sampler, int4 coord, int kind);
float4 __cucl_image_sample_float(image_descriptor image, uint sampler, float4 coord, int kind);
int4 __cucl_image_sample_int(image_descriptor image, uint sampler, float4 coord, int kind);
uint4 __cucl_image_sample_uint(image_descriptor image, uint sampler, float4 coord, int kind);
void __cucl_image_write_float(image_descriptor image, int4 coord, float4 color, int kind);
void __cucl_image_write_int(image_descriptor image, int4 coord, int4 color, int kind);
void __cucl_image_write_uint(image_descriptor image, int4 coord, uint4 color, int kind);

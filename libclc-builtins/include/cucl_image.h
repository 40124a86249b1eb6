// What an image kernel argument points at: one descriptor per image and device, in that
// device's memory, written once when the image is first used there (platform/memory/image.h)
// and read by the image builtins (src/image*.cl). Shared by the OpenCL C library and the C++
// platform, so the layout is fixed-width and 8-byte aligned.
//
// Pixel (x, y, z) of the image lies at data + z * slice_pitch + y * row_pitch + x * pixel_size,
// where z is the slice of a 3D image or the layer of a 2D or 1D array (a 1D array's pixels
// are (x, 0, layer)), so every type addresses pixels the same way.
//
// A sampler kernel argument (and a constant sampler) is the pointer-sized value whose low 32
// bits are the sampler's CLK_* bits: normalized coordinates (CLK_NORMALIZED_COORDS_TRUE = 1),
// addressing mode (CLK_ADDRESS_* = 0, 2, 4, 6, 8) and filter (CLK_FILTER_NEAREST = 0x10,
// CLK_FILTER_LINEAR = 0x20), as clang encodes sampler initializers.
//
// A device that samples with its texture units puts in `textures` one handle per sampler state
// that its hardware serves as OpenCL's rules say (CUCL_IMAGE_TEXTURE_SLOT of the sampler's bits:
// the addressing mode, filter and normalization; 0 where it does not, and on devices that sample
// in software), so that sampled reads of 2D images take the texture path where one exists.
#ifndef CUCL_IMAGE_H
#define CUCL_IMAGE_H

#if defined(__OPENCL_C_VERSION__)
typedef ulong cucl_image_u64;
typedef int cucl_image_i32;
#else
#include <cstdint>
typedef uint64_t cucl_image_u64;
typedef int32_t cucl_image_i32;
#endif

// A sampler's bits. The addressing modes are 2 * (CL_ADDRESS_* - CL_ADDRESS_NONE) (the host's
// names; CUCL_SAMPLER_ADDRESS_BITS gives them).
#define CUCL_SAMPLER_NORMALIZED 0x1u
#define CUCL_SAMPLER_ADDRESS_BITS(cl_addressing_mode) (2u * ((cl_addressing_mode) - CL_ADDRESS_NONE))
#define CUCL_SAMPLER_ADDRESS_MASK 0xEu
#define CUCL_SAMPLER_FILTER_NEAREST 0x10u
#define CUCL_SAMPLER_FILTER_LINEAR 0x20u

#define CUCL_IMAGE_TEXTURE_SLOTS 20
#define CUCL_IMAGE_TEXTURE_SLOT(bits)                                                              \
  ((((bits) & CUCL_SAMPLER_ADDRESS_MASK) * 2u + ((bits) & CUCL_SAMPLER_FILTER_LINEAR ? 2u : 0u) + \
    ((bits) & CUCL_SAMPLER_NORMALIZED)) %                                                          \
   CUCL_IMAGE_TEXTURE_SLOTS)

typedef struct cucl_image {
  cucl_image_u64 data;         // the address kernels on this device use for pixel (0, 0, 0)
  cucl_image_u64 row_pitch;    // bytes from one row to the next
  cucl_image_u64 slice_pitch;  // bytes from one 3D slice, 2D-array layer or 1D-array layer to the next
  cucl_image_i32 width;
  cucl_image_i32 height;       // 1 for 1D types
  cucl_image_i32 depth;        // 1 except for 3D images
  cucl_image_i32 array_size;   // 1 except for array types
  cucl_image_i32 channel_order;      // CL_R ... (the CLK_ values are the same)
  cucl_image_i32 channel_data_type;  // CL_UNORM_INT8 ...
  cucl_image_i32 pixel_size;         // bytes per pixel
  cucl_image_i32 type;               // CL_MEM_OBJECT_IMAGE2D ...
  cucl_image_u64 textures[CUCL_IMAGE_TEXTURE_SLOTS];  // per sampler state; 0: sample in software
} cucl_image;

#endif

// Sampling images in hardware. A device whose texture units can serve sampled reads gives an
// image, once per device, one handle per sampler state it serves exactly as OpenCL's rules
// say (the slots of cucl_image::textures, libclc-builtins/include/cucl_image.h); the image
// builtins sample in software wherever a slot holds 0. The handles stay valid for as long as
// the ImageSampling lives, and the image's pixels with it. Handles may read the pixels
// themselves or a copy of them (reads_a_copy) that each launch reading the image brings up to
// date with the writes before it.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "backends/operations.h"
#include "libclc-builtins/include/cucl_image.h"

namespace cucl::backend {

// What a device needs to know of an image to sample it.
struct SampledImage {
  Location pixels;  // pixel (0, 0, 0) in the device's memory
  cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D;
  cl_image_format format{};
  size_t pixel_size = 0;  // bytes
  size_t width = 0, height = 0, depth = 0;
  size_t array_size = 0;
  size_t row_pitch = 0, slice_pitch = 0;  // bytes; a 1D array's layers are slice_pitch apart
};

// The image types whose sampled reads a kernel's textured entry makes through textures
// (READ_THROUGH_TEXTURE in libclc-builtins/src/image_sample.cl): a launch takes that entry only
// where every read-only image of these types has a texture for each sampler state.
inline bool sampled_through_textures(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE3D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

class ImageSampling {
 public:
  virtual ~ImageSampling() = default;
  // Indexed by CUCL_IMAGE_TEXTURE_SLOT of a sampler's CLK_* bits; 0: software sampling.
  std::array<uint64_t, CUCL_IMAGE_TEXTURE_SLOTS> handles{};

  // The handles read a copy of the pixels (a CUDA array: the texture unit reads 3D images and
  // 2D arrays from nothing else), which a launch sampling the image brings up to date first
  // (op::LaunchKernel::sampled_copies).
  virtual bool reads_a_copy() const { return false; }

  // Every slot holds a handle: kernels reading the image need no software sampler.
  bool serves_every_state() const {
    for (uint64_t handle : handles) {
      if (!handle) return false;
    }
    return true;
  }
};

}  // namespace cucl::backend

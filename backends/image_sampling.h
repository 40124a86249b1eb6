// Sampling images in hardware. A device whose texture units can serve sampled reads gives an
// image, once per device, one handle per sampler state it serves exactly as OpenCL's rules
// say (the slots of cucl_image::textures, libclc-builtins/include/cucl_image.h); the image
// builtins sample in software wherever a slot holds 0. The handles stay valid for as long as
// the ImageSampling lives, and the image's pixels with it.
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
  size_t width = 0, height = 0;
  size_t row_pitch = 0;  // bytes
};

class ImageSampling {
 public:
  virtual ~ImageSampling() = default;
  // Indexed by CUCL_IMAGE_TEXTURE_SLOT of a sampler's CLK_* bits; 0: software sampling.
  std::array<uint64_t, CUCL_IMAGE_TEXTURE_SLOTS> handles{};

  // Every slot holds a handle: kernels reading the image need no software sampler.
  bool serves_every_state() const {
    for (uint64_t handle : handles) {
      if (!handle) return false;
    }
    return true;
  }
};

}  // namespace cucl::backend

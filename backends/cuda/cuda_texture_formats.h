// Which image formats the GPU's texture unit reads as OpenCL does, and how. The texture holds
// an image's channels as they lie in memory (1, 2 or 4 of them: CUDA's x, y, z, w); the image
// builtins then place them as the channel order says (channels_to_rgba in
// libclc-builtins/include/image_format.h), so one texture format serves every order whose
// channels have one of CUDA's element types and counts.
#pragma once

#include <CL/cl.h>
#include <cuda.h>

#include <optional>

namespace cucl::backend::cuda {

struct TextureFormat {
  CUarray_format format;
  unsigned channels;     // in memory, in memory order: 1, 2 or 4
  bool read_as_integer;  // read_imagei/ui formats: no promotion, no linear filter
  bool srgb;             // sRGB to linear before filtering (CU_TRSF_SRGB), alpha left linear
};

// Null for the formats the builtins sample in software: SNORM (the texture unit's rounding),
// packed, 24-bit and 3-channel formats, and the padded (x) and depth orders.
std::optional<TextureFormat> texture_format(const cl_image_format& format);

}  // namespace cucl::backend::cuda

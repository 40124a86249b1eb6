// Sampled image reads through the GPU's texture units, for the images (sampled_through_textures)
// whose format the texture unit reads (cuda_texture_formats.h) and the sampler states whose
// hardware results are OpenCL's (cuda_texture_sampling.cpp): textures over the image's pitched
// linear pixels (CU_RESOURCE_TYPE_PITCH2D) for 2D, 1D and 1D array images, over a CUDA array
// that copies the pixels for 3D images and 2D arrays (cuda_image_arrays.h); the image builtins
// sample the rest in software.
#pragma once

#include <memory>

#include "backends/cuda/cuda_context.h"
#include "backends/image_sampling.h"

namespace cucl::backend::cuda {

// Null where no sampler state of `image` can use a texture.
std::unique_ptr<ImageSampling> sample_image_with_textures(std::shared_ptr<CudaContext> context,
                                                          const SampledImage& image);

}  // namespace cucl::backend::cuda

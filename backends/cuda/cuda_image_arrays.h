// 3D images and 2D arrays sampled through the texture unit, which reads them only from CUDA
// arrays: an array holding a copy of the image's pixels, with a texture per sampler state over
// it. The pixels stay the image's storage (transfers, fills, maps and kernel writes all go
// there); a launch that samples the image first copies them into the array, on the launch's
// stream, when writes were enqueued since the last copy (CudaMemory::writes). Every command
// list with such a launch runs operation by operation, never as a captured graph, so each of
// its launches makes that check.
//
// The copy is ordered after the writes the launch waits for (they precede it on its stream, or
// it waits for their events), and launches on other streams wait for the copy. A write that
// runs unordered against a sampling launch (an OpenCL data race) can leave the array older than
// the pixels until the next write.
#pragma once

#include <memory>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_texture_formats.h"
#include "backends/image_sampling.h"
#include "backends/operations.h"

namespace cucl::backend::cuda {

// Textures over a CUDA array for a 3D image or a 2D array on `pixels` (its own device memory);
// null where the layout, the card's free memory or the driver does not allow one (the builtins
// then sample in software).
std::unique_ptr<ImageSampling> sample_image_through_array(std::shared_ptr<CudaContext> context,
                                                          const CudaMemory& pixels, const SampledImage& image,
                                                          const TextureFormat& format);

// Brings the array of each of `launch`'s sampled copies up to date on `stream`, before the
// launch is enqueued there. The context is current; throws CudaError.
void refresh_sampled_copies(CUstream stream, const op::LaunchKernel& launch);

}  // namespace cucl::backend::cuda

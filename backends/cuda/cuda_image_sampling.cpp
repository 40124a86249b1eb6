#include "backends/cuda/cuda_image_sampling.h"

#include <optional>

#include "backends/cuda/cuda_image_arrays.h"
#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_texture_formats.h"
#include "backends/cuda/cuda_texture_sampling.h"
#include "base/align_up.h"

namespace cucl::backend::cuda {
namespace {

// The rows of pitched linear memory a texture reads an image as: a 2D image's rows, a 1D
// image as one row, a 1D array's layers as rows (the builtins read each layer at its rows'
// centre, where the linear filter weighs no other layer). Null for the other types.
std::optional<CUDA_RESOURCE_DESC> texture_rows(const SampledImage& image, CUdeviceptr address, size_t pitch_alignment) {
  CUDA_RESOURCE_DESC resource{};
  resource.resType = CU_RESOURCE_TYPE_PITCH2D;
  resource.res.pitch2D.devPtr = address;
  resource.res.pitch2D.width = image.width;
  switch (image.type) {
    case CL_MEM_OBJECT_IMAGE2D:
      resource.res.pitch2D.height = image.height;
      resource.res.pitch2D.pitchInBytes = image.row_pitch;
      break;
    case CL_MEM_OBJECT_IMAGE1D:  // one row: any pitch that holds it
      resource.res.pitch2D.height = 1;
      resource.res.pitch2D.pitchInBytes = align_up(image.row_pitch, pitch_alignment);
      break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      resource.res.pitch2D.height = image.array_size;
      resource.res.pitch2D.pitchInBytes = image.slice_pitch;
      break;
    default: return std::nullopt;
  }
  return resource;
}

// Whether the texture unit can address the rows as they lie.
bool fits_texture_limits(const PitchedTextureLimits& limits, const CUDA_RESOURCE_DESC& resource) {
  const auto& rows = resource.res.pitch2D;
  if (limits.address_alignment == 0 || limits.pitch_alignment == 0) return false;
  return rows.devPtr % limits.address_alignment == 0 && rows.pitchInBytes % limits.pitch_alignment == 0 &&
         rows.width <= limits.max_width && rows.height <= limits.max_height && rows.pitchInBytes <= limits.max_pitch;
}

}  // namespace

std::unique_ptr<ImageSampling> sample_image_with_textures(std::shared_ptr<CudaContext> context,
                                                          const SampledImage& image) {
  if (!sampled_through_textures(image.type) || !image.pixels.memory || context->lost()) return nullptr;
  const std::optional<TextureFormat> format = texture_format(image.format);
  if (!format) return nullptr;
  const auto& memory = static_cast<const CudaMemory&>(*image.pixels.memory);
  if (memory.host_address(0)) return nullptr;  // the application's registered pages: software
  context->make_current();
  if (image.type == CL_MEM_OBJECT_IMAGE3D || image.type == CL_MEM_OBJECT_IMAGE2D_ARRAY) {
    return sample_image_through_array(std::move(context), memory, image, *format);
  }
  const PitchedTextureLimits& limits = context->pitched_texture_limits();
  if (limits.pitch_alignment == 0) return nullptr;
  std::optional<CUDA_RESOURCE_DESC> resource =
      texture_rows(image, memory.device_address(image.pixels.offset), limits.pitch_alignment);
  if (!resource || !fits_texture_limits(limits, *resource)) return nullptr;
  resource->res.pitch2D.format = format->format;
  resource->res.pitch2D.numChannels = format->channels;
  auto sampling = std::make_unique<TextureSampling>(std::move(context));
  if (!sampling->add_every_state(*resource, *format)) return nullptr;
  return sampling;
}

}  // namespace cucl::backend::cuda

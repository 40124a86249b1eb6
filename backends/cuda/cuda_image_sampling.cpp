#include "backends/cuda/cuda_image_sampling.h"

#include <optional>

#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_texture_formats.h"
#include "base/align_up.h"

namespace cucl::backend::cuda {
namespace {

constexpr unsigned kAddressNone = CUCL_SAMPLER_ADDRESS_BITS(CL_ADDRESS_NONE),
                   kClampToEdge = CUCL_SAMPLER_ADDRESS_BITS(CL_ADDRESS_CLAMP_TO_EDGE),
                   kClamp = CUCL_SAMPLER_ADDRESS_BITS(CL_ADDRESS_CLAMP),
                   kRepeat = CUCL_SAMPLER_ADDRESS_BITS(CL_ADDRESS_REPEAT),
                   kMirroredRepeat = CUCL_SAMPLER_ADDRESS_BITS(CL_ADDRESS_MIRRORED_REPEAT);

// The CUDA addressing mode of a CLK_ADDRESS_* value. CUDA takes WRAP and MIRROR only with
// normalized coordinates, as OpenCL defines REPEAT and MIRRORED_REPEAT only with them.
std::optional<CUaddress_mode> address_mode(unsigned address, bool normalized) {
  switch (address) {
    case kAddressNone:  // undefined outside the image: clamping is one right answer
    case kClampToEdge: return CU_TR_ADDRESS_MODE_CLAMP;
    case kClamp: return CU_TR_ADDRESS_MODE_BORDER;
    case kRepeat:
      return normalized ? std::optional<CUaddress_mode>(CU_TR_ADDRESS_MODE_WRAP) : std::nullopt;
    case kMirroredRepeat:
      return normalized ? std::optional<CUaddress_mode>(CU_TR_ADDRESS_MODE_MIRROR) : std::nullopt;
    default: return std::nullopt;
  }
}

// The sampler state whose texture also serves `bits`, where OpenCL leaves the results of
// `bits` undefined: REPEAT and MIRRORED_REPEAT with unnormalized coordinates read as
// CLAMP_TO_EDGE, and read_imagei/ui take the nearest pixel whatever the filter (as the
// software sampler does). So every slot of an image of a texture format holds a texture,
// and kernels reading it may leave the software sampler out (ImageSampling::serves_every_state).
unsigned served_state(unsigned bits, const TextureFormat& format) {
  const unsigned address = bits & CUCL_SAMPLER_ADDRESS_MASK;
  if (!(bits & CUCL_SAMPLER_NORMALIZED) && (address == kRepeat || address == kMirroredRepeat)) {
    bits = (bits & ~CUCL_SAMPLER_ADDRESS_MASK) | kClampToEdge;
  }
  if (format.read_as_integer) bits = (bits & ~CUCL_SAMPLER_FILTER_LINEAR) | CUCL_SAMPLER_FILTER_NEAREST;
  return bits;
}

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

class TextureSampling final : public ImageSampling {
 public:
  explicit TextureSampling(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {}
  TextureSampling(const TextureSampling&) = delete;
  TextureSampling& operator=(const TextureSampling&) = delete;
  ~TextureSampling() override {
    try {
      context_->make_current();
    } catch (const CudaError&) {
      return;  // the context is gone, and its texture objects with it
    }
    for (uint64_t handle : handles) {
      if (handle) context_->driver().cuTexObjectDestroy(static_cast<CUtexObject>(handle));
    }
  }

  // A texture for sampler bits `bits` in its slot; false (the slot stays 0) where the driver
  // refuses it.
  bool add(unsigned bits, const CUDA_RESOURCE_DESC& resource, const TextureFormat& format) {
    const unsigned served = served_state(bits, format);
    const bool normalized = served & CUCL_SAMPLER_NORMALIZED;
    const bool linear = served & CUCL_SAMPLER_FILTER_LINEAR;
    const std::optional<CUaddress_mode> mode = address_mode(served & CUCL_SAMPLER_ADDRESS_MASK, normalized);
    if (!mode) return false;
    // The texture unit filters sRGB coarser than OpenCL allows: between two pixels it gave
    // channels 1/270 off (CTS image_streams, 1D, linear CL_sRGBA and CL_sBGRA on the H100);
    // its nearest pixel is right.
    if (format.srgb && linear) return false;
    CUDA_TEXTURE_DESC texture{};
    texture.addressMode[0] = texture.addressMode[1] = texture.addressMode[2] = *mode;
    texture.filterMode = linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    texture.flags = (normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0u) |
                    (format.read_as_integer ? CU_TRSF_READ_AS_INTEGER : 0u) | (format.srgb ? CU_TRSF_SRGB : 0u);
    // kClamp's border: the zeroed default, (0, 0, 0, 0) in memory's channels, which the
    // builtins' placement turns into every order's border colour (see READ_THROUGH_TEXTURE in
    // libclc-builtins/src/image_sample.cl).
    CUtexObject object = 0;
    if (context_->driver().cuTexObjectCreate(&object, &resource, &texture, nullptr) != CUDA_SUCCESS) return false;
    handles[CUCL_IMAGE_TEXTURE_SLOT(bits)] = object;
    return true;
  }

 private:
  std::shared_ptr<CudaContext> context_;
};

}  // namespace

std::unique_ptr<ImageSampling> sample_image_with_textures(std::shared_ptr<CudaContext> context,
                                                          const SampledImage& image) {
  if (!sampled_through_textures(image.type) || !image.pixels.memory || context->lost()) return nullptr;
  const std::optional<TextureFormat> format = texture_format(image.format);
  if (!format) return nullptr;
  const auto& memory = static_cast<const CudaMemory&>(*image.pixels.memory);
  if (memory.host_address(0)) return nullptr;  // the application's registered pages: software
  const PitchedTextureLimits& limits = context->pitched_texture_limits();
  if (limits.pitch_alignment == 0) return nullptr;
  std::optional<CUDA_RESOURCE_DESC> resource =
      texture_rows(image, memory.device_address(image.pixels.offset), limits.pitch_alignment);
  if (!resource || !fits_texture_limits(limits, *resource)) return nullptr;
  resource->res.pitch2D.format = format->format;
  resource->res.pitch2D.numChannels = format->channels;

  context->make_current();
  auto sampling = std::make_unique<TextureSampling>(context);
  bool any = false;
  for (unsigned normalized : {0u, CUCL_SAMPLER_NORMALIZED}) {
    for (unsigned address : {kAddressNone, kClampToEdge, kClamp, kRepeat, kMirroredRepeat}) {
      for (unsigned filter : {CUCL_SAMPLER_FILTER_NEAREST, CUCL_SAMPLER_FILTER_LINEAR}) {
        any = sampling->add(normalized | address | filter, *resource, *format) || any;
      }
    }
  }
  if (!any) return nullptr;
  return sampling;
}

}  // namespace cucl::backend::cuda

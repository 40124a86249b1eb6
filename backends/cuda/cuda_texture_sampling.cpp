#include "backends/cuda/cuda_texture_sampling.h"

#include <optional>

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

}  // namespace

bool TextureSampling::add_every_state(const CUDA_RESOURCE_DESC& resource, const TextureFormat& format,
                                      bool linear) {
  bool any = false;
  for (unsigned normalized : {0u, CUCL_SAMPLER_NORMALIZED}) {
    for (unsigned address : {kAddressNone, kClampToEdge, kClamp, kRepeat, kMirroredRepeat}) {
      for (unsigned filter : {CUCL_SAMPLER_FILTER_NEAREST, CUCL_SAMPLER_FILTER_LINEAR}) {
        any = add(normalized | address | filter, resource, format, linear) || any;
      }
    }
  }
  return any;
}

// A texture for sampler bits `bits` in its slot; false (the slot stays 0) where the driver
// refuses it.
bool TextureSampling::add(unsigned bits, const CUDA_RESOURCE_DESC& resource, const TextureFormat& format,
                          bool linear_allowed) {
  const unsigned served = served_state(bits, format);
  const bool normalized = served & CUCL_SAMPLER_NORMALIZED;
  const bool linear = served & CUCL_SAMPLER_FILTER_LINEAR;
  const std::optional<CUaddress_mode> mode = address_mode(served & CUCL_SAMPLER_ADDRESS_MASK, normalized);
  if (!mode || (linear && !linear_allowed)) return false;
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

void TextureSampling::destroy_textures() noexcept {
  try {
    context_->make_current();
  } catch (const CudaError&) {
    return;  // the context is gone, and its texture objects with it
  }
  for (uint64_t& handle : handles) {
    if (handle) context_->driver().cuTexObjectDestroy(static_cast<CUtexObject>(handle));
    handle = 0;
  }
}

}  // namespace cucl::backend::cuda

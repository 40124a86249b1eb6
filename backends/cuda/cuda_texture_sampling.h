// The texture objects of one image: one per sampler state (CUCL_IMAGE_TEXTURE_SLOT), each
// over the same CUDA resource (an image's pitched rows, or a CUDA array holding a copy of its
// pixels), with the addressing, filter and coordinate mode of its state, for the states whose
// hardware results are OpenCL's. Destroyed with the object.
#pragma once

#include <memory>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_texture_formats.h"
#include "backends/image_sampling.h"

namespace cucl::backend::cuda {

class TextureSampling : public ImageSampling {
 public:
  explicit TextureSampling(std::shared_ptr<CudaContext> context) : context_(std::move(context)) {}
  TextureSampling(const TextureSampling&) = delete;
  TextureSampling& operator=(const TextureSampling&) = delete;
  ~TextureSampling() override { destroy_textures(); }

  // A texture over `resource` for every sampler state the texture unit serves (in its slot),
  // the linear filter's states only where `linear`; false where it serves none. The context
  // is current.
  bool add_every_state(const CUDA_RESOURCE_DESC& resource, const TextureFormat& format, bool linear = true);

 protected:
  CudaContext& context() const { return *context_; }
  // Leaves every slot 0; a subclass owning the resource calls it before it frees that.
  void destroy_textures() noexcept;

 private:
  bool add(unsigned bits, const CUDA_RESOURCE_DESC& resource, const TextureFormat& format, bool linear);

  std::shared_ptr<CudaContext> context_;
};

}  // namespace cucl::backend::cuda

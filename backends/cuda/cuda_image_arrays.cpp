#include "backends/cuda/cuda_image_arrays.h"

#include <limits>
#include <mutex>

#include "backends/cuda/cuda_texture_sampling.h"

namespace cucl::backend::cuda {
namespace {

// The texture unit's linear filter weighs with 8 fractional bits per axis. Over a 3D
// image's 8 pixels of a float or half format, whose values may differ in sign, that is
// coarser than the CTS accepts (image_streams 3D, CL_FLOAT and CL_HALF_FLOAT: 2^-7 of the
// largest pixel, exceeded on the H100); the software sampler filters those. Normalized
// formats (UNORM; SNORM is never a texture format) stay within it.
bool floating(const TextureFormat& format) {
  return format.format == CU_AD_FORMAT_FLOAT || format.format == CU_AD_FORMAT_HALF;
}

class ArraySampling final : public TextureSampling {
 public:
  ArraySampling(std::shared_ptr<CudaContext> context, const CudaMemory& pixels)
      : TextureSampling(std::move(context)), pixels_(pixels) {}
  ~ArraySampling() override {
    destroy_textures();  // before the array they read
    try {
      context().make_current();
    } catch (const CudaError&) {
      return;  // the context is gone, and its arrays and events with it
    }
    if (copied_event_) context().driver().cuEventDestroy(copied_event_);
    if (array_) context().driver().cuArrayDestroy(array_);
  }

  bool reads_a_copy() const override { return true; }

  // The array, the copy that fills it and its textures; false where the driver refuses one.
  bool create(const SampledImage& image, const TextureFormat& format) {
    const bool layered = image.type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    const size_t layers = layered ? image.array_size : image.depth;
    if (image.row_pitch == 0 || image.slice_pitch % image.row_pitch != 0) return false;
    CUDA_ARRAY3D_DESCRIPTOR shape{};
    shape.Width = image.width;
    shape.Height = image.height;
    shape.Depth = layers;
    shape.Format = format.format;
    shape.NumChannels = format.channels;
    shape.Flags = layered ? CUDA_ARRAY3D_LAYERED : 0u;
    const CudaDriver& driver = context().driver();
    // The copy only buys speed: it takes no memory the application may still want (it would
    // leave less than a quarter of the card free), and the image then samples in software.
    const size_t bytes = image.width * image.height * layers * image.pixel_size;
    size_t free = 0, total = 0;
    if (context().free_memory(&free, &total) != CUDA_SUCCESS || bytes > free || free - bytes < total / 4) return false;
    if (driver.cuArray3DCreate(&array_, &shape) != CUDA_SUCCESS) {
      array_ = nullptr;
      return false;
    }
    if (driver.cuEventCreate(&copied_event_, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
      copied_event_ = nullptr;
      return false;
    }
    copy_.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy_.srcDevice = pixels_.device_address(image.pixels.offset);
    copy_.srcPitch = image.row_pitch;
    copy_.srcHeight = image.slice_pitch / image.row_pitch;
    copy_.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    copy_.dstArray = array_;
    copy_.WidthInBytes = image.width * image.pixel_size;  // one row
    copy_.Height = image.height;
    copy_.Depth = layers;
    CUDA_RESOURCE_DESC resource{};
    resource.resType = CU_RESOURCE_TYPE_ARRAY;
    resource.res.array.hArray = array_;
    return add_every_state(resource, format, layered || !floating(format));
  }

  void refresh(CUstream stream) {
    std::lock_guard lock(mutex_);
    const CudaDriver& driver = context().driver();
    const uint64_t writes = pixels_.writes();
    if (writes != copied_writes_) {
      context().check(driver.cuMemcpy3DAsync(&copy_, stream), "cuMemcpy3DAsync");
      context().check(driver.cuEventRecord(copied_event_, stream), "cuEventRecord");
      copied_writes_ = writes;
      copied_on_ = stream;
    } else if (stream != copied_on_) {
      // Nothing else orders this launch after a copy enqueued for a launch on another stream.
      context().check(driver.cuStreamWaitEvent(stream, copied_event_, 0), "cuStreamWaitEvent");
    }
  }

 private:
  const CudaMemory& pixels_;  // the image's; the sampling goes first (platform/memory/image.h)
  CUarray array_ = nullptr;
  CUevent copied_event_ = nullptr;  // recorded after the last copy
  CUDA_MEMCPY3D copy_{};            // the pixels into the array
  std::mutex mutex_;
  uint64_t copied_writes_ = std::numeric_limits<uint64_t>::max();  // pixels_.writes() at the last copy
  CUstream copied_on_ = nullptr;
};

}  // namespace

std::unique_ptr<ImageSampling> sample_image_through_array(std::shared_ptr<CudaContext> context,
                                                          const CudaMemory& pixels, const SampledImage& image,
                                                          const TextureFormat& format) {
  if (image.type != CL_MEM_OBJECT_IMAGE3D && image.type != CL_MEM_OBJECT_IMAGE2D_ARRAY) return nullptr;
  // Memory the host writes without commands (managed memory, a dual view's host copy) would
  // leave the array behind unseen.
  if (pixels.managed() || pixels.dual_view()) return nullptr;
  auto sampling = std::make_unique<ArraySampling>(std::move(context), pixels);
  if (!sampling->create(image, format)) return nullptr;
  return sampling;
}

void refresh_sampled_copies(CUstream stream, const op::LaunchKernel& launch) {
  for (ImageSampling* sampling : launch.sampled_copies) static_cast<ArraySampling*>(sampling)->refresh(stream);
}

}  // namespace cucl::backend::cuda

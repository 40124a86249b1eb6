// Image memory objects. An image is linear storage with row and slice pitches, on every
// device, so its transfers and coherence are those of any memory object; kernels reach it
// through a descriptor (libclc-builtins/include/cucl_image.h) that each device gets once, in
// its own memory, pointing at that device's copy. An image made from a buffer (1D buffer
// images, cl_khr_image2d_from_buffer) or from another image (another channel order over the
// same pixels) uses that object's storage.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "platform/memory/memory.h"

namespace cucl {

// The shape and layout of an image as created.
struct ImageGeometry {
  cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D;
  cl_image_format format{};
  size_t pixel_size = 0;
  size_t width = 1, height = 1, depth = 1;  // 1 where the type has no such dimension
  size_t array_size = 1;                    // 1 except for arrays
  size_t row_pitch = 0;                     // bytes
  // Where rows are padded for a device's texture units (texture_row_alignment): the pitch the
  // API reports (the packed one, or the one given with CL_MEM_COPY_HOST_PTR, which is also the
  // pitch of the application's rows to copy); 0 where rows are not padded.
  size_t api_row_pitch = 0;
  size_t slice_pitch = 0;                   // bytes between 3D slices and array layers (1D arrays too)

  bool is_array() const { return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY; }
  // The dimensions the API counts in (1 for 1D types, 2 for 1D arrays and 2D, 3 otherwise).
  cl_uint dimensions() const;
  // The extent of each dimension of a region as the commands see it: width, then height or
  // layers, then depth or layers.
  std::array<size_t, 3> extent() const;
  // Bytes from one step of the second coordinate to the next, and of the third: a 1D array's
  // second coordinate is its layer.
  std::array<size_t, 2> strides() const;
  size_t bytes() const;  // the storage it needs
  size_t reported_row_pitch() const { return api_row_pitch ? api_row_pitch : row_pitch; }
};

class Image final : public MemObject {
 public:
  // `source`: the buffer or image whose storage this image uses (null: its own).
  Image(Ref<Context> context, cl_mem_flags flags, const ImageGeometry& geometry, void* host_ptr,
        std::vector<cl_mem_properties> properties, Ref<MemObject> source);
  ~Image() override { run_destructor_callbacks(); }  // before the source can go
  // Every memory object but a buffer is an image (cucl has no pipes).
  static bool has_type(cl_mem_object_type type) { return type != CL_MEM_OBJECT_BUFFER; }

  const ImageGeometry& geometry() const { return geometry_; }
  MemObject* source() const { return source_.get(); }
  MemObject* associated() const override { return source_.get(); }
  backend::Location location(Device& device, size_t offset) override;
  MemObject& storage_owner() override { return source_ ? source_->storage_owner() : *this; }
  size_t storage_offset() const override { return source_ ? source_->storage_offset() : 0; }

  // Where `device` finds this image's descriptor (an image kernel argument points there),
  // whether the device's texture units serve every sampler state of it, and their handles
  // (null where the device samples it in software).
  struct KernelView {
    backend::Location descriptor;
    bool sampled_in_hardware;
    backend::ImageSampling* sampling;
  };
  KernelView descriptor(Device& device);
  // The byte offset of pixel `origin` (x, then row or layer, then slice or layer).
  size_t offset_of(const size_t* origin) const;

 private:
  void on_api_released() override;
  // CL_MEM_COPY_HOST_PTR: the application's rows, into padded rows where they are padded.
  void write_host_contents(backend::Memory& memory, const void* host_ptr) override;

  ImageGeometry geometry_;
  Ref<MemObject> source_;
  ApiRef<MemObject> source_pin_;  // CL_MEM_ASSOCIATED_MEMOBJECT stays a valid handle while this one is
  // One per device a kernel has used the image on: the descriptor, and the texture handles in
  // it (backend/image_sampling.h), which go before the pixels do.
  struct Descriptor {
    Device* device;
    std::unique_ptr<backend::Memory> memory;
    std::unique_ptr<backend::ImageSampling> sampling;
  };
  static KernelView view_of(const Descriptor& descriptor);
  std::mutex descriptors_mutex_;
  std::vector<Descriptor> descriptors_;
};

// The image behind `handle` (buffers and dead handles: CL_INVALID_MEM_OBJECT).
Ref<Image> lookup_image(cl_mem handle);

}  // namespace cucl

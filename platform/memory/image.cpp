#include "platform/memory/image.h"

#include <algorithm>
#include <cstring>

#include "base/error.h"
#include "libclc-builtins/include/cucl_image.h"
#include "platform/objects/lookup.h"

namespace cucl {

cl_uint ImageGeometry::dimensions() const {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: return 1;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE2D: return 2;
    default: return 3;
  }
}

std::array<size_t, 3> ImageGeometry::extent() const {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return {width, array_size, 1};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return {width, height, array_size};
    default: return {width, height, depth};
  }
}

std::array<size_t, 2> ImageGeometry::strides() const {
  // A 1D array's second coordinate is its layer.
  return {type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice_pitch : row_pitch, slice_pitch};
}

size_t ImageGeometry::bytes() const {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: case CL_MEM_OBJECT_IMAGE2D:
      return row_pitch * height;
    case CL_MEM_OBJECT_IMAGE3D: return slice_pitch * depth;
    default: return slice_pitch * array_size;
  }
}

Image::Image(Ref<Context> context, cl_mem_flags flags, const ImageGeometry& geometry, void* host_ptr,
             std::vector<cl_mem_properties> properties, Ref<MemObject> source)
    : MemObject(std::move(context), geometry.type, flags, geometry.bytes(), host_ptr, std::move(properties)),
      geometry_(geometry),
      source_(std::move(source)),
      source_pin_(source_) {}

void Image::on_api_released() {
  source_pin_.reset();
  MemObject::on_api_released();
}

void Image::write_host_contents(backend::Memory& memory, const void* host_ptr) {
  const ImageGeometry& g = geometry_;
  if (!g.api_row_pitch) return MemObject::write_host_contents(memory, host_ptr);
  // One write of the whole padded image: row by row, each write would wait for its own copy.
  std::vector<char> padded(g.bytes());
  const size_t row_bytes = g.width * g.pixel_size;
  for (size_t y = 0; y < g.height; ++y) {
    std::memcpy(padded.data() + y * g.row_pitch, static_cast<const char*>(host_ptr) + y * g.api_row_pitch, row_bytes);
  }
  memory.write_now(0, padded.data(), padded.size());
}

backend::Location Image::location(Device& device, size_t offset) {
  if (source_) return source_->location(device, offset);
  return MemObject::location(device, offset);
}

size_t Image::offset_of(const size_t* origin) const {
  const auto strides = geometry_.strides();
  return origin[0] * geometry_.pixel_size + origin[1] * strides[0] + origin[2] * strides[1];
}

Image::KernelView Image::descriptor(Device& device) {
  std::lock_guard lock(descriptors_mutex_);
  for (const Descriptor& descriptor : descriptors_) {
    if (descriptor.device == &device) return view_of(descriptor);
  }
  const backend::Location pixels = location(device, 0);
  const ImageGeometry& g = geometry_;
  cucl_image descriptor{};
  descriptor.data = pixels.memory->kernel_address(pixels.offset);
  descriptor.row_pitch = g.row_pitch;
  descriptor.slice_pitch = g.slice_pitch;
  descriptor.width = static_cast<cucl_image_i32>(g.width);
  descriptor.height = static_cast<cucl_image_i32>(g.height);
  descriptor.depth = static_cast<cucl_image_i32>(g.depth);
  descriptor.array_size = static_cast<cucl_image_i32>(g.array_size);
  descriptor.channel_order = static_cast<cucl_image_i32>(g.format.image_channel_order);
  descriptor.channel_data_type = static_cast<cucl_image_i32>(g.format.image_channel_data_type);
  descriptor.pixel_size = static_cast<cucl_image_i32>(g.pixel_size);
  descriptor.type = static_cast<cucl_image_i32>(g.type);
  // Kernels do not read CL_MEM_WRITE_ONLY images: no textures (nor copies for them) there.
  std::unique_ptr<backend::ImageSampling> sampling =
      flags() & CL_MEM_WRITE_ONLY
          ? nullptr
          : device.backend().sample_image(
                {pixels, g.type, g.format, g.pixel_size, g.width, g.height, g.depth, g.array_size, g.row_pitch,
                 g.slice_pitch});
  if (sampling) std::copy(sampling->handles.begin(), sampling->handles.end(), descriptor.textures);
  auto memory = device.backend().allocate(sizeof descriptor, nullptr, false);
  check(memory != nullptr, CL_OUT_OF_RESOURCES);
  memory->write_now(0, &descriptor, sizeof descriptor);
  descriptors_.push_back({&device, std::move(memory), std::move(sampling)});
  return view_of(descriptors_.back());
}

Image::KernelView Image::view_of(const Descriptor& descriptor) {
  return {backend::Location{descriptor.memory.get(), nullptr, 0},
          descriptor.sampling && descriptor.sampling->serves_every_state(), descriptor.sampling.get()};
}

Ref<Image> lookup_image(cl_mem handle) { return lookup_memory_as<Image>(handle); }

}  // namespace cucl

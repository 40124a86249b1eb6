#include "platform/memory/image_rules.h"

#include <algorithm>
#include <limits>

#include "base/error.h"
#include "platform/memory/image_format.h"
#include "platform/memory/memory_rules.h"
#include "platform/objects/lookup.h"

namespace cucl {
namespace {

std::vector<const Device*> image_devices(const Context& context) {
  std::vector<const Device*> devices;
  for (const Device* device : context.devices()) {
    if (device->description().image_support) devices.push_back(device);
  }
  return devices;
}

bool fits(const backend::ImageLimits& limits, const ImageGeometry& g) {
  switch (g.type) {
    case CL_MEM_OBJECT_IMAGE1D: return g.width <= limits.image2d_max_width;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return g.width <= limits.image_max_buffer_size;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return g.width <= limits.image2d_max_width && g.array_size <= limits.image_max_array_size;
    case CL_MEM_OBJECT_IMAGE2D: return g.width <= limits.image2d_max_width && g.height <= limits.image2d_max_height;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return g.width <= limits.image2d_max_width && g.height <= limits.image2d_max_height &&
             g.array_size <= limits.image_max_array_size;
    default:
      return g.width <= limits.image3d_max_width && g.height <= limits.image3d_max_height &&
             g.depth <= limits.image3d_max_depth;
  }
}

size_t checked_product(size_t a, size_t b) {
  size_t product;
  check(!__builtin_mul_overflow(a, b, &product), CL_INVALID_IMAGE_SIZE);
  return product;
}

// The dimensions the type has, each at least one (CL_INVALID_IMAGE_SIZE); 1 for the others.
ImageGeometry geometry_of(const cl_image_desc& desc, const cl_image_format& format) {
  ImageGeometry g;
  g.type = desc.image_type;
  g.format = format;
  g.pixel_size = pixel_size(format);
  g.width = desc.image_width;
  const bool has_height = g.type == CL_MEM_OBJECT_IMAGE2D || g.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                          g.type == CL_MEM_OBJECT_IMAGE3D;
  if (has_height) g.height = desc.image_height;
  if (g.type == CL_MEM_OBJECT_IMAGE3D) g.depth = desc.image_depth;
  if (g.is_array()) g.array_size = desc.image_array_size;
  check(g.width && g.height && g.depth && g.array_size, CL_INVALID_IMAGE_SIZE);
  return g;
}

// Pitches as given (with host memory or a buffer behind them) or packed; the rules of
// cl_image_desc (CL_INVALID_IMAGE_DESCRIPTOR).
void resolve_pitches(ImageGeometry& g, const cl_image_desc& desc, bool given_memory) {
  check(given_memory || (desc.image_row_pitch == 0 && desc.image_slice_pitch == 0), CL_INVALID_IMAGE_DESCRIPTOR);
  const size_t packed_row = checked_product(g.width, g.pixel_size);
  g.row_pitch = desc.image_row_pitch ? desc.image_row_pitch : packed_row;
  check(g.row_pitch >= packed_row && g.row_pitch % g.pixel_size == 0, CL_INVALID_IMAGE_DESCRIPTOR);
  const bool layered = g.type == CL_MEM_OBJECT_IMAGE3D || g.is_array();
  if (!layered) return;  // a slice pitch given with a 1D or 2D image is not used
  const size_t packed_slice =
      g.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? g.row_pitch : checked_product(g.row_pitch, g.height);
  g.slice_pitch = desc.image_slice_pitch ? desc.image_slice_pitch : packed_slice;
  check(g.slice_pitch >= packed_slice && g.slice_pitch % g.row_pitch == 0, CL_INVALID_IMAGE_DESCRIPTOR);
  checked_product(g.slice_pitch, g.type == CL_MEM_OBJECT_IMAGE3D ? g.depth : g.array_size);
}

// A 2D image whose storage is its own (no host memory, or a copy of it) gets rows that the
// devices' texture units read, at a cost of less than the alignment per row
// (ImageLimits::texture_row_alignment); the API keeps the pitch it would have had.
void pad_rows_for_textures(ImageGeometry& g, const std::vector<const Device*>& devices) {
  size_t alignment = 0;
  for (const Device* device : devices) alignment = std::max(alignment, device->description().images.texture_row_alignment);
  if (g.type != CL_MEM_OBJECT_IMAGE2D || alignment == 0 || g.row_pitch % alignment == 0) return;
  g.api_row_pitch = g.row_pitch;
  g.row_pitch = checked_product((g.width * g.pixel_size + alignment - 1) / alignment, alignment);
}

// The least pitch alignment, in pixels, over the devices with 2D images from buffers (0: none).
cl_uint pitch_alignment(const std::vector<const Device*>& devices) {
  cl_uint alignment = 0;
  for (const Device* device : devices) {
    const cl_uint a = device->description().images.image_pitch_alignment;
    if (a) alignment = alignment ? std::min(alignment, a) : a;
  }
  return alignment;
}

// An image over another memory object's storage: what the source allows (flags, host pointer)
// and what the image needs of it (sizes, alignment, a compatible format).
void check_source(const MemObject& source, ImageGeometry& g, cl_mem_flags& flags, const void* host_ptr,
                  const std::vector<const Device*>& devices, const cl_image_desc& desc) {
  check(!(flags & kHostPtrFlags), CL_INVALID_VALUE);
  check_inheritable_flags(source.flags(), flags);
  flags = inherit_flags(source.flags(), flags);
  check(host_ptr == nullptr, CL_INVALID_HOST_PTR);
  if (const auto* image = dynamic_cast<const Image*>(&source)) {
    // Another view of a 2D image's pixels: the same shape and pixel size, an order that
    // differs at most by sRGB.
    const ImageGeometry& s = image->geometry();
    check(s.type == CL_MEM_OBJECT_IMAGE2D && s.width == g.width && s.height == g.height, CL_INVALID_IMAGE_DESCRIPTOR);
    check(desc.image_row_pitch == 0 || desc.image_row_pitch == s.row_pitch ||
              desc.image_row_pitch == s.reported_row_pitch(),
          CL_INVALID_IMAGE_DESCRIPTOR);
    check(g.format.image_channel_data_type == s.format.image_channel_data_type && g.pixel_size == s.pixel_size,
          CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    g.row_pitch = s.row_pitch;
    g.api_row_pitch = s.api_row_pitch;
    return;
  }
  if (g.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    g.row_pitch = checked_product(g.width, g.pixel_size);
    check(g.row_pitch <= source.size(), CL_INVALID_IMAGE_SIZE);
    return;
  }
  // cl_khr_image2d_from_buffer: pitch and base address aligned as the devices ask.
  const cl_uint alignment = pitch_alignment(devices);
  check(alignment != 0, CL_INVALID_OPERATION);
  resolve_pitches(g, desc, true);
  check(g.row_pitch % (alignment * g.pixel_size) == 0, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  check(checked_product(g.row_pitch, g.height) <= source.size(), CL_INVALID_IMAGE_SIZE);
}

}  // namespace

Ref<Image> create_image(Context& context, const cl_mem_properties* properties, cl_mem_flags flags,
                        const cl_image_format* format, const cl_image_desc* desc, void* host_ptr) {
  const std::vector<const Device*> devices = image_devices(context);
  check(!devices.empty(), CL_INVALID_OPERATION);
  auto validated = mem_properties(properties);
  check_mem_flags(flags);
  check(format != nullptr && pixel_size(*format) != 0, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  check(desc != nullptr && is_image_type(desc->image_type), CL_INVALID_IMAGE_DESCRIPTOR);
  check(desc->num_mip_levels == 0 && desc->num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR);
  ImageGeometry g = geometry_of(*desc, *format);

  Ref<MemObject> source;
  if (desc->mem_object) {
    source = lookup_or_null<MemObject>(desc->mem_object);
    check(source != nullptr && &source->context() == &context, CL_INVALID_IMAGE_DESCRIPTOR);
    const bool buffer = source->type() == CL_MEM_OBJECT_BUFFER;
    const bool fits_type = g.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                           (g.type == CL_MEM_OBJECT_IMAGE2D && (buffer || source->type() == CL_MEM_OBJECT_IMAGE2D));
    check(fits_type, CL_INVALID_IMAGE_DESCRIPTOR);
    check_source(*source, g, flags, host_ptr, devices, *desc);
  } else {
    check(g.type != CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_INVALID_IMAGE_DESCRIPTOR);
    resolve_pitches(g, *desc, host_ptr != nullptr);
    check_host_ptr(flags, host_ptr);
    if (!(flags & CL_MEM_USE_HOST_PTR)) pad_rows_for_textures(g, devices);
  }
  const bool fits_a_device = std::any_of(devices.begin(), devices.end(), [&](const Device* device) {
    return fits(device->description().images, g);
  });
  check(fits_a_device, CL_INVALID_IMAGE_SIZE);
  check(g.bytes() <= context.max_mem_alloc_size() || source, CL_INVALID_IMAGE_SIZE);
  check(supports_image_format(*format, flags), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  auto image = make<Image>(Ref<Context>(&context), flags, g, host_ptr, std::move(validated), std::move(source));
  if ((flags & CL_MEM_COPY_HOST_PTR) && !image->source()) image->allocate_everywhere();
  return image;
}

Ref<Image> create_legacy_image(Context& context, cl_mem_flags flags, const cl_image_format* format,
                               const LegacyImage& image, void* host_ptr) {
  check_mem_flags(flags);
  check(format != nullptr, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  const size_t pixel = pixel_size(*format);
  check(pixel != 0, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  const bool is_3d = image.depth != 0;
  check(image.width != 0 && image.height != 0 && (!is_3d || image.depth > 1), CL_INVALID_IMAGE_SIZE);
  // Pitch errors are CL_INVALID_IMAGE_SIZE here.
  const size_t packed_row = checked_product(image.width, pixel);
  if (!host_ptr) check(image.row_pitch == 0 && image.slice_pitch == 0, CL_INVALID_IMAGE_SIZE);
  const size_t row_pitch = image.row_pitch ? image.row_pitch : packed_row;
  check(row_pitch >= packed_row && row_pitch % pixel == 0, CL_INVALID_IMAGE_SIZE);
  if (is_3d && image.slice_pitch) {
    check(image.slice_pitch >= checked_product(row_pitch, image.height) && image.slice_pitch % row_pitch == 0,
          CL_INVALID_IMAGE_SIZE);
  }
  check_host_ptr(flags, host_ptr);
  cl_image_desc desc{};
  desc.image_type = is_3d ? CL_MEM_OBJECT_IMAGE3D : CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = image.width;
  desc.image_height = image.height;
  desc.image_depth = is_3d ? image.depth : 1;
  desc.image_row_pitch = image.row_pitch;
  desc.image_slice_pitch = is_3d ? image.slice_pitch : 0;
  return create_image(context, nullptr, flags, format, &desc, host_ptr);
}

void supported_image_formats(const Context& context, cl_mem_flags flags, cl_mem_object_type image_type,
                             cl_uint num_entries, cl_image_format* image_formats, cl_uint* num_image_formats) {
  check_mem_flags(flags & ~CL_MEM_KERNEL_READ_AND_WRITE);
  check(is_image_type(image_type), CL_INVALID_VALUE);
  check(num_entries != 0 || image_formats == nullptr, CL_INVALID_VALUE);
  std::vector<cl_image_format> formats;
  if (!image_devices(context).empty()) formats = supported_image_formats(flags);
  if (image_formats) std::copy_n(formats.begin(), std::min<size_t>(num_entries, formats.size()), image_formats);
  if (num_image_formats) *num_image_formats = static_cast<cl_uint>(formats.size());
}

void check_device_takes(const Device& device, const Image& image) {
  const auto& description = device.description();
  check(description.image_support, CL_INVALID_OPERATION);
  check(fits(description.images, image.geometry()), CL_INVALID_IMAGE_SIZE);
  check(supports_image_format(image.geometry().format, CL_MEM_READ_ONLY), CL_IMAGE_FORMAT_NOT_SUPPORTED);
}

void reject_pipe(const Context&) { fail(CL_INVALID_OPERATION); }

void lookup_pipe(cl_mem) { fail(CL_INVALID_MEM_OBJECT); }

}  // namespace cucl

#include "platform/memory/image_commands.h"

#include "platform/memory/buffer_command_checks.h"
#include "platform/memory/image_format.h"
#include "platform/memory/image_rules.h"
#include "platform/memory/memory_map.h"
#include "platform/memory/rect_command.h"

namespace cucl {
namespace {

void check_usable(Queue& queue, Image& image) {
  check(&image.context() == &queue.context(), CL_INVALID_CONTEXT);
  check_device_takes(queue.device(), image);
}

// Origin and region as the image's type allows them: within the image, nothing past its
// dimensions (origin 0, region 1 there), no empty region (CL_INVALID_VALUE).
void check_rect(const Image& image, const size_t* origin, const size_t* region) {
  check(origin != nullptr && region != nullptr, CL_INVALID_VALUE);
  const std::array<size_t, 3> extent = image.geometry().extent();
  const cl_uint dimensions = image.geometry().dimensions();
  for (cl_uint d = 0; d < 3; ++d) {
    check(region[d] != 0, CL_INVALID_VALUE);
    if (d >= dimensions) check(origin[d] == 0 && region[d] == 1, CL_INVALID_VALUE);
    check(origin[d] <= extent[d] && region[d] <= extent[d] - origin[d], CL_INVALID_VALUE);
  }
}

using Side = ByteRect;

size_t span(const Side& side, const std::array<size_t, 3>& bytes_region) {
  return (bytes_region[2] - 1) * side.slice_pitch + (bytes_region[1] - 1) * side.row_pitch + bytes_region[0];
}

std::array<size_t, 3> bytes_region(const Image& image, const size_t* region) {
  return {region[0] * image.geometry().pixel_size, region[1], region[2]};
}

Side image_side(const Image& image, const size_t* origin, const size_t* region) {
  const auto strides = image.geometry().strides();
  Side side{image.offset_of(origin), strides[0], strides[1], 0};
  side.extent = span(side, bytes_region(image, region));
  return side;
}

// The application's rows and slices (read, write): its pitches or packed ones.
Side host_side(const Image& image, const size_t* region, HostPitches host) {
  const ImageGeometry& g = image.geometry();
  const size_t packed_row = region[0] * g.pixel_size;
  const size_t row = host.row_pitch ? host.row_pitch : packed_row;
  check(row >= packed_row, CL_INVALID_VALUE);
  Side side{0, row, 0, 0};
  if (g.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    // A 1D array's second coordinate is its layer: the slice pitch steps through it.
    side.row_pitch = host.slice_pitch ? host.slice_pitch : row;
    check(side.row_pitch >= row, CL_INVALID_VALUE);
  } else if (g.dimensions() == 3) {
    const size_t packed_slice = row * region[1];
    side.slice_pitch = host.slice_pitch ? host.slice_pitch : packed_slice;
    check(side.slice_pitch >= packed_slice, CL_INVALID_VALUE);
  } else {
    check(host.slice_pitch == 0, CL_INVALID_VALUE);
  }
  side.extent = span(side, bytes_region(image, region));
  return side;
}

// A buffer's side of a copy with an image: packed rows and slices from `offset`.
Side buffer_side(const Buffer& buffer, size_t offset, const Image& image, const size_t* region) {
  const size_t row = region[0] * image.geometry().pixel_size;
  Side side{offset, row, row * region[1], 0};
  side.extent = row * region[1] * region[2];
  check(buffer_checks::in_bounds(buffer, offset, side.extent), CL_INVALID_VALUE);
  return side;
}

backend::Location host(const void* ptr) { return backend::Location{nullptr, const_cast<void*>(ptr), 0}; }

bool boxes_overlap(const size_t* a, const size_t* b, const size_t* region) {
  for (int d = 0; d < 3; ++d) {
    if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d]) return false;
  }
  return true;
}

}  // namespace

CommandSpec read_image(Queue& queue, Image& image, const size_t* origin, const size_t* region, HostPitches host_pitches,
                       void* ptr) {
  check_usable(queue, image);
  check_rect(image, origin, region);
  check(ptr != nullptr, CL_INVALID_VALUE);
  buffer_checks::check_host_reads(image);
  const Side from = image_side(image, origin, region);
  const Side to = host_side(image, region, host_pitches);
  auto spec = rect_command(CL_COMMAND_READ_IMAGE, image.location(queue.device(), 0), from, host(ptr), to,
                           bytes_region(image, region), {&image});
  note_access(spec.accesses, queue.device(), image, from.start, from.extent, Access::Read);
  return spec;
}

CommandSpec write_image(Queue& queue, Image& image, const size_t* origin, const size_t* region,
                        HostPitches host_pitches, const void* ptr) {
  check_usable(queue, image);
  check_rect(image, origin, region);
  check(ptr != nullptr, CL_INVALID_VALUE);
  buffer_checks::check_host_writes(image);
  const Side to = image_side(image, origin, region);
  const Side from = host_side(image, region, host_pitches);
  auto spec = rect_command(CL_COMMAND_WRITE_IMAGE, host(ptr), from, image.location(queue.device(), 0), to,
                           bytes_region(image, region), {&image});
  // Rows leave gaps between them that keep their bytes.
  note_access(spec.accesses, queue.device(), image, to.start, to.extent, Access::ReadWrite);
  return spec;
}

CommandSpec copy_image(Queue& queue, Image& src, Image& dst, const size_t* src_origin, const size_t* dst_origin,
                       const size_t* region) {
  check_usable(queue, src);
  check_usable(queue, dst);
  const cl_image_format& a = src.geometry().format;
  const cl_image_format& b = dst.geometry().format;
  check(a.image_channel_order == b.image_channel_order && a.image_channel_data_type == b.image_channel_data_type,
        CL_IMAGE_FORMAT_MISMATCH);
  check_rect(src, src_origin, region);
  check_rect(dst, dst_origin, region);
  if (&src == &dst) check(!boxes_overlap(src_origin, dst_origin, region), CL_MEM_COPY_OVERLAP);
  const Side from = image_side(src, src_origin, region);
  const Side to = image_side(dst, dst_origin, region);
  return copy_rect_between(CL_COMMAND_COPY_IMAGE, queue, src, from, dst, to, bytes_region(src, region),
                           Access::ReadWrite);
}

CommandSpec fill_image(Queue& queue, Image& image, const void* fill_color, const size_t* origin,
                       const size_t* region) {
  check_usable(queue, image);
  check(fill_color != nullptr, CL_INVALID_VALUE);
  check_rect(image, origin, region);
  const Side to = image_side(image, origin, region);
  backend::Location location = image.location(queue.device(), to.start);
  backend::op::FillRect fill{location, bytes_region(image, region), to.row_pitch, to.slice_pitch, {}, 0};
  fill.pattern = fill_pixel(image.geometry().format, fill_color);
  fill.pattern_size = image.geometry().pixel_size;
  CommandSpec spec;
  spec.type = CL_COMMAND_FILL_IMAGE;
  spec.operation = fill;
  spec.keep_alive = {&image};
  note_access(spec.accesses, queue.device(), image, to.start, to.extent, Access::ReadWrite);
  return spec;
}

CommandSpec copy_image_to_buffer(Queue& queue, Image& src, Buffer& dst, const size_t* src_origin,
                                 const size_t* region, size_t dst_offset) {
  check_usable(queue, src);
  buffer_checks::check_usable(queue, dst);
  check_rect(src, src_origin, region);
  const Side from = image_side(src, src_origin, region);
  const Side to = buffer_side(dst, dst_offset, src, region);
  return copy_rect_between(CL_COMMAND_COPY_IMAGE_TO_BUFFER, queue, src, from, dst, to, bytes_region(src, region),
                           Access::Overwrite);
}

CommandSpec copy_buffer_to_image(Queue& queue, Buffer& src, Image& dst, size_t src_offset, const size_t* dst_origin,
                                 const size_t* region) {
  buffer_checks::check_usable(queue, src);
  check_usable(queue, dst);
  check_rect(dst, dst_origin, region);
  const Side from = buffer_side(src, src_offset, dst, region);
  const Side to = image_side(dst, dst_origin, region);
  return copy_rect_between(CL_COMMAND_COPY_BUFFER_TO_IMAGE, queue, src, from, dst, to, bytes_region(dst, region),
                           Access::ReadWrite);
}

void* enqueue_map_image(Queue& queue, Image& image, bool blocking, cl_map_flags flags, const size_t* origin,
                        const size_t* region, size_t* row_pitch, size_t* slice_pitch, cl_uint num_events,
                        const cl_event* wait_list, cl_event* event_out) {
  check_usable(queue, image);
  check_map_flags(flags);
  check_rect(image, origin, region);
  check(row_pitch != nullptr, CL_INVALID_VALUE);
  const ImageGeometry& g = image.geometry();
  const bool layered = g.dimensions() == 3 || g.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  check(!layered || slice_pitch != nullptr, CL_INVALID_VALUE);
  check_map_access(image, flags);
  const Side mapped = image_side(image, origin, region);
  void* pointer = enqueue_map_bytes(queue, image, CL_COMMAND_MAP_IMAGE, blocking, flags, mapped.start, mapped.extent,
                                    num_events, wait_list, event_out);
  *row_pitch = g.row_pitch;
  if (slice_pitch) *slice_pitch = layered ? g.slice_pitch : 0;
  return pointer;
}

}  // namespace cucl

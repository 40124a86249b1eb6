// clEnqueue{Read,Write,Copy}BufferRect: pitch defaults, bounds and overlap.
#include <array>

#include "platform/memory/buffer_command_checks.h"
#include "platform/memory/buffer_commands.h"
#include "platform/memory/rect_command.h"

namespace cucl {

using namespace buffer_checks;

namespace {

// One side of a rectangle with its pitches resolved and its origin as a byte offset.
using Rect = ByteRect;

size_t checked_mul(size_t a, size_t b) {
  size_t r;
  check(!__builtin_mul_overflow(a, b, &r), CL_INVALID_VALUE);
  return r;
}

size_t checked_add(size_t a, size_t b) {
  size_t r;
  check(!__builtin_add_overflow(a, b, &r), CL_INVALID_VALUE);
  return r;
}

// Applies the defaults (0 means tightly packed) and the CL_INVALID_VALUE rules of one side.
Rect resolve(const RectSide& side, const std::array<size_t, 3>& region) {
  size_t row = side.row_pitch ? side.row_pitch : region[0];
  check(row >= region[0], CL_INVALID_VALUE);
  size_t packed_slice = checked_mul(region[1], row);
  size_t slice = side.slice_pitch ? side.slice_pitch : packed_slice;
  check(slice >= packed_slice && slice % row == 0, CL_INVALID_VALUE);
  const size_t* o = side.origin;
  size_t start = checked_add(checked_add(checked_mul(o[2], slice), checked_mul(o[1], row)), o[0]);
  size_t extent =
      checked_add(checked_add(checked_mul(region[2] - 1, slice), checked_mul(region[1] - 1, row)), region[0]);
  return Rect{start, row, slice, extent};
}

std::array<size_t, 3> checked_region(const size_t* region) {
  check(region != nullptr, CL_INVALID_VALUE);
  check(region[0] && region[1] && region[2], CL_INVALID_VALUE);
  return {region[0], region[1], region[2]};
}

void check_in(const Buffer& buffer, const Rect& rect) {
  check(checked_add(rect.start, rect.extent) <= buffer.size(), CL_INVALID_VALUE);
}

// Walks the rows of a rectangle in address order (pitches make rows ascending and disjoint).
struct RowWalk {
  size_t start, row_pitch, slice_pitch, rows, slices;
  size_t y = 0, z = 0;
  size_t current() const { return start + z * slice_pitch + y * row_pitch; }
  bool done() const { return z == slices; }
  void next() {
    if (++y == rows) {
      y = 0;
      ++z;
    }
  }
};

// Whether two rectangles of the same store share a byte: a merge of their rows.
bool overlap(const Rect& a, const Rect& b, const std::array<size_t, 3>& region) {
  if (a.start + a.extent <= b.start || b.start + b.extent <= a.start) return false;
  RowWalk ra{a.start, a.row_pitch, a.slice_pitch, region[1], region[2]};
  RowWalk rb{b.start, b.row_pitch, b.slice_pitch, region[1], region[2]};
  while (!ra.done() && !rb.done()) {
    size_t x = ra.current(), y = rb.current();
    if (x < y + region[0] && y < x + region[0]) return true;
    if (x < y) {
      ra.next();
    } else {
      rb.next();
    }
  }
  return false;
}

// What read and write share: every check, then the buffer side and the host side.
struct HostRect {
  Rect buffer, host;
  std::array<size_t, 3> region;
};

HostRect check_host_rect(Queue& queue, Buffer& buffer, const RectSide& buffer_side, const RectSide& host_side,
                         const size_t* region, const void* ptr) {
  check_usable(queue, buffer);
  check(buffer_side.origin && host_side.origin && ptr, CL_INVALID_VALUE);
  auto r = checked_region(region);
  HostRect rect{resolve(buffer_side, r), resolve(host_side, r), r};
  check_in(buffer, rect.buffer);
  return rect;
}

backend::Location host(const void* ptr) { return backend::Location{nullptr, const_cast<void*>(ptr), 0}; }

}  // namespace

CommandSpec read_buffer_rect(Queue& queue, Buffer& buffer, RectSide buffer_side, RectSide host_side,
                             const size_t* region, void* ptr) {
  auto rect = check_host_rect(queue, buffer, buffer_side, host_side, region, ptr);
  check_host_reads(buffer);
  auto spec = rect_command(CL_COMMAND_READ_BUFFER_RECT, buffer.location(queue.device(), 0), rect.buffer, host(ptr),
                           rect.host, rect.region, {&buffer});
  note_access(spec.accesses, queue.device(), buffer, rect.buffer.start, rect.buffer.extent, Access::Read);
  return spec;
}

CommandSpec write_buffer_rect(Queue& queue, Buffer& buffer, RectSide buffer_side, RectSide host_side,
                              const size_t* region, const void* ptr) {
  auto rect = check_host_rect(queue, buffer, buffer_side, host_side, region, ptr);
  check_host_writes(buffer);
  auto spec = rect_command(CL_COMMAND_WRITE_BUFFER_RECT, host(ptr), rect.host, buffer.location(queue.device(), 0),
                           rect.buffer, rect.region, {&buffer});
  // The rows leave gaps between them that must stay as they were.
  note_access(spec.accesses, queue.device(), buffer, rect.buffer.start, rect.buffer.extent, Access::ReadWrite);
  return spec;
}

CommandSpec copy_buffer_rect(Queue& queue, Buffer& src, Buffer& dst, RectSide src_side, RectSide dst_side,
                             const size_t* region) {
  check_usable(queue, src);
  check_usable(queue, dst);
  check(src_side.origin && dst_side.origin, CL_INVALID_VALUE);
  auto r = checked_region(region);
  Rect s = resolve(src_side, r), d = resolve(dst_side, r);
  check_in(src, s);
  check_in(dst, d);
  if (&src == &dst) check(s.row_pitch == d.row_pitch && s.slice_pitch == d.slice_pitch, CL_INVALID_VALUE);
  if (same_storage(src, dst)) {
    Rect s_in_root = s, d_in_root = d;
    s_in_root.start += src.origin();
    d_in_root.start += dst.origin();
    check(!overlap(s_in_root, d_in_root, r), CL_MEM_COPY_OVERLAP);
  }
  return copy_rect_between(CL_COMMAND_COPY_BUFFER_RECT, queue, src, s, dst, d, r, Access::ReadWrite);
}

}  // namespace cucl

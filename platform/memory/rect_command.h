// Rectangles of bytes, as the *Rect buffer commands and every image command move them
// (op::CopyRect): each side's first byte, row and slice pitches, and span.
#pragma once

#include <array>

#include "platform/memory/memory.h"
#include "platform/queue/command.h"
#include "platform/queue/queue.h"

namespace cucl {

struct ByteRect {
  size_t start;                   // byte offset of the first row
  size_t row_pitch, slice_pitch;
  size_t extent;                  // bytes from the first to one past the last byte touched
};

// The copy of `region` (bytes, rows, slices) from `src` + s.start to `dst` + d.start.
CommandSpec rect_command(cl_command_type type, backend::Location src, const ByteRect& s, backend::Location dst,
                         const ByteRect& d, const std::array<size_t, 3>& region, HeldObjects keep_alive);

// The same between two memory objects on the queue's device, with what coherence needs to
// know: the source read, the destination written as `dst_access` says.
CommandSpec copy_rect_between(cl_command_type type, Queue& queue, MemObject& src, const ByteRect& s, MemObject& dst,
                              const ByteRect& d, const std::array<size_t, 3>& region, Access dst_access);

}  // namespace cucl

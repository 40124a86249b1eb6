#include "platform/memory/rect_command.h"

namespace cucl {

CommandSpec rect_command(cl_command_type type, backend::Location src, const ByteRect& s, backend::Location dst,
                         const ByteRect& d, const std::array<size_t, 3>& region, HeldObjects keep_alive) {
  src.offset += s.start;
  dst.offset += d.start;
  CommandSpec spec;
  spec.type = type;
  // A box unbroken on both sides (whole images, whole rows of a buffer) is one plain copy,
  // which the backends move at full speed (pipelined staging on the GPU).
  if (backend::op::box_is_unbroken(region, s.row_pitch, s.slice_pitch) &&
      backend::op::box_is_unbroken(region, d.row_pitch, d.slice_pitch)) {
    spec.operation = backend::op::Copy{src, dst, region[0] * region[1] * region[2]};
  } else {
    spec.operation = backend::op::CopyRect{src, dst, region, s.row_pitch, s.slice_pitch, d.row_pitch, d.slice_pitch};
  }
  spec.keep_alive = std::move(keep_alive);
  return spec;
}

CommandSpec copy_rect_between(cl_command_type type, Queue& queue, MemObject& src, const ByteRect& s, MemObject& dst,
                              const ByteRect& d, const std::array<size_t, 3>& region, Access dst_access) {
  auto spec = rect_command(type, src.location(queue.device(), 0), s, dst.location(queue.device(), 0), d, region,
                           {&src, &dst});
  note_access(spec.accesses, queue.device(), src, s.start, s.extent, Access::Read);
  note_access(spec.accesses, queue.device(), dst, d.start, d.extent, dst_access);
  return spec;
}

}  // namespace cucl

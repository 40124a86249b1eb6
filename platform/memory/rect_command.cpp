#include "platform/memory/rect_command.h"

namespace cucl {
namespace {

// Whether `region` lies in one unbroken run of bytes on this side: its rows follow each other
// (or there is one), and so do its slices.
bool unbroken(const ByteRect& side, const std::array<size_t, 3>& region) {
  const bool rows = region[1] == 1 || side.row_pitch == region[0];
  const bool slices = region[2] == 1 || side.slice_pitch == region[0] * region[1];
  return rows && slices;
}

}  // namespace

CommandSpec rect_command(cl_command_type type, backend::Location src, const ByteRect& s, backend::Location dst,
                         const ByteRect& d, const std::array<size_t, 3>& region, HeldObjects keep_alive) {
  src.offset += s.start;
  dst.offset += d.start;
  CommandSpec spec;
  spec.type = type;
  // A box unbroken on both sides (whole images, whole rows of a buffer) is one plain copy,
  // which the backends move at full speed (pipelined staging on the GPU).
  if (unbroken(s, region) && unbroken(d, region)) {
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
                           {Ref<Object>(&src), Ref<Object>(&dst)});
  note_access(spec.accesses, queue.device(), src, s.start, s.extent, Access::Read);
  note_access(spec.accesses, queue.device(), dst, d.start, d.extent, dst_access);
  return spec;
}

}  // namespace cucl

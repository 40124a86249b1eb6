// clEnqueueMapBuffer and clEnqueueUnmapMemObject. The mapped pointer is handed out, and the
// mapping recorded, when the command is enqueued; the command itself moves the data.
#include "platform/memory/buffer_command_checks.h"
#include "platform/memory/buffer_commands.h"
#include "platform/queue/enqueue.h"

namespace cucl {

using namespace buffer_checks;

namespace {

constexpr cl_map_flags kWriteFlags = CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;

void check_map_flags(cl_map_flags flags) {
  check(!(flags & ~(CL_MAP_READ | kWriteFlags)), CL_INVALID_VALUE);
  if (flags & CL_MAP_WRITE_INVALIDATE_REGION) check(!(flags & (CL_MAP_READ | CL_MAP_WRITE)), CL_INVALID_VALUE);
}

void check_map_access(const Buffer& buffer, cl_map_flags flags) {
  if (flags & CL_MAP_READ) check_host_reads(buffer);
  if (flags & kWriteFlags) check_host_writes(buffer);
}

// Gives a mapping back when its map command never ran for the application.
void forget(Buffer& buffer, void* pointer) {
  if (auto mapping = buffer.take_buffer_mapping(pointer)) mapping->source.memory->unmap_pointer(pointer);
}

}  // namespace

void* enqueue_map_buffer(Queue& queue, Buffer& buffer, bool blocking, cl_map_flags flags, size_t offset, size_t size,
                         cl_uint num_events, const cl_event* wait_list, cl_event* event_out) {
  check_usable(queue, buffer);
  check_map_flags(flags);
  check(size != 0 && in_bounds(buffer, offset, size), CL_INVALID_VALUE);
  check_map_access(buffer, flags);

  backend::Location location = buffer.location(queue.device(), offset);
  void* pointer = location.memory->map_pointer(location.offset, size);
  try {
    buffer.add_buffer_mapping(Mapping{pointer, offset, size, flags, location, &queue.device()});
  } catch (...) {
    location.memory->unmap_pointer(pointer);
    throw;
  }

  const bool reads = !(flags & CL_MAP_WRITE_INVALIDATE_REGION);
  CommandSpec spec;
  spec.type = CL_COMMAND_MAP_BUFFER;
  spec.operation = backend::op::Map{location, pointer, size, reads};
  spec.keep_alive = {Ref<Object>(&buffer)};
  try {
    // The mapped bytes start as the current ones (the unmap writes them back).
    if (reads) note_access(spec.accesses, queue.device(), buffer, offset, size, Access::Read);
    // A blocking map whose command failed ends here too (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST).
    submit(queue, std::move(spec), num_events, wait_list, event_out, blocking);
  } catch (...) {
    forget(buffer, pointer);
    throw;
  }
  return pointer;
}

void enqueue_unmap(Queue& queue, MemObject& memory, void* mapped, cl_uint num_events, const cl_event* wait_list,
                   cl_event* event_out) {
  check(&memory.context() == &queue.context(), CL_INVALID_CONTEXT);
  // The wait list is checked before the mapping is given up, so a refused unmap keeps it.
  for (const auto& event : resolve_wait_list(num_events, wait_list)) {
    check(&event->context() == &queue.context(), CL_INVALID_CONTEXT);
  }
  // Only buffers can be mapped today; images will add their own mappings here.
  auto* buffer = dynamic_cast<Buffer*>(&memory);
  check(buffer != nullptr, CL_INVALID_VALUE);
  auto found = buffer->find_mapping(mapped);
  check(found.has_value(), CL_INVALID_VALUE);
  // A map with no flags is treated as read and write.
  const bool wrote = found->flags == 0 || (found->flags & kWriteFlags);
  backend::Memory* storage = found->source.memory;
  CommandSpec spec;
  spec.type = CL_COMMAND_UNMAP_MEM_OBJECT;
  spec.operation = backend::op::Unmap{found->source, mapped, found->size, wrote};
  spec.keep_alive = {Ref<Object>(buffer)};
  spec.on_finish = [storage, mapped](cl_int) { storage->unmap_pointer(mapped); };
  if (found->device != &queue.device()) {
    // The map's memory belongs to another device than this queue's: the writes go to this
    // device's own copy instead (allocated now, before the mapping is given up).
    spec.operation = wrote ? backend::Operation(backend::op::Unmap{buffer->location(queue.device(), found->offset),
                                                                   mapped, found->size, true})
                           : backend::Operation(backend::op::Nothing{});
  }
  if (wrote) note_access(spec.accesses, queue.device(), *buffer, found->offset, found->size, Access::Overwrite);
  // Another thread's unmap of the same pointer may have come first.
  check(buffer->take_buffer_mapping(mapped).has_value(), CL_INVALID_VALUE);
  submit(queue, std::move(spec), num_events, wait_list, event_out);
}

}  // namespace cucl

// clEnqueueMapBuffer, the mapping half of clEnqueueMapImage, and clEnqueueUnmapMemObject. The
// mapped pointer is handed out, and the mapping recorded, when the command is enqueued; the
// command itself moves the data.
#include "platform/memory/memory_map.h"

#include "platform/memory/buffer_command_checks.h"
#include "platform/memory/buffer_commands.h"
#include "platform/queue/enqueue.h"

namespace cucl {

using namespace buffer_checks;

namespace {

constexpr cl_map_flags kWriteFlags = CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;

// Buffers keep their mappings with the rest of their storage's (overlap rules across
// sub-buffers); images keep them alone.
void add_mapping(MemObject& memory, const Mapping& mapping) {
  if (auto* buffer = dynamic_cast<Buffer*>(&memory)) return buffer->add_buffer_mapping(mapping);
  memory.add_mapping(mapping);
}

std::optional<Mapping> take_mapping(MemObject& memory, void* pointer) {
  if (auto* buffer = dynamic_cast<Buffer*>(&memory)) return buffer->take_buffer_mapping(pointer);
  return memory.take_mapping(pointer);
}

// Gives a mapping back when its map command never ran for the application.
void forget(MemObject& memory, void* pointer) {
  if (auto mapping = take_mapping(memory, pointer)) mapping->source.memory->unmap_pointer(pointer);
}

}  // namespace

void check_map_flags(cl_map_flags flags) {
  check(!(flags & ~(CL_MAP_READ | kWriteFlags)), CL_INVALID_VALUE);
  if (flags & CL_MAP_WRITE_INVALIDATE_REGION) check(!(flags & (CL_MAP_READ | CL_MAP_WRITE)), CL_INVALID_VALUE);
}

void check_map_access(const MemObject& memory, cl_map_flags flags) {
  if (flags & CL_MAP_READ) check_host_reads(memory);
  if (flags & kWriteFlags) check_host_writes(memory);
}

void* enqueue_map_bytes(Queue& queue, MemObject& memory, cl_command_type type, bool blocking, cl_map_flags flags,
                        size_t offset, size_t size, cl_uint num_events, const cl_event* wait_list,
                        cl_event* event_out) {
  backend::Location location = memory.location(queue.device(), offset);
  void* pointer = location.memory->map_pointer(location.offset, size);
  try {
    add_mapping(memory, Mapping{pointer, offset, size, flags, location, &queue.device()});
  } catch (...) {
    location.memory->unmap_pointer(pointer);
    throw;
  }

  const bool reads = !(flags & CL_MAP_WRITE_INVALIDATE_REGION);
  CommandSpec spec;
  spec.type = type;
  spec.operation = backend::op::Map{location, pointer, size, reads};
  spec.keep_alive = {&memory};
  try {
    // The mapped bytes start as the current ones (the unmap writes them back).
    if (reads) note_access(spec.accesses, queue.device(), memory, offset, size, Access::Read);
    // A blocking map whose command failed ends here too (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST).
    submit(queue, std::move(spec), num_events, wait_list, event_out, blocking);
  } catch (...) {
    forget(memory, pointer);
    throw;
  }
  return pointer;
}

void* enqueue_map_buffer(Queue& queue, Buffer& buffer, bool blocking, cl_map_flags flags, size_t offset, size_t size,
                         cl_uint num_events, const cl_event* wait_list, cl_event* event_out) {
  check_usable(queue, buffer);
  check_map_flags(flags);
  check(size != 0 && in_bounds(buffer, offset, size), CL_INVALID_VALUE);
  check_map_access(buffer, flags);
  return enqueue_map_bytes(queue, buffer, CL_COMMAND_MAP_BUFFER, blocking, flags, offset, size, num_events, wait_list,
                           event_out);
}

void enqueue_unmap(Queue& queue, MemObject& memory, void* mapped, cl_uint num_events, const cl_event* wait_list,
                   cl_event* event_out) {
  check(&memory.context() == &queue.context(), CL_INVALID_CONTEXT);
  // The wait list is checked before the mapping is given up, so a refused unmap keeps it.
  for (const auto& event : resolve_wait_list(num_events, wait_list)) {
    check(&event->context() == &queue.context(), CL_INVALID_CONTEXT);
  }
  auto found = memory.find_mapping(mapped);
  check(found.has_value(), CL_INVALID_VALUE);
  // A map with no flags is treated as read and write.
  const bool wrote = found->flags == 0 || (found->flags & kWriteFlags);
  backend::Memory* storage = found->source.memory;
  CommandSpec spec;
  spec.type = CL_COMMAND_UNMAP_MEM_OBJECT;
  spec.operation = backend::op::Unmap{found->source, mapped, found->size, wrote};
  spec.keep_alive = {&memory};
  spec.on_finish = [storage, mapped](cl_int) { storage->unmap_pointer(mapped); };
  if (found->device != &queue.device()) {
    // The map's memory belongs to another device than this queue's: the writes go to this
    // device's own copy instead (allocated now, before the mapping is given up).
    spec.operation = wrote ? backend::Operation(backend::op::Unmap{memory.location(queue.device(), found->offset),
                                                                   mapped, found->size, true})
                           : backend::Operation(backend::op::Nothing{});
  }
  if (wrote) note_access(spec.accesses, queue.device(), memory, found->offset, found->size, Access::Overwrite);
  // Another thread's unmap of the same pointer may have come first.
  check(take_mapping(memory, mapped).has_value(), CL_INVALID_VALUE);
  submit(queue, std::move(spec), num_events, wait_list, event_out);
}

}  // namespace cucl

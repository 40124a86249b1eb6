#include "platform/memory/buffer_commands.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "platform/memory/buffer_command_checks.h"
#include "platform/objects/lookup.h"

namespace cucl {

using namespace buffer_checks;

namespace {

CommandSpec transfer(cl_command_type type, backend::Location src, backend::Location dst, size_t size,
                     HeldObjects&& keep_alive) {
  CommandSpec spec;
  spec.type = type;
  spec.operation = backend::op::Copy{src, dst, size};
  spec.keep_alive = std::move(keep_alive);
  return spec;
}

backend::Location host(const void* ptr) { return backend::Location{nullptr, const_cast<void*>(ptr), 0}; }

}  // namespace

CommandSpec read_buffer(Queue& queue, Buffer& buffer, size_t offset, size_t size, void* ptr) {
  check_usable(queue, buffer);
  check(in_bounds(buffer, offset, size) && ptr != nullptr, CL_INVALID_VALUE);
  check_host_reads(buffer);
  auto spec = transfer(CL_COMMAND_READ_BUFFER, buffer.location(queue.device(), offset), host(ptr), size,
                       {&buffer});
  note_access(spec.accesses, queue.device(), buffer, offset, size, Access::Read);
  return spec;
}

CommandSpec write_buffer(Queue& queue, Buffer& buffer, size_t offset, size_t size, const void* ptr) {
  check_usable(queue, buffer);
  check(in_bounds(buffer, offset, size) && ptr != nullptr, CL_INVALID_VALUE);
  check_host_writes(buffer);
  auto spec = transfer(CL_COMMAND_WRITE_BUFFER, host(ptr), buffer.location(queue.device(), offset), size,
                       {&buffer});
  note_access(spec.accesses, queue.device(), buffer, offset, size, Access::Overwrite);
  return spec;
}

CommandSpec copy_buffer(Queue& queue, Buffer& src, Buffer& dst, size_t src_offset, size_t dst_offset, size_t size) {
  check_usable(queue, src);
  check_usable(queue, dst);
  check(in_bounds(src, src_offset, size) && in_bounds(dst, dst_offset, size), CL_INVALID_VALUE);
  if (same_storage(src, dst)) {
    size_t s = src.origin() + src_offset, d = dst.origin() + dst_offset;
    check(!(s < d + size && d < s + size), CL_MEM_COPY_OVERLAP);
  }
  auto spec = transfer(CL_COMMAND_COPY_BUFFER, src.location(queue.device(), src_offset),
                       dst.location(queue.device(), dst_offset), size, {&src, &dst});
  note_access(spec.accesses, queue.device(), src, src_offset, size, Access::Read);
  note_access(spec.accesses, queue.device(), dst, dst_offset, size, Access::Overwrite);
  return spec;
}

CommandSpec fill_buffer(Queue& queue, Buffer& buffer, const void* pattern, size_t pattern_size, size_t offset,
                        size_t size) {
  check_usable(queue, buffer);
  check(pattern != nullptr && pattern_size != 0 && std::has_single_bit(pattern_size) && pattern_size <= 128,
        CL_INVALID_VALUE);
  check(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE);
  check(in_bounds(buffer, offset, size), CL_INVALID_VALUE);
  backend::op::Fill fill{buffer.location(queue.device(), offset), size, {}, pattern_size};
  std::memcpy(fill.pattern.data(), pattern, pattern_size);
  CommandSpec spec;
  spec.type = CL_COMMAND_FILL_BUFFER;
  spec.operation = fill;
  spec.keep_alive = {&buffer};
  note_access(spec.accesses, queue.device(), buffer, offset, size, Access::Overwrite);
  return spec;
}

CommandSpec migrate_mem_objects(Queue& queue, cl_uint count, const cl_mem* objects, cl_mem_migration_flags flags) {
  check(count != 0 && objects != nullptr, CL_INVALID_VALUE);
  constexpr cl_mem_migration_flags kValid = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  check(!(flags & ~kValid), CL_INVALID_VALUE);
  CommandSpec spec;
  spec.type = CL_COMMAND_MIGRATE_MEM_OBJECTS;
  for (cl_uint i = 0; i < count; ++i) {
    auto memory = lookup<MemObject>(objects[i]);
    check(&memory->context() == &queue.context(), CL_INVALID_CONTEXT);
    spec.keep_alive.push_back(std::move(memory));
  }
  const bool content_undefined = flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  backend::op::Migrate migrate{{}, content_undefined};
  // To the host: only a hint, since the host reaches every device's copy through map and
  // read. Otherwise the object's storage is created on the queue's device now, and the
  // command makes that copy the current one (with CONTENT_UNDEFINED, without copying).
  if (!(flags & CL_MIGRATE_MEM_OBJECT_HOST)) {
    for (auto& object : spec.keep_alive) {
      auto* memory = static_cast<MemObject*>(object.get());
      backend::Memory* storage = memory->location(queue.device(), 0).memory;
      if (std::find(migrate.memories.begin(), migrate.memories.end(), storage) == migrate.memories.end()) {
        migrate.memories.push_back(storage);
      }
      note_access(spec.accesses, queue.device(), *memory, 0, memory->size(),
                  content_undefined ? Access::Overwrite : Access::Read);
    }
  }
  spec.operation = std::move(migrate);
  return spec;
}

}  // namespace cucl

#include "platform/memory/svm_commands.h"

#include <bit>
#include <cstring>
#include <vector>

#include "base/error.h"
#include "platform/memory/memory_map.h"
#include "platform/memory/svm_rules.h"
#include "platform/objects/context.h"

namespace cucl {
namespace {

// Where `pointer` lives for work on the queue's device: in the SVM allocation that holds
// [pointer, pointer + size), or, outside any, as host memory (fine-grain system SVM).
backend::Location svm_location(Queue& queue, const void* pointer, size_t size) {
  std::optional<SvmAllocation> allocation = queue.context().svm().find(pointer);
  if (allocation && allocation->holds(pointer, size)) return allocation->location(queue.device(), pointer);
  return backend::Location{nullptr, const_cast<void*>(pointer), 0};
}

CommandSpec command(cl_command_type type, backend::Operation operation) {
  CommandSpec spec;
  spec.type = type;
  spec.operation = std::move(operation);
  return spec;
}

// Moves the shared `ranges` towards the queue's device or the host (op::Migrate).
CommandSpec migration(cl_command_type type, std::vector<backend::op::SharedRange> ranges, bool to_host,
                      bool content_undefined, backend::op::SharedMove why) {
  backend::op::Migrate migrate{{}, content_undefined};
  migrate.shared = std::move(ranges);
  migrate.to_host = to_host;
  migrate.why = why;
  return command(type, std::move(migrate));
}

}  // namespace

CommandSpec svm_free_command(Queue& queue, cl_uint num_svm_pointers, void* const* svm_pointers,
                             SvmFreeCallback free_function, void* user_data) {
  check_svm_queue(queue);
  check((num_svm_pointers == 0) == (svm_pointers == nullptr), CL_INVALID_VALUE);
  std::vector<void*> pointers(svm_pointers, svm_pointers + num_svm_pointers);
  Context* context = &queue.context();
  cl_command_queue queue_handle = queue.id();
  // The command holds its queue, and the queue its context, until it has run.
  return command(CL_COMMAND_SVM_FREE, backend::op::HostFunction{[=]() mutable {
                   if (free_function) {
                     free_function(queue_handle, static_cast<cl_uint>(pointers.size()), pointers.data(), user_data);
                     return;
                   }
                   for (void* pointer : pointers) {
                     if (pointer) context->svm().free(pointer);
                   }
                 }});
}

CommandSpec svm_memcpy(Queue& queue, void* dst, const void* src, size_t size) {
  check_svm_queue(queue);
  check(dst != nullptr && src != nullptr, CL_INVALID_VALUE);
  const auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  check(!(s < d + size && d < s + size), CL_MEM_COPY_OVERLAP);
  return command(CL_COMMAND_SVM_MEMCPY,
                 backend::op::Copy{svm_location(queue, src, size), svm_location(queue, dst, size), size});
}

CommandSpec svm_mem_fill(Queue& queue, void* pointer, const void* pattern, size_t pattern_size, size_t size) {
  check_svm_queue(queue);
  check(pointer != nullptr && pattern != nullptr, CL_INVALID_VALUE);
  check(pattern_size != 0 && std::has_single_bit(pattern_size) && pattern_size <= 128, CL_INVALID_VALUE);
  check(reinterpret_cast<uintptr_t>(pointer) % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE);
  backend::op::Fill fill{svm_location(queue, pointer, size), size, {}, pattern_size};
  std::memcpy(fill.pattern.data(), pattern, pattern_size);
  return command(CL_COMMAND_SVM_MEMFILL, fill);
}

CommandSpec svm_map(Queue& queue, cl_map_flags flags, void* pointer, size_t size) {
  check_svm_queue(queue);
  check(pointer != nullptr && size != 0, CL_INVALID_VALUE);
  check_map_flags(flags);
  return migration(CL_COMMAND_SVM_MAP, {{svm_location(queue, pointer, size), size}}, /*to_host=*/true,
                   flags & CL_MAP_WRITE_INVALIDATE_REGION, backend::op::SharedMove::ForHostAccess);
}

CommandSpec svm_unmap(Queue& queue, void* pointer) {
  check_svm_queue(queue);
  check(pointer != nullptr, CL_INVALID_VALUE);
  const SvmAllocations::MapRecord map = queue.context().svm().take_map(pointer);
  std::vector<backend::op::SharedRange> ranges;
  if (map.size) ranges.push_back({svm_location(queue, pointer, map.size), map.size, map.host_writes});
  return migration(CL_COMMAND_SVM_UNMAP, std::move(ranges), /*to_host=*/false, false,
                   backend::op::SharedMove::AfterHostAccess);
}

CommandSpec svm_migrate(Queue& queue, cl_uint num_svm_pointers, const void** svm_pointers, const size_t* sizes,
                        cl_mem_migration_flags flags) {
  check_svm_queue(queue);
  check(num_svm_pointers != 0 && svm_pointers != nullptr, CL_INVALID_VALUE);
  check(!(flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)), CL_INVALID_VALUE);
  std::vector<backend::op::SharedRange> ranges;
  for (cl_uint i = 0; i < num_svm_pointers; ++i) {
    const void* pointer = svm_pointers[i];
    const size_t size = sizes ? sizes[i] : 0;
    std::optional<SvmAllocation> allocation = pointer ? queue.context().svm().find(pointer) : std::nullopt;
    if (size) {
      check(allocation && allocation->holds(pointer, size), CL_INVALID_VALUE);
      ranges.push_back({allocation->location(queue.device(), pointer), size});
    } else if (allocation) {
      ranges.push_back({allocation->location(queue.device(), allocation->base), allocation->size});
    }
  }
  return migration(CL_COMMAND_SVM_MIGRATE_MEM, std::move(ranges), flags & CL_MIGRATE_MEM_OBJECT_HOST,
                   flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, backend::op::SharedMove::Hint);
}

}  // namespace cucl

#include "platform/queue/native_kernel.h"

#include <cstring>
#include <memory>
#include <vector>

#include "base/error.h"
#include "platform/memory/memory.h"
#include "platform/memory/memory_rules.h"

namespace cucl {

CommandSpec native_kernel(Queue& queue, NativeFunction function, const void* args, size_t args_size,
                          cl_uint num_mem_objects, const cl_mem* mem_list, const void** args_mem_loc) {
  check(function != nullptr, CL_INVALID_VALUE);
  check(args != nullptr || (args_size == 0 && num_mem_objects == 0), CL_INVALID_VALUE);
  check(args == nullptr || args_size != 0, CL_INVALID_VALUE);
  bool lists_given = mem_list != nullptr && args_mem_loc != nullptr;
  bool lists_absent = mem_list == nullptr && args_mem_loc == nullptr;
  check(num_mem_objects > 0 ? lists_given : lists_absent, CL_INVALID_VALUE);
  check(queue.device().description().execution_capabilities & CL_EXEC_NATIVE_KERNEL, CL_INVALID_OPERATION);

  // The application may reuse `args` as soon as the call returns, so the command owns a copy.
  std::shared_ptr<std::byte[]> copy;
  if (args) {
    copy.reset(new std::byte[args_size]);
    std::memcpy(copy.get(), args, args_size);
  }

  CommandSpec spec;
  spec.type = CL_COMMAND_NATIVE_KERNEL;
  const auto* base = static_cast<const std::byte*>(args);
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    auto buffer = lookup_buffer(mem_list[i]);
    check(&buffer->context() == &queue.context(), CL_INVALID_CONTEXT);
    const auto* slot = static_cast<const std::byte*>(args_mem_loc[i]);
    // Each location must be a whole pointer inside the application's argument block.
    check(slot >= base && slot + sizeof(void*) <= base + args_size, CL_INVALID_VALUE);
    // Devices that run native kernels address their memory from the host.
    auto location = buffer->location(queue.device(), 0);
    void* address = location.memory->map_pointer(location.offset, buffer->size());
    std::memcpy(copy.get() + (slot - base), &address, sizeof address);
    note_access(spec.accesses, queue.device(), *buffer, 0, buffer->size(), Access::ReadWrite);
    spec.keep_alive.push_back(Ref<Object>(buffer.get()));
  }
  spec.operation = backend::op::HostFunction{[function, copy] { function(copy.get()); }};
  return spec;
}

}  // namespace cucl

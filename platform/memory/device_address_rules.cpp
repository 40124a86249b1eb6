#include "platform/memory/device_address_rules.h"

#include <algorithm>
#include <cstring>

#include "base/error.h"
#include "platform/objects/lookup.h"
#include "platform/queue/queue.h"

namespace cucl {
namespace {

bool has_extension(const Device& device) {
  const auto& extensions = device.description().extensions;
  return std::any_of(extensions.begin(), extensions.end(),
                     [](const auto& e) { return e.name == CL_EXT_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME; });
}

}  // namespace

bool every_device_has_device_addresses(const Context& context) {
  return std::all_of(context.devices().begin(), context.devices().end(), [](Device* d) { return has_extension(*d); });
}

bool some_device_has_device_addresses(const Context& context) {
  return std::any_of(context.devices().begin(), context.devices().end(), [](Device* d) { return has_extension(*d); });
}

std::vector<cl_mem_device_address_ext> device_address_info(MemObject& memory) {
  check(Buffer::has_type(memory.type()), CL_INVALID_OPERATION);
  auto& buffer = static_cast<Buffer&>(memory);
  check(buffer.has_device_addresses(), CL_INVALID_OPERATION);
  return buffer.device_addresses();
}

KernelArgValue device_pointer_argument_value(const Kernel& kernel, cl_uint index, cl_mem_device_address_ext address) {
  check(some_device_has_device_addresses(kernel.context()), CL_INVALID_OPERATION);
  check(index < kernel.metadata().args.size() && kernel.takes_global_pointer(index), CL_INVALID_ARG_INDEX);
  return KernelArgValue::pointer(address, true);
}

void set_device_pointers_exec_info(Kernel& kernel, size_t size, const void* value) {
  check(some_device_has_device_addresses(kernel.context()), CL_INVALID_OPERATION);
  check(value != nullptr || size == 0, CL_INVALID_VALUE);
  check(size % sizeof(cl_mem_device_address_ext) == 0, CL_INVALID_VALUE);
  std::vector<uint64_t> pointers(size / sizeof(cl_mem_device_address_ext));
  if (size) std::memcpy(pointers.data(), value, size);
  kernel.set_device_pointers(std::move(pointers));
}

void note_device_pointer_accesses(const Queue& queue, const Kernel& kernel, const std::vector<KernelArgValue>& args,
                                  CommandSpec& spec) {
  Context& context = kernel.context();
  if (context.devices().size() < 2) return;  // one device: its copy is the only one
  const auto device = static_cast<unsigned>(context.device_index(queue.device()));
  const auto note = [&](uint64_t address) {
    // Any address is legal where the kernel does not use it: one in no such buffer asks nothing.
    Ref<MemObject> buffer = lookup_or_null<MemObject>(context.device_addresses().find(device, address));
    if (!buffer) return;
    note_access(spec.accesses, queue.device(), *buffer, 0, buffer->size(), Access::ReadWrite);
    spec.keep_alive.push_back(Ref<Object>(buffer.get()));
  };
  for (const KernelArgValue& arg : args) {
    if (!arg.device_pointer) continue;
    uint64_t address = 0;
    std::memcpy(&address, arg.bytes.data(), sizeof address);
    note(address);
  }
  for (uint64_t address : kernel.device_pointers()) note(address);
}

}  // namespace cucl

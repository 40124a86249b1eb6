#include "platform/program/ndrange.h"

#include <cstring>
#include <limits>

#include "backends/image_sampling.h"
#include "base/align_up.h"
#include "base/error.h"
#include "platform/memory/device_address_rules.h"
#include "platform/memory/image_rules.h"
#include "platform/program/launch_range.h"
#include "platform/objects/lookup.h"

namespace cucl {
namespace {

// An image argument's image, still alive (released since clSetKernelArg: CL_INVALID_KERNEL_ARGS).
Ref<Image> lookup_image_argument(cl_mem handle) {
  Ref<MemObject> memory = lookup_or_null<MemObject>(handle);
  auto* image = dynamic_cast<Image*>(memory.get());
  check(image != nullptr, CL_INVALID_KERNEL_ARGS);
  return Ref<Image>(image);
}

// Makes spec.operation the launch of `code` with each argument resolved to device memory.
// Built where it stays: a LaunchKernel moved costs a copy of its arguments. Made from the code
// pointer: value-initialised, it would zero its arguments' in-place storage.
backend::op::LaunchKernel& set_launch_operation(Queue& queue, const Kernel& kernel, const backend::KernelCode& code,
                                                const std::vector<KernelArgValue>& args, CommandSpec& spec) {
  auto& launch = spec.operation.emplace<backend::op::LaunchKernel>(&code);
  size_t bytes = 0;
  const auto& metadata = kernel.metadata().args;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].bytes.empty()) bytes = align_up(bytes, metadata[i].alignment) + args[i].bytes.size();
  }
  launch.bytes.resize(bytes);
  launch.arguments.reserve(args.size());
  launch.sampled_images_in_hardware = true;
  size_t offset = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    backend::op::KernelArgument argument;
    if (args[i].local_size) {
      argument.kind = backend::op::KernelArgument::Kind::Local;
      argument.size = static_cast<uint32_t>(args[i].local_size);
    } else if (!args[i].bytes.empty()) {  // by value, a sampler's bits, or an SVM pointer (the pointer itself)
      offset = align_up(offset, metadata[i].alignment);
      argument.kind = backend::op::KernelArgument::Kind::Bytes;
      argument.bytes_offset = static_cast<uint32_t>(offset);
      argument.size = static_cast<uint32_t>(args[i].bytes.size());
      std::memcpy(launch.bytes.data() + offset, args[i].bytes.data(), args[i].bytes.size());
      offset += args[i].bytes.size();
    } else if (metadata[i].kind == compiler::KernelArgMetadata::Kind::Image) {
      // The kernel gets the image's descriptor on this device; the pixels are what it touches.
      Ref<Image> image = lookup_image_argument(args[i].memory);
      check_device_takes(queue.device(), *image);
      argument.kind = backend::op::KernelArgument::Kind::Buffer;
      const Image::KernelView view = image->descriptor(queue.device());
      argument.buffer = view.descriptor;
      const bool read_only = metadata[i].access == CL_KERNEL_ARG_ACCESS_READ_ONLY;
      // Only read-only images are sampled.
      if (read_only && backend::sampled_through_textures(image->type()) && !view.sampled_in_hardware) {
        launch.sampled_images_in_hardware = false;
      }
      if (read_only && view.sampling && view.sampling->reads_a_copy()) launch.sampled_copies.push_back(view.sampling);
      if (!read_only) launch.written_images.push_back(image->location(queue.device(), 0));
      note_access(spec.accesses, queue.device(), *image, 0, image->size(), read_only ? Access::Read : Access::ReadWrite);
      spec.keep_alive.push_back(Ref<Object>(image.get()));
    } else {
      argument.kind = backend::op::KernelArgument::Kind::Buffer;
      if (args[i].memory) {
        // Released since clSetKernelArg: the argument no longer names a buffer.
        Ref<MemObject> buffer = lookup_or_null<MemObject>(args[i].memory);
        check(buffer != nullptr, CL_INVALID_KERNEL_ARGS);
        argument.buffer = buffer->location(queue.device(), 0);
        // A kernel may read and write all of a buffer, except through __constant.
        const bool read_only = metadata[i].kind == compiler::KernelArgMetadata::Kind::ConstantPointer;
        note_access(spec.accesses, queue.device(), *buffer, 0, buffer->size(),
                    read_only ? Access::Read : Access::ReadWrite);
        spec.keep_alive.push_back(Ref<Object>(buffer.get()));
      }
    }
    launch.arguments.push_back(argument);
  }
  return launch;
}

// Coarse-grain SVM that a pointer argument (or CL_KERNEL_EXEC_INFO_SVM_PTRS) points into, used
// last by another device's kernel or mapped by the host since: its pages move to this device
// before the launch, at the bus's speed, rather than as the kernel faults on them, where this
// device made the memory or reaches its maker's memory directly (a GPU, another GPU's managed
// memory; the host device moves nothing). Fine grain stays where it is: the host may be
// working on it while the kernel runs.
void prefetch_svm_arguments(const Queue& queue, const Kernel& kernel, const std::vector<KernelArgValue>& args,
                            backend::op::LaunchKernel& launch) {
  Context& context = kernel.context();
  if (context.devices().size() < 2) return;  // one device: nothing else moves the pages
  const auto consider = [&](uint64_t address) {
    // Once per allocation: a second pointer into it finds it used here already.
    const auto use = context.svm().note_kernel_use(reinterpret_cast<const void*>(address), queue.device());
    if (!use || !use->elsewhere || use->allocation.fine_grain()) return;
    const SvmAllocation& allocation = use->allocation;
    Device& here = queue.device();
    if (allocation.device != &here && !here.backend().copies_directly_from(allocation.device->backend())) return;
    launch.prefetch.push_back({allocation.location(*allocation.device, allocation.base), allocation.size});
  };
  for (cl_uint i = 0; i < args.size(); ++i) {
    if (args[i].device_pointer || args[i].bytes.size() != sizeof(uint64_t) || !kernel.takes_global_pointer(i)) continue;
    uint64_t address = 0;
    std::memcpy(&address, args[i].bytes.data(), sizeof address);
    consider(address);
  }
  for (uint64_t address : kernel.svm_pointers()) consider(address);
}

}  // namespace

CommandSpec ndrange_kernel(Queue& queue, Kernel& kernel, cl_uint work_dim, const size_t* global_work_offset,
                           const size_t* global_work_size, const size_t* local_work_size) {
  return kernel.with_arguments([&](const std::vector<KernelArgValue>& args) {
    return ndrange_kernel_with(queue, kernel, args, work_dim, global_work_offset, global_work_size, local_work_size);
  });
}

CommandSpec ndrange_kernel_with(Queue& queue, Kernel& kernel, const std::vector<KernelArgValue>& args, cl_uint work_dim,
                                const size_t* global_work_offset, const size_t* global_work_size,
                                const size_t* local_work_size) {
  Device& device = queue.device();
  check(&kernel.context() == &queue.context(), CL_INVALID_CONTEXT);
  const backend::KernelCode& code = kernel.code(device);  // CL_INVALID_PROGRAM_EXECUTABLE
  const auto& description = device.description();
  const backend::NDRange range = launch_range(kernel, device, code, work_dim, global_work_offset, global_work_size,
                                              local_work_size);

  CommandSpec spec;
  spec.type = CL_COMMAND_NDRANGE_KERNEL;
  spec.keep_alive.push_back(Ref<Object>(&kernel));
  for (const KernelArgValue& arg : args) check(arg.set, CL_INVALID_KERNEL_ARGS);
  check(Kernel::local_memory_size(code, args) <= description.local_mem_size, CL_OUT_OF_RESOURCES);
  backend::op::LaunchKernel& launch = set_launch_operation(queue, kernel, code, args, spec);
  note_device_pointer_accesses(queue, kernel, args, spec);
  prefetch_svm_arguments(queue, kernel, args, launch);
  launch.range = range;
  launch.printf_buffer_size = description.printf_buffer_size;
  bool empty = false;
  for (cl_uint d = 0; d < work_dim; ++d) empty = empty || range.global_size[d] == 0;
  if (empty) {
    spec.operation = backend::op::Nothing{};
    spec.accesses.clear();  // touches no memory
  }
  return spec;
}

CommandSpec task_kernel(Queue& queue, Kernel& kernel) {
  const size_t one = 1;
  CommandSpec spec = ndrange_kernel(queue, kernel, 1, nullptr, &one, &one);
  spec.type = CL_COMMAND_TASK;
  return spec;
}

}  // namespace cucl

#include "platform/program/ndrange.h"

#include <cstring>
#include <limits>

#include "base/error.h"
#include "platform/objects/lookup.h"

namespace cucl {
namespace {

size_t align_up(size_t value, size_t alignment) { return (value + alignment - 1) / alignment * alignment; }

// The largest divisor of `n` that is at most `limit`.
size_t largest_divisor_at_most(size_t n, size_t limit) {
  for (size_t d = std::min(n, limit); d > 1; --d) {
    if (n % d == 0) return d;
  }
  return 1;
}

backend::op::LaunchKernel launch_operation(Queue& queue, const Kernel& kernel,
                                           const std::vector<KernelArgValue>& args, CommandSpec& spec) {
  backend::op::LaunchKernel launch;
  launch.kernel = &kernel.code(queue.device());
  size_t bytes = 0;
  const auto& metadata = kernel.metadata().args;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].bytes.empty()) bytes = align_up(bytes, metadata[i].alignment) + args[i].bytes.size();
  }
  launch.bytes.resize(bytes);
  launch.arguments.reserve(args.size());
  size_t offset = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    backend::op::KernelArgument argument;
    if (args[i].local_size) {
      argument.kind = backend::op::KernelArgument::Kind::Local;
      argument.size = static_cast<uint32_t>(args[i].local_size);
    } else if (metadata[i].kind == compiler::KernelArgMetadata::Kind::Value) {
      offset = align_up(offset, metadata[i].alignment);
      argument.kind = backend::op::KernelArgument::Kind::Bytes;
      argument.bytes_offset = static_cast<uint32_t>(offset);
      argument.size = static_cast<uint32_t>(args[i].bytes.size());
      std::memcpy(launch.bytes.data() + offset, args[i].bytes.data(), args[i].bytes.size());
      offset += args[i].bytes.size();
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

}  // namespace

std::array<size_t, 3> choose_local_size(cl_uint work_dim, const std::array<size_t, 3>& global, size_t max_group,
                                        const std::array<size_t, 3>& max_item_sizes, cl_uint compute_units) {
  std::array<size_t, 3> local{1, 1, 1};
  size_t total = 1;
  for (cl_uint d = 0; d < work_dim; ++d) total *= std::max<size_t>(global[d], 1);
  // Enough groups to keep every compute unit busy several times over, else the largest.
  const size_t wanted_groups = static_cast<size_t>(compute_units) * 4;
  size_t budget = std::max<size_t>(1, std::min(max_group, total / std::max<size_t>(wanted_groups, 1)));
  for (cl_uint d = 0; d < work_dim; ++d) {
    local[d] = largest_divisor_at_most(std::max<size_t>(global[d], 1), std::min(budget, max_item_sizes[d]));
    budget = std::max<size_t>(1, budget / local[d]);
  }
  return local;
}

CommandSpec ndrange_kernel(Queue& queue, Kernel& kernel, cl_uint work_dim, const size_t* global_work_offset,
                           const size_t* global_work_size, const size_t* local_work_size) {
  Device& device = queue.device();
  check(&kernel.context() == &queue.context(), CL_INVALID_CONTEXT);
  const backend::KernelCode& code = kernel.code(device);  // CL_INVALID_PROGRAM_EXECUTABLE
  const auto& description = device.description();
  check(work_dim >= 1 && work_dim <= description.max_work_item_dimensions, CL_INVALID_WORK_DIMENSION);
  // OpenCL 2.1 and newer devices: a NULL global size, like a zero one, launches nothing.
  static constexpr size_t kNoWork[3] = {0, 0, 0};
  if (!global_work_size) global_work_size = kNoWork;

  backend::NDRange range;
  range.work_dim = work_dim;
  for (cl_uint d = 0; d < work_dim; ++d) {
    range.global_size[d] = global_work_size[d];
    range.global_offset[d] = global_work_offset ? global_work_offset[d] : 0;
    check(range.global_offset[d] <= std::numeric_limits<size_t>::max() - range.global_size[d],
          CL_INVALID_GLOBAL_OFFSET);
  }

  const auto& reqd = kernel.metadata().reqd_work_group_size;
  const bool has_reqd = reqd[0] != 0;
  const size_t max_group = std::min(code.max_work_group_size(), description.max_work_group_size);
  if (local_work_size) {
    size_t product = 1;
    for (cl_uint d = 0; d < work_dim; ++d) {
      check(local_work_size[d] != 0, CL_INVALID_WORK_GROUP_SIZE);
      check(local_work_size[d] <= description.max_work_item_sizes[d], CL_INVALID_WORK_ITEM_SIZE);
      range.local_size[d] = local_work_size[d];
      product *= local_work_size[d];
    }
    if (has_reqd) {
      for (cl_uint d = 0; d < 3; ++d) check(range.local_size[d] == reqd[d], CL_INVALID_WORK_GROUP_SIZE);
    }
    check(product <= max_group, CL_INVALID_WORK_GROUP_SIZE);
    if (kernel.uniform_work_groups(device)) {
      for (cl_uint d = 0; d < work_dim; ++d) {
        check(range.global_size[d] % range.local_size[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
      }
    }
  } else if (has_reqd) {
    for (cl_uint d = 0; d < 3; ++d) range.local_size[d] = reqd[d];
    check(reqd[0] * reqd[1] * reqd[2] <= max_group, CL_INVALID_WORK_GROUP_SIZE);
    if (kernel.uniform_work_groups(device)) {
      for (cl_uint d = 0; d < work_dim; ++d) {
        check(range.global_size[d] % range.local_size[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
      }
    }
  } else {
    size_t group_limit = max_group;
    if (size_t preferred = code.preferred_work_group_size()) group_limit = std::min(group_limit, preferred);
    range.local_size = choose_local_size(work_dim, range.global_size, group_limit, description.max_work_item_sizes,
                                         description.max_compute_units);
  }

  CommandSpec spec;
  spec.type = CL_COMMAND_NDRANGE_KERNEL;
  spec.keep_alive.push_back(Ref<Object>(&kernel));
  backend::op::LaunchKernel launch = kernel.with_arguments([&](const std::vector<KernelArgValue>& args) {
    for (const KernelArgValue& arg : args) check(arg.set, CL_INVALID_KERNEL_ARGS);
    check(kernel.local_memory_size(device, args) <= description.local_mem_size, CL_OUT_OF_RESOURCES);
    return launch_operation(queue, kernel, args, spec);
  });
  launch.range = range;
  launch.printf_buffer_size = description.printf_buffer_size;
  bool empty = false;
  for (cl_uint d = 0; d < work_dim; ++d) empty = empty || range.global_size[d] == 0;
  if (empty) {
    spec.operation = backend::op::Nothing{};
    spec.accesses.clear();  // touches no memory
  } else {
    spec.operation = std::move(launch);
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

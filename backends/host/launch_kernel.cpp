#include "backends/host/launch_kernel.h"

#include <pthread.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "backends/host/fiber_group.h"
#include "backends/host/host_kernel.h"
#include "backends/host/host_memory.h"
#include "backends/printf_format.h"
#include "base/align_up.h"

namespace cucl::backend::host {
namespace {

constexpr size_t kLocalAlignment = 128;

struct AlignedFree {
  void operator()(void* memory) const { std::free(memory); }
};

// Where each argument's value lives for the whole launch, and where in the __local arena
// each __local argument goes.
struct LaunchArguments {
  // The by-value arguments, copied to memory aligned for any OpenCL C type (long16 and
  // structs of them need 128 bytes; a byval parameter's alignment is a promise).
  std::unique_ptr<std::byte, AlignedFree> bytes;
  std::vector<void*> values;        // args[i] handed to the kernel
  std::vector<void*> pointer_slots;  // buffer and __local pointers, which values[i] point into
  std::vector<std::pair<size_t, size_t>> local_offsets;  // (argument index, arena offset)
  size_t arena_bytes = 0;
};

LaunchArguments prepare_arguments(const op::LaunchKernel& launch, const HostKernel& kernel) {
  LaunchArguments prepared;
  prepared.bytes.reset(static_cast<std::byte*>(
      std::aligned_alloc(kLocalAlignment, align_up(std::max<size_t>(launch.bytes.size(), 1), kLocalAlignment))));
  if (!prepared.bytes) throw std::bad_alloc();
  if (!launch.bytes.empty()) std::memcpy(prepared.bytes.get(), launch.bytes.data(), launch.bytes.size());
  const size_t count = launch.arguments.size();
  prepared.values.resize(count);
  prepared.pointer_slots.resize(count);
  size_t arena = align_up(kernel.static_local_memory(), kLocalAlignment);
  for (size_t i = 0; i < count; ++i) {
    const op::KernelArgument& argument = launch.arguments[i];
    switch (argument.kind) {
      case op::KernelArgument::Kind::Bytes:
        prepared.values[i] = prepared.bytes.get() + argument.bytes_offset;
        break;
      case op::KernelArgument::Kind::Buffer:
        prepared.pointer_slots[i] =
            argument.buffer.memory || argument.buffer.host ? resolve(argument.buffer) : nullptr;
        prepared.values[i] = &prepared.pointer_slots[i];
        break;
      case op::KernelArgument::Kind::Local:
        prepared.local_offsets.emplace_back(i, arena);
        arena = align_up(arena + argument.size, kLocalAlignment);
        break;
    }
  }
  prepared.arena_bytes = arena;
  return prepared;
}

// The calling thread's stack, where the work-items of a loop-mode group keep private memory.
// A thread's stack never moves, so each thread asks once: pthread_getattr_np costs a
// sched_getaffinity call (and a read of /proc/self/maps on the main thread), which was a
// few percent of every small launch.
void thread_stack(char*& low, char*& high) {
  struct Range {
    char* low = nullptr;
    char* high = nullptr;
  };
  thread_local const Range range = [] {
    Range found;
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return found;
    void* base = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attributes, &base, &size) == 0) {
      found.low = static_cast<char*>(base);
      found.high = found.low + size;
    }
    pthread_attr_destroy(&attributes);
    return found;
  }();
  low = range.low;
  high = range.high;
}

// Work-groups along dimension `d`, the last one possibly smaller.
size_t group_count(const NDRange& range, unsigned d) {
  return (range.global_size[d] + range.local_size[d] - 1) / range.local_size[d];
}

// One thread's state while it runs a range of work-groups.
class GroupRunner {
 public:
  GroupRunner(const op::LaunchKernel& launch, const HostKernel& kernel, const LaunchArguments& arguments,
              char* printf_buffer, FiberGroups& fibers)
      : fibers_(fibers), kernel_(kernel), values_(arguments.values), slots_(arguments.pointer_slots),
        arena_(static_cast<char*>(std::aligned_alloc(kLocalAlignment, std::max(arguments.arena_bytes, kLocalAlignment)))) {
    if (!arena_) throw std::bad_alloc();
    for (auto [index, offset] : arguments.local_offsets) {
      slots_[index] = arena_.get() + offset;
      values_[index] = &slots_[index];
    }
    const NDRange& range = launch.range;
    for (unsigned d = 0; d < 3; ++d) {
      context_.enqueued_local_size[d] = range.local_size[d];
      context_.global_size[d] = range.global_size[d];
      context_.global_offset[d] = range.global_offset[d];
      context_.num_groups[d] = group_count(range, d);
    }
    context_.work_dim = range.work_dim;
    context_.local_memory = arena_.get();
    context_.local_memory_bytes = arguments.arena_bytes;
    thread_stack(context_.private_low, context_.private_high);
    context_.printf_buffer = printf_buffer;
    if (const size_t bytes = kernel.region_state_bytes(range.local_size[0] * range.local_size[1] * range.local_size[2])) {
      fiber_group_ = fibers_.take();
      context_.region_state = fiber_group_->region_state(bytes);
    }
  }

  ~GroupRunner() {
    if (fiber_group_) fibers_.give_back(std::move(fiber_group_));
  }
  GroupRunner(const GroupRunner&) = delete;
  GroupRunner& operator=(const GroupRunner&) = delete;

  void run_group(size_t linear) {
    const size_t gx = linear % context_.num_groups[0];
    const size_t gy = linear / context_.num_groups[0] % context_.num_groups[1];
    const size_t gz = linear / (context_.num_groups[0] * context_.num_groups[1]);
    const size_t group[3] = {gx, gy, gz};
    for (unsigned d = 0; d < 3; ++d) {
      context_.group_id[d] = group[d];
      const size_t start = group[d] * context_.enqueued_local_size[d];
      context_.local_size[d] = std::min(context_.enqueued_local_size[d], context_.global_size[d] - start);
    }
    if (kernel_.has_barriers()) {
      if (!fiber_group_) fiber_group_ = fibers_.take();
      fiber_group_->run(kernel_.work_item(), values_.data(), context_, kernel_.stack_bytes());
    } else if (kernel_.needs_own_stack()) {
      if (!fiber_group_) fiber_group_ = fibers_.take();
      fiber_group_->run_on_stack(kernel_.work_group(), values_.data(), context_, kernel_.stack_bytes());
    } else {
      kernel_.work_group()(values_.data(), &context_);
    }
  }

 private:
  FiberGroups& fibers_;
  const HostKernel& kernel_;
  std::vector<void*> values_;
  std::vector<void*> slots_;
  std::unique_ptr<char, AlignedFree> arena_;
  WorkGroupContext context_{};
  std::unique_ptr<FiberGroup> fiber_group_;
};


// The launch's printf buffer (backends/printf_format.h), when the kernel prints.
std::unique_ptr<char[]> make_printf_buffer(const HostKernel& kernel, size_t capacity) {
  if (!kernel.uses_printf()) return nullptr;
  auto buffer = std::make_unique<char[]>(kPrintfHeaderBytes + capacity);
  const uint64_t header[2] = {0, capacity};
  std::memcpy(buffer.get(), header, sizeof header);
  return buffer;
}

}  // namespace

cl_int launch_kernel(const op::LaunchKernel& launch, FiberGroups& fibers) {
  const auto& kernel = static_cast<const HostKernel&>(*launch.kernel);
  const LaunchArguments arguments = prepare_arguments(launch, kernel);
  size_t groups = 1;
  for (unsigned d = 0; d < 3; ++d) {
    groups *= group_count(launch.range, d);
  }
  if (groups == 0) return CL_SUCCESS;
  std::unique_ptr<char[]> printf_buffer = make_printf_buffer(kernel, launch.printf_buffer_size);
  if (groups == 1) {
    GroupRunner(launch, kernel, arguments, printf_buffer.get(), fibers).run_group(0);
  } else {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, groups), [&](const tbb::blocked_range<size_t>& range) {
      GroupRunner runner(launch, kernel, arguments, printf_buffer.get(), fibers);
      for (size_t group = range.begin(); group != range.end(); ++group) runner.run_group(group);
    });
  }
  if (printf_buffer) {
    const std::string text = format_printf_buffer(printf_buffer.get(), kernel.printf_sites());
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  return CL_SUCCESS;
}

}  // namespace cucl::backend::host

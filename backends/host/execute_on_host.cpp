#include <cstring>
#include <type_traits>

#include "backends/fill_pattern.h"
#include "backends/host/host_memory.h"
#include "backends/host/host_stream.h"
#include "backends/host/launch_kernel.h"

namespace cucl::backend::host {
namespace {

// Each overload performs one kind of operation on host memory.
struct HostExecutor {
  FiberGroups& fibers;

  void operator()(const op::Nothing&) const {}

  void operator()(const op::Copy& copy) const {
    // memmove: a copy within one buffer may overlap only where the API allows it (never),
    // but a read into a USE_HOST_PTR buffer's own memory may.
    std::memmove(resolve(copy.dst), resolve(copy.src), copy.size);
  }

  void operator()(const op::CopyRect& rect) const {
    const char* src = resolve(rect.src);
    char* dst = resolve(rect.dst);
    for (size_t z = 0; z < rect.region[2]; ++z) {
      for (size_t y = 0; y < rect.region[1]; ++y) {
        std::memmove(dst + z * rect.dst_slice_pitch + y * rect.dst_row_pitch,
                     src + z * rect.src_slice_pitch + y * rect.src_row_pitch, rect.region[0]);
      }
    }
  }

  void operator()(const op::Fill& fill) const {
    fill_with_pattern(resolve(fill.dst), fill.size, fill.pattern.data(), fill.pattern_size);
  }

  void operator()(const op::FillRect& fill) const {
    char* first = resolve(fill.dst);
    for (size_t z = 0; z < fill.region[2]; ++z) {
      for (size_t y = 0; y < fill.region[1]; ++y) {
        char* row = first + z * fill.slice_pitch + y * fill.row_pitch;
        for (size_t x = 0; x < fill.region[0]; x += fill.pattern_size) {
          std::memcpy(row + x, fill.pattern.data(), fill.pattern_size);
        }
      }
    }
  }

  void operator()(const op::Map& map) const {
    const char* src = resolve(map.src);
    if (map.needs_read && map.mapped != src) std::memcpy(map.mapped, src, map.size);
  }

  void operator()(const op::Unmap& unmap) const {
    char* dst = resolve(unmap.dst);
    if (unmap.needs_write && unmap.mapped != dst) std::memcpy(dst, unmap.mapped, unmap.size);
  }

  void operator()(const op::Migrate&) const {}  // host memory is always current on the host

  void operator()(const op::HostFunction& function) const { function.run(); }

  cl_int operator()(const op::LaunchKernel& launch) const { return launch_kernel(launch, fibers); }

  // In order; the first failure ends the list.
  cl_int operator()(const op::CommandList& list) const {
    for (const Operation& operation : list.recorded->operations) {
      if (cl_int status = execute_on_host(operation, fibers); status != CL_SUCCESS) return status;
    }
    return CL_SUCCESS;
  }
};

template <class Executor, class Operation>
cl_int run(const Executor& executor, const Operation& operation) {
  if constexpr (std::is_same_v<decltype(executor(operation)), cl_int>) {
    return executor(operation);
  } else {
    executor(operation);
    return CL_SUCCESS;
  }
}

}  // namespace

cl_int execute_on_host(const Operation& operation, FiberGroups& fibers) {
  return std::visit([&](const auto& alternative) { return run(HostExecutor{fibers}, alternative); }, operation);
}

}  // namespace cucl::backend::host

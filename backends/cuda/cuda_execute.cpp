#include "backends/cuda/cuda_execute.h"

#include <algorithm>
#include <optional>
#include <cstring>
#include <type_traits>

#include "backends/cuda/cuda_fill.h"
#include "backends/fill_pattern.h"
#include "backends/cuda/cuda_graph_replay.h"
#include "backends/cuda/cuda_image_arrays.h"
#include "backends/cuda/cuda_launch.h"
#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_prefetch.h"
#include "backends/cuda/cuda_program.h"
#include "backends/cuda/cuda_stream_point.h"

namespace cucl::backend::cuda {
namespace {

CudaMemory& memory_of(const Location& location) { return *static_cast<CudaMemory*>(location.memory); }

// Each overload enqueues one kind of operation.
struct StreamExecutor {
  CudaContext& context;
  CUstream stream;

  Pending operator()(const op::Nothing&) const { return Pending::Nothing; }
  // Buffers: one device, always current. Shared memory: its pages move ahead of their use.
  Pending operator()(const op::Migrate& migrate) const {
    return prefetch_shared(context, stream, migrate) ? Pending::StreamWork : Pending::Nothing;
  }

  Pending operator()(const op::Copy& copy) const {
    if (copy.size == 0) return Pending::Nothing;
    char* src_host = host_address(copy.src);
    char* dst_host = host_address(copy.dst);
    if (src_host && dst_host) {  // application memory and registered USE_HOST_PTR memory
      // Here and now, so after the stream's earlier work (which may use the same memory
      // through its device mapping).
      context.check(context.driver().cuStreamSynchronize(stream), "cuStreamSynchronize");
      std::memmove(dst_host, src_host, copy.size);
      return Pending::Nothing;
    }
    if (!copy.src.memory) return host_to_device(context, stream, device_address(copy.dst), src_host, copy.size);
    if (!copy.dst.memory) return device_to_host(context, stream, dst_host, device_address(copy.src), copy.size);
    CudaContext& source_context = memory_of(copy.src).context();
    CudaContext& destination_context = memory_of(copy.dst).context();
    if (&source_context != &destination_context && !src_host && !dst_host) {  // between GPUs' memories
      context.check(context.driver().cuMemcpyPeerAsync(device_address(copy.dst), destination_context.handle(),
                                                       device_address(copy.src), source_context.handle(),
                                                       copy.size, stream),
                    "cuMemcpyPeerAsync");
      return Pending::StreamWork;
    }
    context.check(context.driver().cuMemcpyAsync(device_address(copy.dst), device_address(copy.src), copy.size, stream),
                  "cuMemcpyAsync");
    return Pending::StreamWork;
  }

  Pending operator()(const op::CopyRect& rect) const {
    // Between two ends in host memory the rows are copied here and now: after the stream's
    // earlier work, as above.
    if (host_address(rect.src) && host_address(rect.dst)) {
      context.check(context.driver().cuStreamSynchronize(stream), "cuStreamSynchronize");
    }
    return enqueue_copy_rect(context, stream, rect);
  }

  Pending operator()(const op::Fill& fill) const {
    if (fill.size == 0) return Pending::Nothing;
    if (!fill.dst.memory) {  // host memory (SVM of the host's heap): here and now, as copies between host memory
      context.check(context.driver().cuStreamSynchronize(stream), "cuStreamSynchronize");
      fill_with_pattern(static_cast<char*>(fill.dst.host) + fill.dst.offset, fill.size, fill.pattern.data(),
                        fill.pattern_size);
      return Pending::Nothing;
    }
    enqueue_fill(context, stream, device_address(fill.dst), fill.size, fill.pattern, fill.pattern_size);
    return Pending::StreamWork;
  }

  // Image fills: one fill where the rows (and slices) follow each other, else one launch
  // over the rows.
  Pending operator()(const op::FillRect& fill) const {
    std::array<uint8_t, 128> pattern{};
    std::copy(fill.pattern.begin(), fill.pattern.begin() + fill.pattern_size, pattern.begin());
    const CUdeviceptr first = memory_of(fill.dst).device_address(fill.dst.offset);
    if (op::box_is_unbroken(fill.region, fill.row_pitch, fill.slice_pitch)) {
      enqueue_fill(context, stream, first, fill.region[0] * fill.region[1] * fill.region[2], pattern,
                   fill.pattern_size);
    } else {
      enqueue_fill_rows(context, stream, first, fill.region[0], fill.region[1], fill.region[2], fill.row_pitch,
                        fill.slice_pitch, pattern, fill.pattern_size);
    }
    return Pending::StreamWork;
  }

  // A dual view maps at its host copy's address (map_pointer), which the copy engines reach
  // at another.
  Pending operator()(const op::Map& map) const {
    CudaMemory& memory = memory_of(map.src);
    if (!map.needs_read || memory.maps_in_place(map.src.offset, map.mapped)) return Pending::Nothing;
    if (memory.dual_view()) {
      copy_view(context, stream, memory, map.src.offset, map.size, /*to_host=*/true);
      return Pending::StreamWork;
    }
    return device_to_host(context, stream, map.mapped, memory.device_address(map.src.offset), map.size);
  }

  Pending operator()(const op::Unmap& unmap) const {
    CudaMemory& memory = memory_of(unmap.dst);
    if (!unmap.needs_write || memory.maps_in_place(unmap.dst.offset, unmap.mapped)) return Pending::Nothing;
    if (memory.dual_view()) {
      copy_view(context, stream, memory, unmap.dst.offset, unmap.size, /*to_host=*/false);
      return Pending::StreamWork;
    }
    return host_to_device(context, stream, memory.device_address(unmap.dst.offset), unmap.mapped, unmap.size);
  }

  // The application's pointer, or the host address of registered memory (else null).
  static char* host_address(const Location& location) {
    if (!location.memory) return static_cast<char*>(location.host) + location.offset;
    return memory_of(location).host_address(location.offset);
  }
  static CUdeviceptr device_address(const Location& location) {
    return memory_of(location).device_address(location.offset);
  }
};

// Counts the writes an operation puts on a stream into the memory it writes
// (CudaMemory::writes), as it is enqueued: a launch enqueued later in stream order then finds
// the CUDA arrays that copy that memory out of date (cuda_image_arrays.h). A command list's
// operations count one by one as they are enqueued, or together where the list runs as a
// graph (which samples no array).
struct NoteWrites {
  void operator()(const op::Copy& copy) const { note(copy.dst); }
  void operator()(const op::CopyRect& rect) const { note(rect.dst); }
  void operator()(const op::Fill& fill) const { note(fill.dst); }
  void operator()(const op::FillRect& fill) const { note(fill.dst); }
  void operator()(const op::Unmap& unmap) const {
    if (unmap.needs_write) note(unmap.dst);
  }
  void operator()(const op::LaunchKernel& launch) const {
    for (const Location& pixels : launch.written_images) note(pixels);
  }
  template <class Other>
  void operator()(const Other&) const {}
  static void note(const Location& location) {
    if (location.memory) memory_of(location).note_write();
  }
};

// What an operation's enqueue waits for (see waits_for_stream).
struct StreamWaits {
  CudaContext& context;

  bool operator()(const op::Copy& copy) const {
    if (copy.size == 0) return false;
    char* src_host = StreamExecutor::host_address(copy.src);
    char* dst_host = StreamExecutor::host_address(copy.dst);
    if (src_host && dst_host) return true;  // copied here, after the stream's work
    if (!copy.src.memory) return host_to_device_waits(context, src_host, copy.size);
    if (!copy.dst.memory) return device_to_host_waits(context, dst_host, copy.size);
    return false;
  }
  bool operator()(const op::Fill& fill) const { return fill.size && !fill.dst.memory; }
  bool operator()(const op::CopyRect& rect) const {
    // Rows to or from host memory may be copied synchronously.
    return StreamExecutor::host_address(rect.src) || StreamExecutor::host_address(rect.dst);
  }
  bool operator()(const op::Map& map) const {
    CudaMemory& memory = memory_of(map.src);
    if (!map.needs_read || memory.maps_in_place(map.src.offset, map.mapped) || memory.dual_view()) return false;
    return device_to_host_waits(context, map.mapped, map.size);
  }
  bool operator()(const op::Unmap& unmap) const {
    CudaMemory& memory = memory_of(unmap.dst);
    if (!unmap.needs_write || memory.maps_in_place(unmap.dst.offset, unmap.mapped) || memory.dual_view()) {
      return false;
    }
    return host_to_device_waits(context, unmap.mapped, unmap.size);
  }
  bool operator()(const op::CommandList& list) const {
    for (const Operation& operation : list.recorded->operations) {
      if (std::visit(*this, operation)) return true;
    }
    return false;
  }
  template <class Other>
  bool operator()(const Other&) const {
    return false;
  }
};

struct TouchesHost {
  bool operator()(const op::Copy& copy) const { return copy.size && (!copy.src.memory || !copy.dst.memory); }
  bool operator()(const op::CopyRect& rect) const { return !rect.src.memory || !rect.dst.memory; }
  bool operator()(const op::Fill& fill) const { return fill.size && !fill.dst.memory; }
  bool operator()(const op::CommandList& list) const {
    return std::any_of(list.recorded->operations.begin(), list.recorded->operations.end(),
                       [this](const Operation& operation) { return std::visit(*this, operation); });
  }
  template <class Other>
  bool operator()(const Other&) const {
    return false;
  }
};

// Whether a list's operations can all be captured into a CUDA graph: device work only (no
// host memory at either end of a copy, no printf, whose records the host reads after each
// kernel, no sampled CUDA arrays).
struct Capturable {
  bool operator()(const op::Copy& copy) const { return copy.src.memory && copy.dst.memory && !both_host(copy); }
  bool operator()(const op::CopyRect& rect) const { return rect.src.memory && rect.dst.memory && !both_host(rect); }
  bool operator()(const op::LaunchKernel& launch) const {
    // A launch sampling a CUDA array may have to copy the pixels in first, which each replay
    // decides anew.
    return !static_cast<const CudaKernelCode&>(*launch.kernel).uses_printf() && launch.sampled_copies.empty();
  }
  bool operator()(const op::Fill& fill) const { return fill.dst.memory != nullptr; }
  bool operator()(const op::FillRect&) const { return true; }
  bool operator()(const op::Nothing&) const { return true; }
  bool operator()(const op::Migrate&) const { return true; }
  template <class Other>
  bool operator()(const Other&) const {
    return false;
  }
  template <class Transfer>
  static bool both_host(const Transfer& transfer) {  // copied by the host, here and now
    return StreamExecutor::host_address(transfer.src) && StreamExecutor::host_address(transfer.dst);
  }
};

bool capturable(const op::RecordedOperations& list) {
  for (const Operation& operation : list.operations) {
    if (!std::visit(Capturable{}, operation)) return false;
  }
  return true;
}

// In stream order: each operation runs after those before it.
Enqueued enqueue_list(CudaContext& context, CUstream stream, const op::RecordedOperations& list) {
  Enqueued all;
  for (const Operation& operation : list.operations) {
    Enqueued one = enqueue_operation(context, stream, operation);
    if (one.status < 0) return one;
    if (one.pending == Pending::StreamWork) all.pending = Pending::StreamWork;
  }
  return all;
}

// A list of one kernel is a graph too: an update sets its node, and on the H100 setting a
// node and launching its graph cost the driver less than a cuLaunchKernel (1.8 vs 2.7 us).
Enqueued enqueue_command_list(CudaContext& context, CUstream stream, const op::RecordedOperations& list) {
  if (capturable(list)) {
    auto operation = [&](CUstream capture, const Operation& one) { return enqueue_operation(context, capture, one); };
    if (std::optional<Enqueued> launched = launch_as_graph(context, stream, list, operation)) {
      for (const Operation& one : list.operations) std::visit(NoteWrites{}, one);
      return *launched;
    }
  }
  return enqueue_list(context, stream, list);
}

}  // namespace

bool touches_host_memory(const Operation& operation) { return std::visit(TouchesHost{}, operation); }

bool waits_for_stream(CudaContext& context, const Operation& operation) {
  return std::visit(StreamWaits{context}, operation);
}

Enqueued enqueue_operation(CudaContext& context, CUstream stream, const Operation& operation) {
  StreamExecutor executor{context, stream};
  std::visit(NoteWrites{}, operation);
  return std::visit(
      [&](const auto& alternative) -> Enqueued {
        using Kind = std::decay_t<decltype(alternative)>;
        if constexpr (std::is_same_v<Kind, op::LaunchKernel>) {
          if (!alternative.prefetch.empty()) prefetch_shared(context, stream, op::Migrate{{}, false, alternative.prefetch});
          if (!alternative.sampled_copies.empty()) refresh_sampled_copies(stream, alternative);
          return enqueue_kernel_launch(context, stream, alternative);
        } else if constexpr (std::is_same_v<Kind, op::CommandList>) {
          return enqueue_command_list(context, stream, *alternative.recorded);
        } else if constexpr (std::is_same_v<Kind, op::HostFunction>) {
          return {CL_INVALID_OPERATION, Pending::Nothing};
        } else {
          return {CL_SUCCESS, executor(alternative)};
        }
      },
      operation);
}

Enqueued enqueue_work(CudaContext& context, CUstream stream, const Work& work, DeviceClock& clock,
                      TimingEvents& timing) {
  return enqueue_work(context, stream, work, work.operation(), clock, timing);
}

Enqueued enqueue_work(CudaContext& context, CUstream stream, const Work& work, const Operation& operation,
                      DeviceClock& clock, TimingEvents& timing) {
  wait_for_points(context, stream, work);
  const bool timed = work.wants_times();
  if (timed) timing.began = clock.record(stream);
  Enqueued enqueued = enqueue_operation(context, stream, operation);
  if (timed && timing.began) timing.ended = clock.record(stream);
  return enqueued;
}

}  // namespace cucl::backend::cuda

// The measurements cucl-bench takes on one device, each a plain OpenCL loop timed with
// std::chrono::steady_clock.
#pragma once

#include "cl_util.h"
#include "options.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bench {

enum class Better { Lower, Higher, NotCompared };

struct Metric {
  const char* name;
  const char* unit;
  Better better;
};

enum Row : std::size_t {
  kBufferSize,
  kEnqueueThroughput,
  kRoundTrip,
  kCopyBandwidth,
  kHostWrite,
  kHostRead,
  kMapRead,
  kUnmapWrite,
  kTemporaryBuffer,
  kKernelEnqueue,
  kKernelLaunch,
  kKernelRead,
  kKernelPingPong,
  kKernelCopy,
  kComputeFp32,
  kComputeHalf,
  kChainFloat,
  kChainUint,
  kChainDouble,
  kDivergentLoop,
  kAtomicAddInt,
  kAtomicAddFloat,
  kIntegerLoop,
  kNativeMath,
  kSgemm,
  kTreeReduction,
  kWorkGroupReduce,
  kWorkGroupReduceByHand,
  kSubGroupReduce,
  kSubGroupReduceByHand,
  kDotInt8,
  kDotInt8ByHand,
  kImageResampleRgba8,
  kImageResampleRgbaFloat,
  kVolumeResampleRgba8,
  kVolumeResampleRgbaFloat,
  kImageWrite,
  kImageRead,
  kImageCopy,
  kSvmKernelCopy,
  kSvmMemcpy,
  kSvmMapUnmap,
  kMixedSvmAfterHostDevice,
  kCommandBufferReplay,
  kCommandBufferEnqueues,
  kCommandBufferUpdateReplay,
  kCommandBufferArgumentUpdate,
  kCommandBufferArgumentUpdateOfMany,
  kMigrationToNextGpu,
  kDependencyBetweenQueuesOfThisGpu,
  kDependencyToNextGpu,
  kDataDependencyBetweenQueuesOfThisGpu,
  kDataDependencyToNextGpu,
  kWaitCpu,
  kWaitReadCpu,
  kBuildFirst,
  kBuildAgain,
  kRowCount
};

extern const std::array<Metric, kRowCount> kMetrics;

// One table cell: a value, or a note saying why there is none.
struct Cell {
  std::optional<double> value;
  std::string note;
};
using Cells = std::array<Cell, kRowCount>;

// A context and an in-order queue on one device.
class Session {
 public:
  explicit Session(cl_device_id device);
  cl_device_id device() const { return device_; }
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  // Another in-order queue on the same device.
  Queue another_queue() const;
  Buffer buffer(std::size_t bytes) const;

 private:
  cl_device_id device_;
  Context context_;
  Queue queue_;
};

// The median of `repetitions` runs of `timed` (seconds it reports), after one warm-up run
// (first-touch page faults, lazy allocations, JIT, caches).
template <typename Body>
double median_of(int repetitions, Body&& timed) {
  timed();
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) times.push_back(timed());
  std::sort(times.begin(), times.end());
  std::size_t mid = times.size() / 2;
  return times.size() % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs `body` once to warm up, then `repetitions` times; returns the median time in seconds.
template <typename Body>
double median_seconds(int repetitions, Body&& body) {
  return median_of(repetitions, [&] {
    auto start = std::chrono::steady_clock::now();
    body();
    return seconds_since(start);
  });
}

// The bandwidth rows' buffer size on `device`: at most settings.max_buffer_bytes.
std::size_t bandwidth_bytes(cl_device_id device, const Settings& settings);

// Fills `cells` row by row. Throws ClError on the first failing call; the rows measured
// before it keep their values.
void measure_device(cl_device_id device, const Settings& settings, Cells& cells);

// Builds `source` for the session's device; the build log goes to stderr when it fails.
Program build_program(const Session& session, const char* source, const char* options = nullptr);
// The same for every device in `devices`, all of `context`.
Program build_program(cl_context context, const std::vector<cl_device_id>& devices, const char* source,
                      const char* options = nullptr);
Kernel create_kernel(cl_program program, const char* name);

// The sgemm row: one fixed tiled kernel (sgemm_measurement.cpp), checked against the host.
Cell measure_sgemm(const Session& session, const Settings& settings);
// The two-barrier local-memory tree reduction row (tree_reduction_measurement.cpp).
Cell measure_tree_reduction(const Session& session, const Settings& settings);
// The dependent-chain rows (chain_measurement.cpp): a loop of multiply-adds in each work-item,
// in float, uint and double. `out` is a buffer of at least `bytes`.
void measure_chains(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings, Cells& cells);
// The divergent-loop row (divergent_loop_measurement.cpp): a loop each work-item leaves at an
// iteration of its own. `out` is a buffer of at least `bytes`.
Cell measure_divergent_loop(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings);

// The half-precision multiply-add row (half_measurement.cpp): the fp32 row's chains in half8,
// on devices with cl_khr_fp16 (a note elsewhere). `out` is a buffer of at least `bytes`.
Cell measure_half_throughput(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings);

// The atomic add rows (atomic_measurement.cpp): int atomic_add and, with cl_ext_float_atomics,
// float atomic_fetch_add on 4096 counters of `counters` (at least 16 KiB), each work-item one add.
void measure_atomic_adds(const Session& session, cl_mem counters, std::size_t bytes, const Settings& settings,
                         Cells& cells);

// The work-group and sub-group reduction rows and the int8 dot product rows, each beside the
// same work written by hand (collective_measurement.cpp).
void measure_collectives(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings,
                         Cells& cells);

// The image rows: write, read and copy of an RGBA8 image and, where the device has a
// compiler, a bilinear resampling kernel in RGBA8 and RGBA float (image_measurements.cpp).
void measure_images(const Session& session, const Settings& settings, Cells& cells);
void measure_volumes(const Session& session, const Settings& settings, Cells& cells);

// The shared virtual memory rows (svm_measurement.cpp): the float4 copy kernel on coarse-grain
// SVM, clEnqueueSVMMemcpy and an SVM map + unmap, on allocations of `bytes`. A failure leaves
// notes in these rows only.
void measure_svm(const Session& session, std::size_t bytes, const Settings& settings, Cells& cells);

// The command buffer rows: 200 empty one-work-item launches replayed from a buffer, the same
// launches enqueued one by one, and mutable updates (command_buffer_measurement.cpp).
// `program` has kernels empty() and integer_loop(global int*, int); `out` is a buffer.
void measure_command_buffers(const Session& session, cl_program program, cl_mem out, const Settings& settings,
                             Cells& cells);

// The mixed-context SVM row (mixed_svm_measurement.cpp): on a GPU whose platform has a CPU
// device, the copy kernel on coarse-grain SVM that a kernel on the CPU device wrote just before.
void measure_mixed_svm(cl_device_id device, std::size_t bytes, const Settings& settings, Cells& cells);

// The two-GPU rows (multi_gpu_measurement.cpp): `device` and its partner, the next GPU of its
// platform, in one context; a buffer of `bytes` migrated to the partner, and empty kernels
// alternating between two queues, each waiting for the last. Notes where there is no partner.
void measure_two_gpus(cl_device_id device, std::size_t bytes, const Settings& settings, Cells& cells);

// The two empty-kernel rows: launches of `empty` (no arguments, one work-item) enqueued back to
// back, and each followed by clFinish.
void measure_launches(const Session& session, cl_kernel empty, const Settings& settings, Cells& cells);
// The same, building its own empty kernel (the --overheads run; needs a compiler).
void measure_launch_overheads(const Session& session, const Settings& settings, Cells& cells);

// The kernel and build rows (need a compiler; the caller checks CL_DEVICE_COMPILER_AVAILABLE).
void measure_kernels(const Session& session, cl_mem src, cl_mem dst, std::size_t bytes,
                     const Settings& settings, Cells& cells);

}  // namespace bench

#include "measurements.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace bench {

const std::array<Metric, kRowCount> kMetrics = {{
    {"buffer size (bandwidth rows)", "MiB", Better::NotCompared},
    {"enqueue: 4-byte non-blocking write (N, then clFinish) / N", "us", Better::Lower},
    {"round trip: 4-byte write + clFinish", "us", Better::Lower},
    {"clEnqueueCopyBuffer (read+write bytes)", "GB/s", Better::Higher},
    {"write from pageable host memory (blocking)", "GB/s", Better::Higher},
    {"read to pageable host memory (blocking)", "GB/s", Better::Higher},
    {"map for read, ALLOC_HOST_PTR buffer (blocking map)", "GB/s", Better::Higher},
    {"unmap after write, ALLOC_HOST_PTR buffer (unmap + clFinish)", "GB/s", Better::Higher},
    {"temporary buffer of the bandwidth size: clCreateBuffer + fill + clReleaseMemObject + clFinish", "us",
     Better::Lower},
    {"kernel enqueue: empty kernel (N, then clFinish) / N", "us", Better::Lower},
    {"kernel launch: empty kernel + clFinish", "us", Better::Lower},
    {"kernel + result: empty kernel + blocking 4-byte read", "us", Better::Lower},
    {"kernels on two queues, each waiting for the last (N, then wait) / N", "us", Better::Lower},
    {"kernel: float4 copy (read+write bytes)", "GB/s", Better::Higher},
    {"kernel: fp32 multiply-add throughput", "GFLOPS", Better::Higher},
    {"kernel: half multiply-add throughput (half8 chains)", "GFLOPS", Better::Higher},
    {"kernel: a loop of 2048 dependent multiply-adds in each work-item, float", "GFLOPS", Better::Higher},
    {"  the same of uint", "G ops/s", Better::Higher},
    {"  the same of double", "GFLOPS", Better::Higher},
    {"kernel: a loop each work-item leaves at an iteration of its own (a random walk, <= 1024 steps)", "G items/s",
     Better::Higher},
    {"kernel: global atomic add of int, 4096 counters (atomic_add)", "G adds/s", Better::Higher},
    {"  the same of float (cl_ext_float_atomics atomic_fetch_add)", "G adds/s", Better::Higher},
    {"kernel: integer loop, 2^20 dependent steps in one work-item", "us", Better::Lower},
    {"kernel: native_ math (exp, divide, sqrt, powr) throughput", "Gcalls/s", Better::Higher},
    {"kernel: sgemm, one fixed 128x128-tiled kernel (n^3, n = 4096 on GPUs)", "GFLOPS", Better::Higher},
    {"kernel: __local tree reduction, 256-item groups, a barrier per step", "G items/s", Better::Higher},
    {"kernel: work_group_reduce_add, 256-item groups", "G items/s", Better::Higher},
    {"  the same by hand: sub_group_shuffle_xor + __local", "G items/s", Better::Higher},
    {"kernel: sub_group_reduce_add", "G items/s", Better::Higher},
    {"  the same by hand: sub_group_shuffle_xor", "G items/s", Better::Higher},
    {"kernel: int8 dot product, dot(char4, char4)", "G MAC/s", Better::Higher},
    {"  the same by hand: four scalar multiply-adds", "G MAC/s", Better::Higher},
    {"kernel: bilinear 2D resample, RGBA8 (UNORM_INT8) 4096x4096 -> 4096x4096", "G pixels/s", Better::Higher},
    {"kernel: bilinear 2D resample, RGBA float (CL_FLOAT) 4096x4096 -> 4096x4096", "G pixels/s", Better::Higher},
    {"kernel: trilinear 3D resample, RGBA8 (UNORM_INT8) 256^3 -> uchar4 buffer", "G voxels/s", Better::Higher},
    {"kernel: trilinear 3D resample, RGBA float (CL_FLOAT) 256^3 -> uchar4 buffer", "G voxels/s", Better::Higher},
    {"clEnqueueWriteImage from pageable host memory, 64 MiB (blocking)", "GB/s", Better::Higher},
    {"clEnqueueReadImage to pageable host memory, 64 MiB (blocking)", "GB/s", Better::Higher},
    {"clEnqueueCopyImage, 64 MiB RGBA8 (read+write bytes)", "GB/s", Better::Higher},
    {"kernel: float4 copy on coarse-grain SVM (read+write bytes)", "GB/s", Better::Higher},
    {"clEnqueueSVMMemcpy, coarse-grain SVM to SVM (read+write bytes)", "GB/s", Better::Higher},
    {"SVM map for writing (one word per page written) + unmap + clFinish, coarse grain", "GB/s", Better::Higher},
    {"  context with the platform's CPU: float4 copy kernel of coarse-grain SVM the CPU device's kernel wrote (+ clFinish)",
     "GB/s", Better::Higher},
    {"command buffer: replay of 200 empty 1-item kernels + clFinish", "us", Better::Lower},
    {"  the same 200 kernels enqueued one by one + clFinish", "us", Better::Lower},
    {"  the 200 kernels, each updated (one clUpdateMutableCommandsKHR) + replay + clFinish", "us", Better::Lower},
    {"  a buffer of one kernel: update one argument + replay, per call", "us", Better::Lower},
    {"  a buffer of 8 kernels: update one argument of one + replay, per call", "us", Better::Lower},
    {"two GPUs in one context: migration of a buffer to the next GPU (+ clFinish)", "GB/s", Better::Higher},
    {"  dependency between queues of this GPU: 200 chained empty kernels / 200", "us", Better::Lower},
    {"  dependency to the next GPU: 200 chained empty kernels, alternating GPUs / 200", "us", Better::Lower},
    {"  data dependency between queues of this GPU: 200 chained kernels adding to one 4 KiB buffer / 200", "us",
     Better::Lower},
    {"  data dependency to the next GPU: the same, alternating GPUs (the buffer moves each time) / 200", "us",
     Better::Lower},
    {"host CPU while clFinish waits on a ~150 ms kernel (100 = one core)", "%", Better::Lower},
    {"  while a blocking 4-byte read waits behind the kernel", "%", Better::Lower},
    {"first build of a small program", "ms", Better::Lower},
    {"the same build again", "ms", Better::Lower},
}};

// The bandwidth buffers: at most the setting, one allocation the device allows, and a
// quarter of its global memory (two device buffers are live, plus the host's copy).
std::size_t bandwidth_bytes(cl_device_id device, const Settings& settings) {
  auto max_alloc = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  auto global = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  std::uint64_t bytes = std::min<std::uint64_t>({settings.max_buffer_bytes, max_alloc, global / 4});
  std::uint64_t granule = bytes >= (1u << 20) ? (1u << 20) : 16;  // whole MiB, or float4s
  return static_cast<std::size_t>(bytes / granule * granule);
}

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double microseconds_per(double seconds, int count) { return seconds * 1e6 / count; }
double gigabytes_per_second(double bytes, double seconds) { return bytes / seconds / 1e9; }

void measure_maps(const Session& session, std::size_t bytes, const Settings& settings, Cells& cells) {
  cl_int status = CL_SUCCESS;
  Buffer buffer(clCreateBuffer(session.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &status));
  check(status, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
  cl_command_queue queue = session.queue();
  auto map = [&](cl_map_flags flags) {
    void* mapped = clEnqueueMapBuffer(queue, buffer.get(), CL_TRUE, flags, 0, bytes, 0, nullptr, nullptr, &status);
    check(status, "clEnqueueMapBuffer");
    return mapped;
  };
  auto unmap = [&](void* mapped) {
    BENCH_CL(clEnqueueUnmapMemObject(queue, buffer.get(), mapped, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  };
  double seconds = median_of(settings.repetitions, [&] {
    auto start = std::chrono::steady_clock::now();
    void* mapped = map(CL_MAP_READ);
    BENCH_CL(clFinish(queue));
    double taken = seconds_since(start);
    unmap(mapped);
    return taken;
  });
  cells[kMapRead].value = gigabytes_per_second(bytes, seconds);
  seconds = median_of(settings.repetitions, [&] {
    void* mapped = map(CL_MAP_WRITE);
    auto start = std::chrono::steady_clock::now();
    unmap(mapped);
    return seconds_since(start);
  });
  cells[kUnmapWrite].value = gigabytes_per_second(bytes, seconds);
}

// What a library's temporary costs (CLBlast's GEMM makes one for its padded copies on every
// call): a buffer made, written whole by the device, and released while the write may still
// be in flight.
void measure_temporary_buffer(const Session& session, std::size_t bytes, const Settings& settings, Cells& cells) {
  cl_command_queue queue = session.queue();
  const cl_uint pattern = 0;
  const double seconds = median_seconds(settings.repetitions, [&] {
    Buffer temporary = session.buffer(bytes);
    BENCH_CL(clEnqueueFillBuffer(queue, temporary.get(), &pattern, sizeof pattern, 0, bytes, 0, nullptr, nullptr));
    temporary.reset();
    BENCH_CL(clFinish(queue));
  });
  cells[kTemporaryBuffer].value = microseconds_per(seconds, 1);
}

}  // namespace

Session::Session(cl_device_id device) : device_(device) {
  cl_int status = CL_SUCCESS;
  context_.reset(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status));
  check(status, "clCreateContext");
  // An in-order queue without profiling: the plain fast path applications use.
  queue_.reset(clCreateCommandQueueWithProperties(context_.get(), device, nullptr, &status));
  check(status, "clCreateCommandQueueWithProperties");
}

Queue Session::another_queue() const {
  cl_int status = CL_SUCCESS;
  Queue queue(clCreateCommandQueueWithProperties(context_.get(), device_, nullptr, &status));
  check(status, "clCreateCommandQueueWithProperties");
  return queue;
}

Buffer Session::buffer(std::size_t bytes) const {
  cl_int status = CL_SUCCESS;
  Buffer buffer(clCreateBuffer(context_.get(), CL_MEM_READ_WRITE, bytes, nullptr, &status));
  check(status, "clCreateBuffer");
  return buffer;
}

void measure_device(cl_device_id device, const Settings& settings, Cells& cells) {
  Session session(device);
  cl_command_queue queue = session.queue();

  // 1. Enqueue throughput: many small non-blocking writes, then one clFinish.
  Buffer word = session.buffer(sizeof(cl_uint));
  const cl_uint pattern = 0x5a5a5a5a;
  double seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.enqueue_count; ++i)
      BENCH_CL(clEnqueueWriteBuffer(queue, word.get(), CL_FALSE, 0, sizeof pattern, &pattern, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kEnqueueThroughput].value = microseconds_per(seconds, settings.enqueue_count);

  // 2. Round trip: one small write, then wait for it.
  seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.round_trips; ++i) {
      BENCH_CL(clEnqueueWriteBuffer(queue, word.get(), CL_FALSE, 0, sizeof pattern, &pattern, 0, nullptr, nullptr));
      BENCH_CL(clFinish(queue));
    }
  });
  cells[kRoundTrip].value = microseconds_per(seconds, settings.round_trips);

  const bool compiler = device_value<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE);
  if (settings.overheads_only) {
    if (compiler)
      measure_launch_overheads(session, settings, cells);
    else
      cells[kKernelEnqueue].note = cells[kKernelLaunch].note = cells[kKernelRead].note = "n/a (no compiler)";
    return;
  }

  // 3-5. Bandwidth on large buffers. The host vector is written first so that page
  // faults are not measured.
  const std::size_t bytes = bandwidth_bytes(device, settings);
  cells[kBufferSize].value = static_cast<double>(bytes) / kMiB;
  std::vector<unsigned char> host(bytes);
  for (std::size_t i = 0; i < bytes; ++i) host[i] = static_cast<unsigned char>(i * 7);
  Buffer src = session.buffer(bytes);
  Buffer dst = session.buffer(bytes);
  BENCH_CL(clEnqueueWriteBuffer(queue, src.get(), CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr));
  BENCH_CL(clEnqueueWriteBuffer(queue, dst.get(), CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr));

  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueCopyBuffer(queue, src.get(), dst.get(), 0, 0, bytes, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kCopyBandwidth].value = gigabytes_per_second(2.0 * bytes, seconds);

  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueWriteBuffer(queue, src.get(), CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr));
  });
  cells[kHostWrite].value = gigabytes_per_second(bytes, seconds);

  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueReadBuffer(queue, dst.get(), CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr));
  });
  cells[kHostRead].value = gigabytes_per_second(bytes, seconds);

  // Maps, as clpeak measures them: a buffer the application asked to be host-accessible,
  // mapped whole. The map is timed for reads, the unmap for writes.
  measure_maps(session, bytes, settings, cells);
  measure_temporary_buffer(session, bytes, settings, cells);
  measure_images(session, settings, cells);
  measure_volumes(session, settings, cells);

  // 6-7. Kernels, where the device can build OpenCL C.
  if (compiler) {
    measure_kernels(session, src.get(), dst.get(), bytes, settings, cells);
  } else {
    for (Row row : {kKernelEnqueue, kKernelLaunch, kKernelRead, kKernelPingPong, kKernelCopy, kComputeFp32, kComputeHalf,
                    kAtomicAddInt, kAtomicAddFloat, kIntegerLoop, kNativeMath, kSgemm, kTreeReduction, kCommandBufferReplay,
                    kCommandBufferEnqueues, kCommandBufferUpdateReplay, kCommandBufferArgumentUpdate,
                    kCommandBufferArgumentUpdateOfMany, kWaitCpu, kWaitReadCpu, kBuildFirst, kBuildAgain}) {
      cells[row].note = "n/a (no compiler)";
    }
  }
  // After the kernel rows, which the shared memory it allocates then cannot disturb.
  measure_svm(session, bytes, settings, cells);
  measure_mixed_svm(device, bytes, settings, cells);
  // Last: a platform that cannot hold two GPUs in one context loses only these rows.
  measure_two_gpus(device, bytes, settings, cells);
}

}  // namespace bench

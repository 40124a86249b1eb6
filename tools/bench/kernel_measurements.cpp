#include "measurements.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace bench {

namespace {

const char* kSource = R"CLC(
__kernel void empty(void) {}
__kernel void copy4(__global const float4* in, __global float4* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}
// 4 independent float4 chains of kMadIterations multiply-adds: 2 * 16 * kMadIterations flops.
__kernel void mad_chains(__global float* out, float a, float b) {
  float4 x = (float4)(get_global_id(0), 1.0f, 2.0f, 3.0f);
  float4 y = x + 0.5f, z = x + 0.25f, w = x + 0.125f;
  for (int i = 0; i < 256; ++i) {
    x = mad(x, a, b); y = mad(y, a, b); z = mad(z, a, b); w = mad(w, a, b);
  }
  float4 s = x + y + z + w;
  out[get_global_id(0)] = s.x + s.y + s.z + s.w;
}
// A chain of dependent integer steps: the loop's own code (unrolling, scheduling) is what is timed.
__kernel void integer_loop(__global int* out, int steps) {
  int x = 0;
  for (int i = 0; i < steps; ++i) x = x * 3 + i;
  out[0] = x;
}
// kNativeCalls calls of native_ functions per work-item, each depending on the last.
__kernel void native_math(__global float* out, float a) {
  float x = 1.0f + get_global_id(0) * 1e-9f;
  for (int i = 0; i < 64; ++i) {
    x = native_exp(native_divide(a, x));
    x = native_powr(native_sqrt(x) + 1.0f, a);
  }
  out[get_global_id(0)] = x;
}
)CLC";
constexpr double kNativeCalls = 64 * 4;
constexpr int kIntegerLoopSteps = 1 << 20;
constexpr double kMadFlopsPerItem = 2.0 * 16 * 256;

// A small program no cache has seen: the source carries the current time.
std::string fresh_small_source() {
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "// " + std::to_string(now) + "\n"
         "__kernel void saxpy(__global const float* x, __global float* y, float a) {\n"
         "  size_t i = get_global_id(0);\n"
         "  y[i] = a * x[i] + y[i];\n"
         "}\n";
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The share of one core the whole process (the application's thread and the driver's) uses
// while `wait()` (clFinish, a blocking read) waits for one long kernel: the integer loop,
// scaled from `loop_seconds` (its time for kIntegerLoopSteps) to about 150 ms. A CPU device
// runs the kernel on the host's cores itself, so the row says nothing there.
template <class Wait>
Cell waiting_cpu(const Session& session, cl_kernel loop, double loop_seconds, Wait wait) {
  if (device_value<cl_device_type>(session.device(), CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) {
    return {std::nullopt, "n/a (CPU device)"};
  }
  const double steps = std::min(2e9, kIntegerLoopSteps * 0.150 / std::max(loop_seconds, 1e-6));
  const cl_int scaled = static_cast<cl_int>(steps);
  BENCH_CL(clSetKernelArg(loop, 1, sizeof scaled, &scaled));
  const size_t one = 1;
  cl_command_queue queue = session.queue();
  double share = median_of(3, [&] {
    double cpu = cpu_seconds();
    auto start = std::chrono::steady_clock::now();
    BENCH_CL(clEnqueueNDRangeKernel(queue, loop, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    wait();
    double wall = seconds_since(start);
    return (cpu_seconds() - cpu) / wall * 100.0;
  });
  BENCH_CL(clSetKernelArg(loop, 1, sizeof kIntegerLoopSteps, &kIntegerLoopSteps));
  return {share, ""};
}

double build_milliseconds(const Session& session, const std::string& source) {
  cl_device_id device = session.device();
  const char* text = source.c_str();
  const auto start = std::chrono::steady_clock::now();
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithSource(session.context(), 1, &text, nullptr, &status));
  check(status, "clCreateProgramWithSource");
  check(clBuildProgram(program.get(), 1, &device, nullptr, nullptr, nullptr), "clBuildProgram");
  return seconds_since(start) * 1e3;
}

}  // namespace

Program build_program(cl_context context, const std::vector<cl_device_id>& devices, const char* source,
                      const char* options) {
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context, 1, &source, nullptr, &status));
  check(status, "clCreateProgramWithSource");
  status = clBuildProgram(program.get(), static_cast<cl_uint>(devices.size()), devices.data(), options, nullptr,
                          nullptr);
  if (status == CL_BUILD_PROGRAM_FAILURE) {
    for (cl_device_id device : devices) {
      size_t size = 0;
      clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      std::fprintf(stderr, "cucl-bench: build log:\n%s\n", log.c_str());
    }
  }
  check(status, "clBuildProgram");
  return program;
}

Program build_program(const Session& session, const char* source, const char* options) {
  return build_program(session.context(), {session.device()}, source, options);
}

Kernel create_kernel(cl_program program, const char* name) {
  cl_int status = CL_SUCCESS;
  Kernel kernel(clCreateKernel(program, name, &status));
  check(status, "clCreateKernel");
  return kernel;
}

void measure_launches(const Session& session, cl_kernel empty, const Settings& settings, Cells& cells) {
  cl_command_queue queue = session.queue();
  // Enqueue throughput: many launches of an empty kernel, then one clFinish.
  const size_t one = 1;
  double seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.enqueue_count; ++i) {
      BENCH_CL(clEnqueueNDRangeKernel(queue, empty, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    }
    BENCH_CL(clFinish(queue));
  });
  cells[kKernelEnqueue].value = seconds * 1e6 / settings.enqueue_count;

  // Launch latency: one single-work-item launch of an empty kernel, then wait for it.
  seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.round_trips; ++i) {
      BENCH_CL(clEnqueueNDRangeKernel(queue, empty, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
      BENCH_CL(clFinish(queue));
    }
  });
  cells[kKernelLaunch].value = seconds * 1e6 / settings.round_trips;

  // The commonest round trip of all: a kernel, then a blocking read of its small result.
  Buffer word = session.buffer(sizeof(cl_uint));
  cl_uint result = 0;
  seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.round_trips; ++i) {
      BENCH_CL(clEnqueueNDRangeKernel(queue, empty, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
      BENCH_CL(clEnqueueReadBuffer(queue, word.get(), CL_TRUE, 0, sizeof result, &result, 0, nullptr, nullptr));
    }
  });
  cells[kKernelRead].value = seconds * 1e6 / settings.round_trips;
}

void measure_launch_overheads(const Session& session, const Settings& settings, Cells& cells) {
  Program program = build_program(session, kSource);  // the empty kernel of the full run
  Kernel empty = create_kernel(program.get(), "empty");
  measure_launches(session, empty.get(), settings, cells);
}

void measure_kernels(const Session& session, cl_mem src, cl_mem dst, std::size_t bytes,
                     const Settings& settings, Cells& cells) {
  cl_command_queue queue = session.queue();

  // Build times: a program never built before (no cache can hold it), then the same again.
  const std::string source = fresh_small_source();
  cells[kBuildFirst].value = build_milliseconds(session, source);
  cells[kBuildAgain].value = build_milliseconds(session, source);

  Program program = build_program(session, kSource);
  Kernel empty = create_kernel(program.get(), "empty");
  measure_launches(session, empty.get(), settings, cells);
  const size_t one = 1;

  // Dependencies between queues: each empty kernel waits for the previous one, enqueued on
  // the other queue; waiting for the last waits for them all.
  Queue other = session.another_queue();
  double seconds = median_seconds(settings.repetitions, [&] {
    cl_event last = nullptr;
    for (int i = 0; i < settings.enqueue_count; ++i) {
      cl_event next = nullptr;
      BENCH_CL(clEnqueueNDRangeKernel(i % 2 ? other.get() : queue, empty.get(), 1, nullptr, &one, nullptr,
                                      last ? 1 : 0, last ? &last : nullptr, &next));
      if (last) clReleaseEvent(last);
      last = next;
    }
    BENCH_CL(clWaitForEvents(1, &last));
    clReleaseEvent(last);
  });
  cells[kKernelPingPong].value = seconds * 1e6 / settings.enqueue_count;
  measure_command_buffers(session, program.get(), dst, settings, cells);

  // Compute: every work-item copies one float4; the runtime picks the work-group size.
  Kernel copy = create_kernel(program.get(), "copy4");
  BENCH_CL(clSetKernelArg(copy.get(), 0, sizeof src, &src));
  BENCH_CL(clSetKernelArg(copy.get(), 1, sizeof dst, &dst));
  const size_t items = bytes / (4 * sizeof(cl_float));
  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, copy.get(), 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kKernelCopy].value = 2.0 * bytes / seconds / 1e9;

  // Compute: independent multiply-add chains, enough work-items to fill every compute unit.
  Kernel mad = create_kernel(program.get(), "mad_chains");
  const cl_float a = 0.999f, b = 0.001f;
  BENCH_CL(clSetKernelArg(mad.get(), 0, sizeof dst, &dst));
  BENCH_CL(clSetKernelArg(mad.get(), 1, sizeof a, &a));
  BENCH_CL(clSetKernelArg(mad.get(), 2, sizeof b, &b));
  const auto units = device_value<cl_uint>(session.device(), CL_DEVICE_MAX_COMPUTE_UNITS);
  const size_t mad_items = std::min<size_t>(bytes / sizeof(cl_float), size_t{units} * 16384);
  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, mad.get(), 1, nullptr, &mad_items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kComputeFp32].value = kMadFlopsPerItem * static_cast<double>(mad_items) / seconds / 1e9;
  cells[kComputeHalf] = measure_half_throughput(session, dst, bytes, settings);
  measure_chains(session, dst, bytes, settings, cells);
  cells[kDivergentLoop] = measure_divergent_loop(session, dst, bytes, settings);
  measure_atomic_adds(session, dst, bytes, settings, cells);

  // One work-item: how well the device's compiler runs a plain loop (enqueue + finish timed).
  Kernel loop = create_kernel(program.get(), "integer_loop");
  BENCH_CL(clSetKernelArg(loop.get(), 0, sizeof dst, &dst));
  BENCH_CL(clSetKernelArg(loop.get(), 1, sizeof kIntegerLoopSteps, &kIntegerLoopSteps));
  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, loop.get(), 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kIntegerLoop].value = seconds * 1e6;
  cells[kWaitCpu] = waiting_cpu(session, loop.get(), seconds, [&] { BENCH_CL(clFinish(queue)); });
  cells[kWaitReadCpu] = waiting_cpu(session, loop.get(), seconds, [&] {
    cl_int word = 0;
    BENCH_CL(clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, sizeof word, &word, 0, nullptr, nullptr));
  });

  // Compute: the fast forms of math functions, where the device has them.
  Kernel native = create_kernel(program.get(), "native_math");
  const cl_float exponent = 0.5f;
  BENCH_CL(clSetKernelArg(native.get(), 0, sizeof dst, &dst));
  BENCH_CL(clSetKernelArg(native.get(), 1, sizeof exponent, &exponent));
  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, native.get(), 1, nullptr, &mad_items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kNativeMath].value = kNativeCalls * static_cast<double>(mad_items) / seconds / 1e9;

  cells[kSgemm] = measure_sgemm(session, settings);
  cells[kTreeReduction] = measure_tree_reduction(session, settings);
  measure_collectives(session, dst, bytes, settings, cells);
}

}  // namespace bench

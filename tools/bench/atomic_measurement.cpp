// The atomic add rows: every work-item adds 1 to one of 4096 global counters (work-item i to
// counter i mod 4096, so 32 neighbouring work-items hit 32 different counters), as float
// through cl_ext_float_atomics' atomic_fetch_add and as int through OpenCL 1.1's atomic_add,
// which every device has. Their ratio is what float atomics cost against integer ones.
#include "measurements.h"

#include <algorithm>
#include <chrono>

namespace bench {
namespace {

constexpr cl_uint kCounters = 4096;

const char* kIntSource = R"CLC(
__kernel void add_int(__global int* counters, uint mask) { atomic_add(&counters[get_global_id(0) & mask], 1); }
)CLC";

const char* kFloatSource = R"CLC(
__kernel void add_float(__global atomic_float* counters, uint mask) {
  atomic_fetch_add_explicit(&counters[get_global_id(0) & mask], 1.0f, memory_order_relaxed, memory_scope_device);
}
)CLC";

// Atomic adds per second of `kernel` over `items` work-items (the counters zeroed first).
double adds_per_second(const Session& session, const Settings& settings, cl_kernel kernel, cl_mem counters,
                       size_t items) {
  const cl_uint mask = kCounters - 1;
  BENCH_CL(clSetKernelArg(kernel, 0, sizeof counters, &counters));
  BENCH_CL(clSetKernelArg(kernel, 1, sizeof mask, &mask));
  const cl_int zero = 0;
  const double seconds = median_of(settings.repetitions, [&] {
    BENCH_CL(clEnqueueFillBuffer(session.queue(), counters, &zero, sizeof zero, 0, kCounters * sizeof(cl_int), 0,
                                 nullptr, nullptr));
    BENCH_CL(clFinish(session.queue()));
    const auto start = std::chrono::steady_clock::now();
    BENCH_CL(clEnqueueNDRangeKernel(session.queue(), kernel, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(session.queue()));
    return seconds_since(start);
  });
  return static_cast<double>(items) / seconds / 1e9;
}

}  // namespace

void measure_atomic_adds(const Session& session, cl_mem counters, std::size_t bytes, const Settings& settings,
                         Cells& cells) {
  const auto units = device_value<cl_uint>(session.device(), CL_DEVICE_MAX_COMPUTE_UNITS);
  const size_t items = std::max<size_t>(kCounters, std::min<size_t>(bytes / sizeof(cl_int), size_t{units} * 65536));
  Program ints = build_program(session, kIntSource);
  Kernel add_int = create_kernel(ints.get(), "add_int");
  cells[kAtomicAddInt].value = adds_per_second(session, settings, add_int.get(), counters, items);

  if (!lists_extension(session.device(), "cl_ext_float_atomics")) {
    cells[kAtomicAddFloat].note = "n/a (no cl_ext_float_atomics)";
    return;
  }
  Program floats = build_program(session, kFloatSource, "-cl-std=CL3.0");
  Kernel add_float = create_kernel(floats.get(), "add_float");
  cells[kAtomicAddFloat].value = adds_per_second(session, settings, add_float.get(), counters, items);
}

}  // namespace bench

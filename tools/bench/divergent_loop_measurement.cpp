// The divergent-loop row: each work-item runs a loop it leaves at an iteration of its own
// (a random walk that stops when it falls below a threshold, at most kMaxSteps steps), the
// shape of escape-time fractals and searches. A GPU or a CPU that runs work-items side by
// side in vector lanes keeps the lanes that are still walking busy while the others wait;
// checked exactly against the host on a sample of work-items.
#include "measurements.h"

#include <vector>

namespace bench {
namespace {

constexpr cl_uint kMaxSteps = 1024;

const char* kWalkSource = R"CLC(
__kernel void walk(__global uint* steps, uint max_steps) {
  uint gid = (uint)get_global_id(0);
  uint x = gid * 2654435761u + 1u;
  uint i = 0;
  while (i < max_steps) {
    x = x * 1103515245u + 12345u;
    if ((x >> 24) < 2u) break;
    ++i;
  }
  steps[gid] = i;
}
)CLC";

cl_uint host_walk(cl_uint gid) {
  cl_uint x = gid * 2654435761u + 1u;
  cl_uint i = 0;
  while (i < kMaxSteps) {
    x = x * 1103515245u + 12345u;
    if ((x >> 24) < 2u) break;
    ++i;
  }
  return i;
}

}  // namespace

Cell measure_divergent_loop(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings) {
  const bool cpu = device_value<cl_device_type>(session.device(), CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU;
  const std::size_t items = std::min<std::size_t>(bytes / sizeof(cl_uint), cpu ? std::size_t{1} << 20 : std::size_t{1} << 24);
  Program program = build_program(session, kWalkSource);
  Kernel kernel = create_kernel(program.get(), "walk");
  BENCH_CL(clSetKernelArg(kernel.get(), 0, sizeof out, &out));
  BENCH_CL(clSetKernelArg(kernel.get(), 1, sizeof kMaxSteps, &kMaxSteps));
  cl_command_queue queue = session.queue();
  const double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, kernel.get(), 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  std::vector<cl_uint> steps(items);
  BENCH_CL(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, items * sizeof(cl_uint), steps.data(), 0, nullptr, nullptr));
  for (std::size_t i = 0; i < items; i += items / 97 + 1) {
    if (steps[i] != host_walk(static_cast<cl_uint>(i))) return {std::nullopt, "wrong result"};
  }
  return {static_cast<double>(items) / seconds / 1e9, ""};
}

}  // namespace bench

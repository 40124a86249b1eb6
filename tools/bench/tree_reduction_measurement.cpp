// The tree-reduction row: the textbook sum of a work-group's values through __local memory,
// halving the active work-items each step with a barrier between steps (256-item groups:
// nine barriers per group), checked against the host. On the host device it measures how
// kernels with barriers run (regions between barriers, or fibers).
#include "measurements.h"

#include <vector>

namespace bench {
namespace {

constexpr std::size_t kGroup = 256;

const char* kTreeSource = R"CLC(
__kernel void tree_sum(__global const float* in, __global float* out, __local float* tmp) {
  const int l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
)CLC";

}  // namespace

Cell measure_tree_reduction(const Session& session, const Settings& settings) {
  const bool cpu = device_value<cl_device_type>(session.device(), CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU;
  std::size_t items = cpu ? std::size_t{1} << 22 : std::size_t{1} << 26;
  while (items > kGroup && items * sizeof(float) > settings.max_buffer_bytes) items /= 2;
  const std::size_t groups = items / kGroup;
  // Small integers: every partial sum is exact, whatever the order of the additions.
  std::vector<float> values(items);
  for (std::size_t i = 0; i < items; ++i) values[i] = static_cast<float>(static_cast<int>(i * 7 % 13) - 6);
  cl_int status = CL_SUCCESS;
  Buffer in(clCreateBuffer(session.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(float),
                           values.data(), &status));
  check(status, "clCreateBuffer");
  Buffer out(clCreateBuffer(session.context(), CL_MEM_WRITE_ONLY, groups * sizeof(float), nullptr, &status));
  check(status, "clCreateBuffer");
  Program program = build_program(session, kTreeSource);
  Kernel kernel = create_kernel(program.get(), "tree_sum");
  cl_mem in_mem = in.get(), out_mem = out.get();
  BENCH_CL(clSetKernelArg(kernel.get(), 0, sizeof in_mem, &in_mem));
  BENCH_CL(clSetKernelArg(kernel.get(), 1, sizeof out_mem, &out_mem));
  BENCH_CL(clSetKernelArg(kernel.get(), 2, kGroup * sizeof(float), nullptr));
  cl_command_queue queue = session.queue();
  const double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, kernel.get(), 1, nullptr, &items, &kGroup, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  std::vector<float> sums(groups);
  BENCH_CL(clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0, groups * sizeof(float), sums.data(), 0, nullptr, nullptr));
  for (std::size_t g = 0; g < groups; ++g) {
    float expected = 0;
    for (std::size_t i = g * kGroup; i < (g + 1) * kGroup; ++i) expected += values[i];
    if (sums[g] != expected) return {std::nullopt, "wrong result"};
  }
  return {static_cast<double>(items) / seconds / 1e9, ""};
}

}  // namespace bench

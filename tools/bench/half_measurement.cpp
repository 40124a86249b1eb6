#include "measurements.h"

#include <algorithm>

namespace bench {

namespace {

// The fp32 row's kernel in half: 4 independent half8 chains of 256 multiply-adds, 2 * 32 * 256
// flops per work-item. The factor and the addend are each one pair of two different halves:
// a pair that is one value twice (a scalar's splat) is read as one register's halves, a form
// ptxas issues to the FMA pipe only, at the fp32 rate in flops; pairs of two values also go
// to the MMA pipe, which doubles the rate on the H100 (65 against 121 TFLOPS, measured, with
// 78 where each lane had a factor of its own).
const char* kHalfSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_mad_chains(__global half* out, half a, half b) {
  const half2 factor2 = (half2)(a, a - 0x1p-10h), term2 = (half2)(b, b + 0x1p-14h);
  const half8 factor = (half8)(factor2, factor2, factor2, factor2), term = (half8)(term2, term2, term2, term2);
  half8 x = (half8)((half)(get_global_id(0) & 7)) + (half8)(0.0h, 1.0h, 2.0h, 3.0h, 4.0h, 5.0h, 6.0h, 7.0h);
  half8 y = x + 0.5h, z = x + 0.25h, w = x + 0.125h;
  for (int i = 0; i < 256; ++i) {
    x = mad(x, factor, term); y = mad(y, factor, term); z = mad(z, factor, term); w = mad(w, factor, term);
  }
  half8 s = x + y + z + w;
  out[get_global_id(0)] = s.s0 + s.s1 + s.s2 + s.s3 + s.s4 + s.s5 + s.s6 + s.s7;
}
)CLC";
constexpr double kHalfMadFlopsPerItem = 2.0 * 32 * 256;

}  // namespace

Cell measure_half_throughput(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings) {
  if (!lists_extension(session.device(), "cl_khr_fp16")) return {std::nullopt, "n/a (no cl_khr_fp16)"};
  Program program = build_program(session, kHalfSource);
  Kernel mad = create_kernel(program.get(), "half_mad_chains");
  const cl_half a = 0x3bfe, b = 0x1419;  // 0.999, 0.001
  BENCH_CL(clSetKernelArg(mad.get(), 0, sizeof out, &out));
  BENCH_CL(clSetKernelArg(mad.get(), 1, sizeof a, &a));
  BENCH_CL(clSetKernelArg(mad.get(), 2, sizeof b, &b));
  const auto units = device_value<cl_uint>(session.device(), CL_DEVICE_MAX_COMPUTE_UNITS);
  const size_t items = std::min<size_t>(bytes / sizeof(cl_half), size_t{units} * 16384);
  cl_command_queue queue = session.queue();
  const double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, mad.get(), 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  return {kHalfMadFlopsPerItem * static_cast<double>(items) / seconds / 1e9, ""};
}

}  // namespace bench

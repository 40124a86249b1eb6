// The dependent-chain rows: each work-item runs one chain of kChainSteps multiply-adds,
// x = x * a + b, in a loop of its own (the shape of most kernels: a loop inside the
// work-item). A device reaches throughput only by running many work-items' chains side by
// side: on a CPU, across the lanes of its vector units. Rows for float, uint (wrapping, so
// the result is defined and checked exactly) and double where the device has it.
#include "measurements.h"

#include <string>
#include <type_traits>
#include <vector>

namespace bench {
namespace {

constexpr cl_int kChainSteps = 2048;
constexpr std::size_t kItemsPerUnit = 16384;

std::string chain_source(const char* type) {
  std::string source = std::string(type) == "double" ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
  source += "__kernel void chain(__global T* out, T a, T b, int steps) {\n"
            "  T x = (T)get_global_id(0);\n"
            "  for (int i = 0; i < steps; ++i) x = x * a + b;\n"
            "  out[get_global_id(0)] = x;\n"
            "}\n";
  return "#define T " + std::string(type) + "\n" + source;
}

template <typename T>
Cell measure_chain(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings, const char* type,
                   T a, T b) {
  const std::string source = chain_source(type);
  Program program = build_program(session, source.c_str());
  Kernel kernel = create_kernel(program.get(), "chain");
  BENCH_CL(clSetKernelArg(kernel.get(), 0, sizeof out, &out));
  BENCH_CL(clSetKernelArg(kernel.get(), 1, sizeof a, &a));
  BENCH_CL(clSetKernelArg(kernel.get(), 2, sizeof b, &b));
  BENCH_CL(clSetKernelArg(kernel.get(), 3, sizeof kChainSteps, &kChainSteps));
  const auto units = device_value<cl_uint>(session.device(), CL_DEVICE_MAX_COMPUTE_UNITS);
  const std::size_t items = std::min<std::size_t>(bytes / sizeof(T), std::size_t{units} * kItemsPerUnit);
  cl_command_queue queue = session.queue();
  const double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, kernel.get(), 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  if constexpr (std::is_integral_v<T>) {
    std::vector<T> results(items);
    BENCH_CL(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, items * sizeof(T), results.data(), 0, nullptr, nullptr));
    for (std::size_t i = 0; i < items; i += items / 61 + 1) {
      T x = static_cast<T>(i);
      for (int s = 0; s < kChainSteps; ++s) x = x * a + b;
      if (results[i] != x) return {std::nullopt, "wrong result"};
    }
  }
  return {2.0 * kChainSteps * static_cast<double>(items) / seconds / 1e9, ""};
}

}  // namespace

void measure_chains(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings, Cells& cells) {
  cells[kChainFloat] = measure_chain<cl_float>(session, out, bytes, settings, "float", 0.999f, 0.001f);
  cells[kChainUint] = measure_chain<cl_uint>(session, out, bytes, settings, "uint", 2654435761u, 12345u);
  if (device_value<cl_device_fp_config>(session.device(), CL_DEVICE_DOUBLE_FP_CONFIG) == 0) {
    cells[kChainDouble] = {std::nullopt, "n/a (no double)"};
  } else {
    cells[kChainDouble] = measure_chain<cl_double>(session, out, bytes, settings, "double", 0.999, 0.001);
  }
}

}  // namespace bench

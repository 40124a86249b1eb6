// The mixed-context SVM row: on a GPU whose platform also has a CPU device, one context of the
// two and two coarse-grain SVM allocations. A kernel on the CPU device writes the first, then
// the GPU's float4 copy kernel copies it into the second; the row is the copy's bandwidth,
// timed from its enqueue to clFinish (the CPU's kernel is not timed). It shows how the pages the
// CPU wrote reach the GPU: faulted over as the kernel touches them, or moved ahead of it.
#include "measurements.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace bench {
namespace {

const char* kSource = R"CLC(
__kernel void fill4(__global float4* out, float value) { out[get_global_id(0)] = (float4)(value); }
__kernel void copy4(__global const float4* in, __global float4* out) {
  const size_t i = get_global_id(0);
  out[i] = in[i];
}
)CLC";

bool has_coarse_svm(cl_device_id device) {
  return device_value<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
}

cl_device_id cpu_of_platform(cl_device_id gpu) {
  for (cl_device_id device : devices(device_value<cl_platform_id>(gpu, CL_DEVICE_PLATFORM))) {
    if (device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) return device;
  }
  return nullptr;
}

// Why the row does not apply to `device`, or null.
const char* not_applicable(cl_device_id device, cl_device_id cpu) {
  if (!(device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU)) return "n/a (not a GPU)";
  if (!cpu) return "n/a (no CPU device in the platform)";
  if (!has_coarse_svm(device) || !has_coarse_svm(cpu)) return "n/a (no coarse-grain SVM)";
  if (!device_value<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE) ||
      !device_value<cl_bool>(cpu, CL_DEVICE_COMPILER_AVAILABLE)) {
    return "n/a (no compiler)";
  }
  return nullptr;
}

}  // namespace

void measure_mixed_svm(cl_device_id device, std::size_t bytes, const Settings& settings, Cells& cells) {
  cl_device_id cpu = cpu_of_platform(device);
  if (const char* why = not_applicable(device, cpu)) {
    cells[kMixedSvmAfterHostDevice].note = why;
    return;
  }
  bytes = std::min(bytes, bandwidth_bytes(cpu, settings));
  const std::vector<cl_device_id> both = {cpu, device};
  cl_int status = CL_SUCCESS;
  Context context(clCreateContext(nullptr, 2, both.data(), nullptr, nullptr, &status));
  check(status, "clCreateContext(CPU and GPU)");
  Queue cpu_queue(clCreateCommandQueueWithProperties(context.get(), cpu, nullptr, &status));
  check(status, "clCreateCommandQueueWithProperties(CPU)");
  Queue gpu_queue(clCreateCommandQueueWithProperties(context.get(), device, nullptr, &status));
  check(status, "clCreateCommandQueueWithProperties(GPU)");
  Program program = build_program(context.get(), both, kSource);
  Kernel fill = create_kernel(program.get(), "fill4"), copy = create_kernel(program.get(), "copy4");
  SvmAllocation src(context.get(), bytes), dst(context.get(), bytes);
  BENCH_CL(clSetKernelArgSVMPointer(fill.get(), 0, src.get()));
  BENCH_CL(clSetKernelArgSVMPointer(copy.get(), 0, src.get()));
  BENCH_CL(clSetKernelArgSVMPointer(copy.get(), 1, dst.get()));
  const std::size_t items = bytes / 16;
  float value = 0.0f;
  const double seconds = median_of(settings.repetitions, [&] {
    value += 1.0f;
    BENCH_CL(clSetKernelArg(fill.get(), 1, sizeof value, &value));
    BENCH_CL(clEnqueueNDRangeKernel(cpu_queue.get(), fill.get(), 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(cpu_queue.get()));
    const auto start = std::chrono::steady_clock::now();
    BENCH_CL(clEnqueueNDRangeKernel(gpu_queue.get(), copy.get(), 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(gpu_queue.get()));
    return seconds_since(start);
  });
  // The copy of the last fill: its first, middle and last floats.
  BENCH_CL(clEnqueueSVMMap(gpu_queue.get(), CL_TRUE, CL_MAP_READ, dst.get(), bytes, 0, nullptr, nullptr));
  const auto* floats = static_cast<const float*>(dst.get());
  const bool right = floats[0] == value && floats[bytes / 8] == value && floats[bytes / 4 - 1] == value;
  BENCH_CL(clEnqueueSVMUnmap(gpu_queue.get(), dst.get(), 0, nullptr, nullptr));
  BENCH_CL(clFinish(gpu_queue.get()));
  if (!right) {
    cells[kMixedSvmAfterHostDevice].note = "wrong result";
    return;
  }
  cells[kMixedSvmAfterHostDevice].value = 2.0 * bytes / seconds / 1e9;
}

}  // namespace bench

// The shared virtual memory rows, on coarse-grain SVM allocations (clSVMAlloc): the float4
// copy kernel reading and writing them (beside the same kernel on buffers), clEnqueueSVMMemcpy
// from one to another (beside clEnqueueCopyBuffer), and a map for writing plus the unmap of a
// whole allocation, as an application hands SVM memory to the host and back. A device
// without coarse-grain SVM gets a note instead.
#include "measurements.h"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace bench {
namespace {

const char* kCopySource = R"CLC(
__kernel void copy4(__global const float4* in, __global float4* out) {
  const size_t i = get_global_id(0);
  out[i] = in[i];
}
)CLC";

void measure_svm_rows(const Session& session, std::size_t bytes, const Settings& settings, Cells& cells) {
  const Row rows[] = {kSvmKernelCopy, kSvmMemcpy, kSvmMapUnmap};
  const auto capabilities = device_value<cl_device_svm_capabilities>(session.device(), CL_DEVICE_SVM_CAPABILITIES);
  if (!(capabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
    for (Row row : rows) cells[row].note = "n/a (no coarse-grain SVM)";
    return;
  }
  cl_command_queue queue = session.queue();
  SvmAllocation src(session.context(), bytes), dst(session.context(), bytes);
  const cl_uint pattern = 0x3f800000;  // 1.0f
  BENCH_CL(clEnqueueSVMMemFill(queue, src.get(), &pattern, sizeof pattern, bytes, 0, nullptr, nullptr));
  BENCH_CL(clFinish(queue));

  double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueSVMMemcpy(queue, CL_FALSE, dst.get(), src.get(), bytes, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kSvmMemcpy].value = 2.0 * bytes / seconds / 1e9;

  if (device_value<cl_bool>(session.device(), CL_DEVICE_COMPILER_AVAILABLE)) {
    Program program = build_program(session, kCopySource);
    Kernel copy = create_kernel(program.get(), "copy4");
    BENCH_CL(clSetKernelArgSVMPointer(copy.get(), 0, src.get()));
    BENCH_CL(clSetKernelArgSVMPointer(copy.get(), 1, dst.get()));
    const size_t items = bytes / (4 * sizeof(cl_float));
    seconds = median_seconds(settings.repetitions, [&] {
      BENCH_CL(clEnqueueNDRangeKernel(queue, copy.get(), 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
      BENCH_CL(clFinish(queue));
    });
    cells[kSvmKernelCopy].value = 2.0 * bytes / seconds / 1e9;
  } else {
    cells[kSvmKernelCopy].note = "n/a (no compiler)";
  }

  // The host writes one word per page while mapped, so that the unmap has pages to give back.
  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, dst.get(), bytes, 0, nullptr, nullptr));
    auto* words = static_cast<std::uint32_t*>(dst.get());
    for (std::size_t i = 0; i < bytes / sizeof(std::uint32_t); i += 4096 / sizeof(std::uint32_t)) words[i] = 1;
    BENCH_CL(clEnqueueSVMUnmap(queue, dst.get(), 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kSvmMapUnmap].value = bytes / seconds / 1e9;
}

}  // namespace

void measure_svm(const Session& session, std::size_t bytes, const Settings& settings, Cells& cells) {
  try {
    measure_svm_rows(session, bytes, settings, cells);
  } catch (const ClError& error) {  // the device's other rows go on
    std::fprintf(stderr, "cucl-bench: SVM rows: %s\n", error.what());
    for (Row row : {kSvmKernelCopy, kSvmMemcpy, kSvmMapUnmap}) {
      if (!cells[row].value && cells[row].note.empty()) cells[row].note = "error";
    }
  }
}

}  // namespace bench

#include "measurements.h"

#include <cstdio>

namespace bench {

namespace {

const char* kSource = R"CLC(
__kernel void empty(void) {}
__kernel void copy4(__global const float4* in, __global float4* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}
)CLC";

Program build_program(const Session& session) {
  cl_int status = CL_SUCCESS;
  cl_device_id device = session.device();
  Program program(clCreateProgramWithSource(session.context(), 1, &kSource, nullptr, &status));
  check(status, "clCreateProgramWithSource");
  status = clBuildProgram(program.get(), 1, &device, nullptr, nullptr, nullptr);
  if (status == CL_BUILD_PROGRAM_FAILURE) {
    size_t size = 0;
    clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    std::fprintf(stderr, "cucl-bench: build log:\n%s\n", log.c_str());
  }
  check(status, "clBuildProgram");
  return program;
}

Kernel create_kernel(cl_program program, const char* name) {
  cl_int status = CL_SUCCESS;
  Kernel kernel(clCreateKernel(program, name, &status));
  check(status, "clCreateKernel");
  return kernel;
}

}  // namespace

void measure_kernels(const Session& session, cl_mem src, cl_mem dst, std::size_t bytes,
                     const Settings& settings, Cells& cells) {
  cl_command_queue queue = session.queue();
  Program program = build_program(session);

  // Launch latency: one single-work-item launch of an empty kernel, then wait for it.
  Kernel empty = create_kernel(program.get(), "empty");
  const size_t one = 1;
  double seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.round_trips; ++i) {
      BENCH_CL(clEnqueueNDRangeKernel(queue, empty.get(), 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
      BENCH_CL(clFinish(queue));
    }
  });
  cells[kKernelLaunch].value = seconds * 1e6 / settings.round_trips;

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
}

}  // namespace bench

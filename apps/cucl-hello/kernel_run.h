/* cucl-hello's kernel checks: builds the axpy kernel of kernel.cl from its OpenCL C source or
 * from its SPIR-V, times the build, a launch's round trip and the kernel's bandwidth, and
 * verifies every element of the result. */
#pragma once

#include <CL/cl.h>
#include <stddef.h>

#include "check.h"

/* The kernel's input (x, y) and output (z), made once per device and used by every build
 * of the kernel. */
struct KernelBuffers {
  cl_mem x, y, z;
  size_t bytes; /* of each buffer: 64 MiB, less where the device allows less */
  float* host;  /* room for one buffer, to read the result into */
};

enum KernelForm { KERNEL_FROM_OPENCL_C, KERNEL_FROM_SPIRV };

struct KernelMeasures {
  double build_ms;      /* clBuildProgram, wall clock */
  int cached;           /* the build log says cucl took the program from its on-disk cache */
  double round_trip_us; /* enqueue + clFinish of a one-work-item launch, median */
  double gb_per_s;      /* bytes read and written / kernel time of the profiling event */
};

/* Whether the device has an OpenCL C compiler; whether its CL_DEVICE_IL_VERSION lists SPIR-V. */
int device_has_compiler(cl_device_id device);
int device_takes_spirv(cl_device_id device);

/* Return 1 on success; otherwise the first failure is in `failure`. */
int kernel_buffers_create(cl_context context, cl_device_id device, struct KernelBuffers* buffers,
                          struct Failure* failure);
void kernel_buffers_release(struct KernelBuffers* buffers);

/* Builds the kernel in `form` for `device`, runs it on `queue` (in-order, with profiling)
 * over `buffers` and checks the result. Releases everything it creates. */
int run_kernel(cl_context context, cl_device_id device, cl_command_queue queue, const struct KernelBuffers* buffers,
               enum KernelForm form, struct KernelMeasures* measures, struct Failure* failure);

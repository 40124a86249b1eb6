#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "kernel_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "embedded_kernel.h"

#define MAX_BUFFER_BYTES ((size_t)64 << 20)
#define ROUND_TRIPS 7
#define A 3.0f

/* Inputs whose a * x + y is an exact float (all below 2^24), fused multiply-add or not. */
static float x_value(size_t i) { return (float)(i % 1048573u); }
static float y_value(size_t i) { return (float)(i % 1000003u); }

static double now_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

int device_has_compiler(cl_device_id device) {
  cl_bool available = CL_FALSE;
  return clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof available, &available, NULL) == CL_SUCCESS &&
         available;
}

int device_takes_spirv(cl_device_id device) {
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, 0, NULL, &size) != CL_SUCCESS || size == 0) return 0;
  char* versions = malloc(size);
  int spirv = versions && clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, size, versions, NULL) == CL_SUCCESS &&
              strstr(versions, "SPIR-V") != NULL;
  free(versions);
  return spirv;
}

/* 64 MiB, or less where one allocation may not be that large or three would not fit. */
static size_t buffer_bytes(cl_device_id device, struct Failure* failure) {
  cl_ulong max_alloc = 0, global_memory = 0;
  if (!check_cl(failure, clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL),
                "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE)") ||
      !check_cl(failure,
                clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global_memory, &global_memory, NULL),
                "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE)"))
    return 0;
  cl_ulong bytes = MAX_BUFFER_BYTES;
  if (bytes > max_alloc) bytes = max_alloc;
  if (bytes > global_memory / 4) bytes = global_memory / 4;
  bytes -= bytes % sizeof(cl_float4);
  if (bytes == 0) check_fail(failure, "the device allows no buffer of even one float4");
  return (size_t)bytes;
}

int kernel_buffers_create(cl_context context, cl_device_id device, struct KernelBuffers* buffers,
                          struct Failure* failure) {
  cl_int status = CL_SUCCESS;
  buffers->bytes = buffer_bytes(device, failure);
  if (buffers->bytes == 0) return 0;
  size_t count = buffers->bytes / sizeof(float);
  buffers->host = malloc(buffers->bytes);
  if (!buffers->host) return check_fail(failure, "out of host memory");
  for (size_t i = 0; i < count; ++i) buffers->host[i] = x_value(i);
  buffers->x = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, buffers->bytes, buffers->host, &status);
  if (!check_cl(failure, status, "clCreateBuffer(x)")) return 0;
  for (size_t i = 0; i < count; ++i) buffers->host[i] = y_value(i);
  buffers->y = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, buffers->bytes, buffers->host, &status);
  if (!check_cl(failure, status, "clCreateBuffer(y)")) return 0;
  buffers->z = clCreateBuffer(context, CL_MEM_WRITE_ONLY, buffers->bytes, NULL, &status);
  return check_cl(failure, status, "clCreateBuffer(z)");
}

void kernel_buffers_release(struct KernelBuffers* buffers) {
  if (buffers->z) clReleaseMemObject(buffers->z);
  if (buffers->y) clReleaseMemObject(buffers->y);
  if (buffers->x) clReleaseMemObject(buffers->x);
  free(buffers->host);
}

static cl_program create_program(cl_context context, enum KernelForm form, struct Failure* failure) {
  cl_int status = CL_SUCCESS;
  cl_program program = NULL;
  if (form == KERNEL_FROM_OPENCL_C) {
    const char* text = kernel_source_text;
    program = clCreateProgramWithSource(context, 1, &text, NULL, &status);
    check_cl(failure, status, "clCreateProgramWithSource");
  } else {
    program = clCreateProgramWithIL(context, kernel_spirv, kernel_spirv_size, &status);
    check_cl(failure, status, "clCreateProgramWithIL");
  }
  return status == CL_SUCCESS ? program : NULL;
}

/* The program's build log for `device` (malloc'd, NUL-terminated), or NULL. */
static char* build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS) return NULL;
  char* log = malloc(size + 1);
  if (log && clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS) {
    free(log);
    return NULL;
  }
  if (log) log[size] = '\0';
  return log;
}

/* Builds and times the build; a failed build leaves its log in failure->detail. */
static int build(cl_program program, cl_device_id device, struct KernelMeasures* measures, struct Failure* failure) {
  double start = now_seconds();
  cl_int status = clBuildProgram(program, 1, &device, NULL, NULL, NULL);
  measures->build_ms = (now_seconds() - start) * 1e3;
  char* log = build_log(program, device);
  measures->cached = log && strstr(log, "came from the cache") != NULL; /* cucl's note in the log */
  if (log && status != CL_SUCCESS && failure->what[0] == '\0')
    snprintf(failure->detail, sizeof failure->detail, "%s", log);
  free(log);
  return check_cl(failure, status, "clBuildProgram");
}

static int set_arguments(cl_kernel kernel, const struct KernelBuffers* buffers, struct Failure* failure) {
  const cl_float a = A;
  return check_cl(failure, clSetKernelArg(kernel, 0, sizeof a, &a), "clSetKernelArg(a)") &&
         check_cl(failure, clSetKernelArg(kernel, 1, sizeof(cl_mem), &buffers->x), "clSetKernelArg(x)") &&
         check_cl(failure, clSetKernelArg(kernel, 2, sizeof(cl_mem), &buffers->y), "clSetKernelArg(y)") &&
         check_cl(failure, clSetKernelArg(kernel, 3, sizeof(cl_mem), &buffers->z), "clSetKernelArg(z)");
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* The median of enqueue + clFinish of a one-work-item launch, after one warm-up. */
static int measure_round_trip(cl_command_queue queue, cl_kernel kernel, double* us, struct Failure* failure) {
  const size_t one = 1;
  double seconds[ROUND_TRIPS];
  for (int i = -1; i < ROUND_TRIPS; ++i) {
    double start = now_seconds();
    if (!check_cl(failure, clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL, NULL),
                  "clEnqueueNDRangeKernel(one work-item)") ||
        !check_cl(failure, clFinish(queue), "clFinish"))
      return 0;
    if (i >= 0) seconds[i] = now_seconds() - start;
  }
  qsort(seconds, ROUND_TRIPS, sizeof seconds[0], compare_doubles);
  *us = seconds[ROUND_TRIPS / 2] * 1e6;
  return 1;
}

/* One launch over all of the buffers, timed by its profiling event. z is first filled with
 * NaNs, so that an element the kernel did not write cannot pass. */
static int measure_bandwidth(cl_command_queue queue, cl_kernel kernel, const struct KernelBuffers* buffers,
                             double* gb_per_s, struct Failure* failure) {
  const cl_uint nan_bits = 0xFFFFFFFFu;
  const size_t vectors = buffers->bytes / sizeof(cl_float4);
  cl_event done = NULL;
  cl_ulong start = 0, end = 0;
  int ok = check_cl(failure,
                    clEnqueueFillBuffer(queue, buffers->z, &nan_bits, sizeof nan_bits, 0, buffers->bytes, 0, NULL,
                                        NULL),
                    "clEnqueueFillBuffer(z)") &&
           check_cl(failure, clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &vectors, NULL, 0, NULL, &done),
                    "clEnqueueNDRangeKernel") &&
           check_cl(failure, clWaitForEvents(1, &done), "clWaitForEvents(kernel)") &&
           check_cl(failure, clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL),
                    "clGetEventProfilingInfo(START)") &&
           check_cl(failure, clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL),
                    "clGetEventProfilingInfo(END)");
  if (done) clReleaseEvent(done);
  if (!ok) return 0;
  if (end <= start)
    return check_fail(failure, "kernel event: start %llu, end %llu", (unsigned long long)start,
                      (unsigned long long)end);
  *gb_per_s = 3.0 * (double)buffers->bytes / (double)(end - start); /* bytes per ns = GB/s */
  return 1;
}

/* Reads z back and compares every element, bit for bit, with a * x + y. */
static int verify_result(cl_command_queue queue, const struct KernelBuffers* buffers, struct Failure* failure) {
  if (!check_cl(failure,
                clEnqueueReadBuffer(queue, buffers->z, CL_TRUE, 0, buffers->bytes, buffers->host, 0, NULL, NULL),
                "clEnqueueReadBuffer(z)"))
    return 0;
  const size_t count = buffers->bytes / sizeof(float);
  for (size_t i = 0; i < count; ++i) {
    const float expected = A * x_value(i) + y_value(i);
    if (memcmp(&buffers->host[i], &expected, sizeof expected) != 0)
      return check_fail(failure, "z[%zu] is %g, expected %g (%g * %g + %g)", i, buffers->host[i], expected, A,
                        x_value(i), y_value(i));
  }
  return 1;
}

int run_kernel(cl_context context, cl_device_id device, cl_command_queue queue, const struct KernelBuffers* buffers,
               enum KernelForm form, struct KernelMeasures* measures, struct Failure* failure) {
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = NULL;
  int passed = 0;
  cl_program program = create_program(context, form, failure);
  if (!program || !build(program, device, measures, failure)) goto done;
  kernel = clCreateKernel(program, "axpy", &status);
  if (!check_cl(failure, status, "clCreateKernel(axpy)")) goto done;
  passed = set_arguments(kernel, buffers, failure) &&
           measure_round_trip(queue, kernel, &measures->round_trip_us, failure) &&
           measure_bandwidth(queue, kernel, buffers, &measures->gb_per_s, failure) &&
           verify_result(queue, buffers, failure);
done:
  if (kernel) clReleaseKernel(kernel);
  if (program) clReleaseProgram(program);
  return passed;
}

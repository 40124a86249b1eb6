/* cucl-hello: the project's main job. A plain OpenCL application in C that reaches cucl only
 * through the ICD loader: it lists the platforms the loader sees, finds cucl, and on every
 * cucl device runs buffer commands and a kernel built from OpenCL C and from SPIR-V, checks
 * every result and prints one line per device with what it measured.
 * Exit status 0 only if every check on every device passed. */
#include <CL/cl.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffer_checks.h"
#include "check.h"
#include "cl_names.h"
#include "kernel_run.h"

/* Appends to a device's summary line. */
static void append(char* line, size_t size, const char* format, ...) {
  size_t used = strlen(line);
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(line + used, size - used, format, arguments);
  va_end(arguments);
}

/* The kernel built from OpenCL C and, where the device takes SPIR-V, from SPIR-V. */
static int run_kernels(cl_context context, cl_device_id device, cl_command_queue queue, char* line, size_t size,
                       struct Failure* failure) {
  if (!device_has_compiler(device)) {
    append(line, size, "; no compiler, kernels skipped");
    return 1;
  }
  struct KernelBuffers buffers = {0};
  struct KernelMeasures source = {0}, spirv = {0};
  int passed = 0;
  failure->step = "OpenCL C kernel";
  if (!kernel_buffers_create(context, device, &buffers, failure) ||
      !run_kernel(context, device, queue, &buffers, KERNEL_FROM_OPENCL_C, &source, failure))
    goto done;
  append(line, size, "; OpenCL C build %.1f ms%s, launch round trip %.0f us, kernel %.1f GB/s over 3 x %zu MiB",
         source.build_ms, source.cached ? " (cached)" : "", source.round_trip_us, source.gb_per_s,
         buffers.bytes >> 20);
  if (!device_takes_spirv(device)) {
    append(line, size, "; SPIR-V skipped (not in CL_DEVICE_IL_VERSION)");
    passed = 1;
    goto done;
  }
  failure->step = "SPIR-V kernel";
  passed = run_kernel(context, device, queue, &buffers, KERNEL_FROM_SPIRV, &spirv, failure);
  if (passed)
    append(line, size, "; SPIR-V build %.1f ms%s, same result", spirv.build_ms, spirv.cached ? " (cached)" : "");
done:
  kernel_buffers_release(&buffers);
  return passed;
}

static int run_checks(cl_platform_id platform, cl_device_id device, char* line, size_t size,
                      struct Failure* failure) {
  cl_int status = CL_SUCCESS;
  cl_context context = NULL;
  cl_command_queue queue = NULL;
  int passed = 0;
  const cl_context_properties context_properties[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  const cl_queue_properties queue_properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};

  failure->step = "setup";
  context = clCreateContext(context_properties, 1, &device, NULL, NULL, &status);
  if (!check_cl(failure, status, "clCreateContext")) goto done;
  queue = clCreateCommandQueueWithProperties(context, device, queue_properties, &status);
  if (!check_cl(failure, status, "clCreateCommandQueueWithProperties")) goto done;

  failure->step = "buffers";
  if (!run_buffer_checks(context, queue, failure)) goto done;
  append(line, size, "buffers ok");
  passed = run_kernels(context, device, queue, line, size, failure);
done:
  if (queue) clReleaseCommandQueue(queue);
  if (context) clReleaseContext(context);
  return passed;
}

/* Runs every check on one device and prints its line, e.g.
 *   cucl/cpu0  <name> (CPU, OpenCL 3.0 ...): buffers ok; OpenCL C build ...; SPIR-V build ... */
static int run_on_device(cl_platform_id platform, cl_device_id device, const char* label) {
  char name[256] = "?", version[256] = "?", line[1024] = "";
  cl_device_type type = 0;
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL);
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);

  struct Failure failure = {0};
  int passed = run_checks(platform, device, line, sizeof line, &failure);
  if (!passed) append(line, sizeof line, "%sFAILED: %s", line[0] ? "; " : "", failure.what);
  printf("%-10s %s (%s, %s): %s\n", label, name, cl_device_type_name(type), version, line);
  if (!passed && failure.detail[0]) {
    for (const char* text = failure.detail; *text;) {
      size_t length = strcspn(text, "\n");
      printf("    | %.*s\n", (int)length, text);
      text += length + (text[length] == '\n');
    }
  }
  return passed;
}

static void platform_string(cl_platform_id platform, cl_platform_info param, char* out, size_t size) {
  if (clGetPlatformInfo(platform, param, size, out, NULL) != CL_SUCCESS) snprintf(out, size, "?");
}

/* Lists the platforms and returns cucl's, or NULL. */
static cl_platform_id find_cucl(void) {
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, NULL, &count);
  if (status != CL_SUCCESS || count == 0) {
    printf("The ICD loader sees no OpenCL platform (%s).\n", cl_error_name(status));
    return NULL;
  }
  cl_platform_id* platforms = calloc(count, sizeof *platforms);
  if (!platforms || clGetPlatformIDs(count, platforms, NULL) != CL_SUCCESS) {
    printf("clGetPlatformIDs failed\n");
    free(platforms);
    return NULL;
  }
  cl_platform_id cucl = NULL;
  printf("OpenCL platforms the ICD loader sees: %u\n", count);
  for (cl_uint i = 0; i < count; ++i) {
    char name[256], vendor[256], version[256];
    platform_string(platforms[i], CL_PLATFORM_NAME, name, sizeof name);
    platform_string(platforms[i], CL_PLATFORM_VENDOR, vendor, sizeof vendor);
    platform_string(platforms[i], CL_PLATFORM_VERSION, version, sizeof version);
    int is_cucl = strcmp(name, "cucl") == 0;
    if (is_cucl && !cucl) cucl = platforms[i];
    printf("  [%u] %s | %s | %s%s\n", i, name, vendor, version, is_cucl ? "   <- cucl" : "");
  }
  free(platforms);
  return cucl;
}

/* "cucl/cpu0", "cucl/gpu1": the device's type and its index among the devices of that type. */
static void device_label(cl_device_id device, cl_uint per_type[4], char* label, size_t size) {
  static const char* const kinds[4] = {"cpu", "gpu", "accelerator", "other"};
  cl_device_type type = 0;
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  size_t kind = 3;
  if (type & CL_DEVICE_TYPE_CPU)
    kind = 0;
  else if (type & CL_DEVICE_TYPE_GPU)
    kind = 1;
  else if (type & CL_DEVICE_TYPE_ACCELERATOR)
    kind = 2;
  snprintf(label, size, "cucl/%s%u", kinds[kind], per_type[kind]++);
}

int main(void) {
  cl_platform_id cucl = find_cucl();
  if (!cucl) {
    printf("cucl is not among them: point the loader at it, e.g. OCL_ICD_VENDORS=<build>/vendors\n");
    return 1;
  }
  cl_uint count = 0;
  cl_int status = clGetDeviceIDs(cucl, CL_DEVICE_TYPE_ALL, 0, NULL, &count);
  cl_device_id* devices = status == CL_SUCCESS ? calloc(count, sizeof *devices) : NULL;
  if (devices) status = clGetDeviceIDs(cucl, CL_DEVICE_TYPE_ALL, count, devices, NULL);
  if (!devices || status != CL_SUCCESS) {
    printf("cucl-hello: FAILED: clGetDeviceIDs returned %s (%d)\n", cl_error_name(status), status);
    free(devices);
    return 1;
  }
  printf("cucl devices: %u\n", count);
  cl_uint passed = 0, per_type[4] = {0};
  for (cl_uint i = 0; i < count; ++i) {
    char label[32];
    device_label(devices[i], per_type, label, sizeof label);
    passed += (cl_uint)run_on_device(cucl, devices[i], label);
  }
  free(devices);
  if (passed == count) {
    printf("cucl-hello: PASSED on all %u cucl device(s): buffer commands, kernels built, run and verified\n", count);
    return 0;
  }
  printf("cucl-hello: FAILED on %u of %u cucl device(s)\n", count - passed, count);
  return 1;
}

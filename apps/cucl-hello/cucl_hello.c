/* cucl-hello: the project's main job. A plain OpenCL application in C that reaches cucl only
 * through the ICD loader: it lists the platforms the loader sees, finds cucl, runs buffer
 * commands on every cucl device, checks every result and prints what it did.
 * Exit status 0 only if every check on every device passed. */
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_names.h"

#define WORDS (1u << 20) /* 4 MiB of cl_uint per buffer */
#define BYTES (WORDS * sizeof(cl_uint))
#define FILL_PATTERN 0xC0FFEE11u

static const double kMiB = 1024.0 * 1024.0;

/* Reports a failed call; returns 1 when `status` is CL_SUCCESS. */
static int ok(cl_int status, const char* what) {
  if (status == CL_SUCCESS) return 1;
  printf("    FAILED: %s returned %s (%d)\n", what, cl_error_name(status), status);
  return 0;
}

static cl_uint pattern_word(cl_uint i) { return i * 2654435761u + 12345u; }

/* The first index where `words` differs from the expected value, or -1. */
static long first_mismatch(const cl_uint* words, cl_uint (*expected)(cl_uint)) {
  for (cl_uint i = 0; i < WORDS; ++i) {
    if (words[i] != expected(i)) return (long)i;
  }
  return -1;
}

static cl_uint fill_word(cl_uint i) {
  (void)i;
  return FILL_PATTERN;
}

static cl_uint inverted_word(cl_uint i) { return ~pattern_word(i); }

static int verify(const cl_uint* words, cl_uint (*expected)(cl_uint), const char* what) {
  long bad = first_mismatch(words, expected);
  if (bad < 0) return 1;
  printf("    FAILED: %s: word %ld is 0x%08x, expected 0x%08x\n", what, bad, words[bad],
         expected((cl_uint)bad));
  return 0;
}

/* Everything one device's run creates, released in one place whatever step failed. */
struct DeviceRun {
  cl_context context;
  cl_command_queue queue;
  cl_mem a, b, c;
  cl_event copy_done;
  cl_uint* host;
};

static void release_run(struct DeviceRun* run) {
  if (run->copy_done) clReleaseEvent(run->copy_done);
  if (run->c) clReleaseMemObject(run->c);
  if (run->b) clReleaseMemObject(run->b);
  if (run->a) clReleaseMemObject(run->a);
  if (run->queue) clReleaseCommandQueue(run->queue);
  if (run->context) clReleaseContext(run->context);
  free(run->host);
}

/* Reads a whole buffer into run->host and checks every word against `expected`. */
static int read_and_verify(struct DeviceRun* run, cl_mem buffer, cl_uint (*expected)(cl_uint), const char* what) {
  memset(run->host, 0, BYTES);
  return ok(clEnqueueReadBuffer(run->queue, buffer, CL_TRUE, 0, BYTES, run->host, 0, NULL, NULL),
            "clEnqueueReadBuffer") &&
         verify(run->host, expected, what);
}

static void print_step(const char* step, const char* detail) { printf("    %-6s %-48s ok\n", step, detail); }

/* Copy buffer A -> B (with a profiled event), fill C, read back, map/unmap. */
static int run_buffer_commands(struct DeviceRun* run) {
  cl_int status = CL_SUCCESS;
  char detail[128];
  for (cl_uint i = 0; i < WORDS; ++i) run->host[i] = pattern_word(i);

  if (!ok(clEnqueueWriteBuffer(run->queue, run->a, CL_TRUE, 0, BYTES, run->host, 0, NULL, NULL),
          "clEnqueueWriteBuffer"))
    return 0;
  snprintf(detail, sizeof detail, "%.1f MiB from the host into buffer A", BYTES / kMiB);
  print_step("write", detail);

  if (!ok(clEnqueueCopyBuffer(run->queue, run->a, run->b, 0, 0, BYTES, 0, NULL, &run->copy_done),
          "clEnqueueCopyBuffer") ||
      !ok(clWaitForEvents(1, &run->copy_done), "clWaitForEvents(copy)"))
    return 0;
  cl_command_type type = 0;
  cl_int execution = 1;
  cl_ulong start = 0, end = 0;
  if (!ok(clGetEventInfo(run->copy_done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), "clGetEventInfo") ||
      !ok(clGetEventInfo(run->copy_done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof execution, &execution, NULL),
          "clGetEventInfo") ||
      !ok(clGetEventProfilingInfo(run->copy_done, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL),
          "clGetEventProfilingInfo(START)") ||
      !ok(clGetEventProfilingInfo(run->copy_done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL),
          "clGetEventProfilingInfo(END)"))
    return 0;
  if (type != CL_COMMAND_COPY_BUFFER || execution != CL_COMPLETE || end < start) {
    printf("    FAILED: copy event: type 0x%x, status %d, start %llu, end %llu\n", type, execution,
           (unsigned long long)start, (unsigned long long)end);
    return 0;
  }
  double ns = (double)(end - start);
  snprintf(detail, sizeof detail, "%.1f MiB buffer A -> buffer B", BYTES / kMiB);
  printf("    %-6s %-48s ok  (%.1f us on the device", "copy", detail, ns / 1e3);
  if (ns > 0) printf(", %.1f GB/s", BYTES / ns);
  printf(")\n");

  const cl_uint fill = FILL_PATTERN;
  if (!ok(clEnqueueFillBuffer(run->queue, run->c, &fill, sizeof fill, 0, BYTES, 0, NULL, NULL),
          "clEnqueueFillBuffer"))
    return 0;
  snprintf(detail, sizeof detail, "%.1f MiB of buffer C with 0x%08x", BYTES / kMiB, FILL_PATTERN);
  print_step("fill", detail);

  if (!read_and_verify(run, run->b, pattern_word, "buffer B after the copy") ||
      !read_and_verify(run, run->c, fill_word, "buffer C after the fill"))
    return 0;
  print_step("read", "buffers B and C back; contents verified");

  cl_uint* mapped = clEnqueueMapBuffer(run->queue, run->b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, BYTES, 0,
                                       NULL, NULL, &status);
  if (!ok(status, "clEnqueueMapBuffer")) return 0;
  int mapped_ok = verify(mapped, pattern_word, "buffer B through the mapping");
  for (cl_uint i = 0; i < WORDS; ++i) mapped[i] = ~mapped[i];
  if (!ok(clEnqueueUnmapMemObject(run->queue, run->b, mapped, 0, NULL, NULL), "clEnqueueUnmapMemObject") ||
      !mapped_ok)
    return 0;
  if (!read_and_verify(run, run->b, inverted_word, "buffer B after writing through the mapping")) return 0;
  print_step("map", "buffer B: verified, inverted in place, unmapped");
  return ok(clFinish(run->queue), "clFinish");
}

static int run_on_device(cl_platform_id platform, cl_device_id device, cl_uint index) {
  char name[256] = "?", version[256] = "?";
  cl_device_type type = 0;
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL);
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  printf("  device %u: %s (%s, %s)\n", index, name, cl_device_type_name(type), version);

  struct DeviceRun run = {0};
  cl_int status = CL_SUCCESS;
  int passed = 0;
  const cl_context_properties context_properties[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  const cl_queue_properties queue_properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};

  run.context = clCreateContext(context_properties, 1, &device, NULL, NULL, &status);
  if (!ok(status, "clCreateContext")) goto done;
  run.queue = clCreateCommandQueueWithProperties(run.context, device, queue_properties, &status);
  if (!ok(status, "clCreateCommandQueueWithProperties")) goto done;
  print_step("setup", "context and profiling in-order queue");

  run.a = clCreateBuffer(run.context, CL_MEM_READ_WRITE, BYTES, NULL, &status);
  if (!ok(status, "clCreateBuffer(A)")) goto done;
  run.b = clCreateBuffer(run.context, CL_MEM_READ_WRITE, BYTES, NULL, &status);
  if (!ok(status, "clCreateBuffer(B)")) goto done;
  run.c = clCreateBuffer(run.context, CL_MEM_WRITE_ONLY, BYTES, NULL, &status);
  if (!ok(status, "clCreateBuffer(C)")) goto done;
  print_step("create", "buffers A, B and C");

  run.host = malloc(BYTES);
  if (!run.host) {
    printf("    FAILED: out of host memory\n");
    goto done;
  }
  passed = run_buffer_commands(&run);

done:
  release_run(&run);
  printf("    result: %s\n", passed ? "PASS" : "FAIL");
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
  if (!platforms || !ok(clGetPlatformIDs(count, platforms, NULL), "clGetPlatformIDs")) {
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

int main(void) {
  cl_platform_id cucl = find_cucl();
  if (!cucl) {
    printf("cucl is not among them: point the loader at it, e.g. OCL_ICD_VENDORS=<build>/vendors\n");
    return 1;
  }
  cl_uint count = 0;
  if (!ok(clGetDeviceIDs(cucl, CL_DEVICE_TYPE_ALL, 0, NULL, &count), "clGetDeviceIDs")) return 1;
  cl_device_id* devices = calloc(count, sizeof *devices);
  if (!devices || !ok(clGetDeviceIDs(cucl, CL_DEVICE_TYPE_ALL, count, devices, NULL), "clGetDeviceIDs")) {
    free(devices);
    return 1;
  }
  printf("cucl devices: %u\n", count);
  cl_uint passed = 0;
  for (cl_uint i = 0; i < count; ++i) passed += (cl_uint)run_on_device(cucl, devices[i], i);
  free(devices);
  if (passed == count) {
    printf("cucl-hello: all checks passed on %u of %u device(s)\n", passed, count);
    return 0;
  }
  printf("cucl-hello: FAILED on %u of %u device(s)\n", count - passed, count);
  return 1;
}

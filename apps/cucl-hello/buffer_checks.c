#include "buffer_checks.h"

#include <stdlib.h>
#include <string.h>

#define WORDS (1u << 20) /* 4 MiB of cl_uint per buffer */
#define BYTES (WORDS * sizeof(cl_uint))
#define FILL_PATTERN 0xC0FFEE11u

static cl_uint pattern_word(cl_uint i) { return i * 2654435761u + 12345u; }

static cl_uint fill_word(cl_uint i) {
  (void)i;
  return FILL_PATTERN;
}

static cl_uint inverted_word(cl_uint i) { return ~pattern_word(i); }

/* Checks every word against `expected`; records the first that differs. */
static int verify(struct Failure* failure, const cl_uint* words, cl_uint (*expected)(cl_uint), const char* what) {
  for (cl_uint i = 0; i < WORDS; ++i) {
    if (words[i] != expected(i))
      return check_fail(failure, "%s: word %u is 0x%08x, expected 0x%08x", what, i, words[i], expected(i));
  }
  return 1;
}

/* Everything one run creates, released in one place whatever step failed. */
struct BufferRun {
  cl_command_queue queue;
  cl_mem a, b, c;
  cl_event copy_done;
  cl_uint* host;
  struct Failure* failure;
};

static void release_run(struct BufferRun* run) {
  if (run->copy_done) clReleaseEvent(run->copy_done);
  if (run->c) clReleaseMemObject(run->c);
  if (run->b) clReleaseMemObject(run->b);
  if (run->a) clReleaseMemObject(run->a);
  free(run->host);
}

/* Reads a whole buffer into run->host and checks every word against `expected`. */
static int read_and_verify(struct BufferRun* run, cl_mem buffer, cl_uint (*expected)(cl_uint), const char* what) {
  memset(run->host, 0, BYTES);
  return check_cl(run->failure,
                  clEnqueueReadBuffer(run->queue, buffer, CL_TRUE, 0, BYTES, run->host, 0, NULL, NULL),
                  "clEnqueueReadBuffer") &&
         verify(run->failure, run->host, expected, what);
}

/* The copy's event must say what it was, that it completed, and when it ran. */
static int check_copy_event(struct BufferRun* run) {
  struct Failure* failure = run->failure;
  cl_command_type type = 0;
  cl_int execution = 1;
  cl_ulong start = 0, end = 0;
  if (!check_cl(failure, clGetEventInfo(run->copy_done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                "clGetEventInfo(CL_EVENT_COMMAND_TYPE)") ||
      !check_cl(failure,
                clGetEventInfo(run->copy_done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof execution, &execution,
                               NULL),
                "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)") ||
      !check_cl(failure,
                clGetEventProfilingInfo(run->copy_done, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL),
                "clGetEventProfilingInfo(START)") ||
      !check_cl(failure, clGetEventProfilingInfo(run->copy_done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL),
                "clGetEventProfilingInfo(END)"))
    return 0;
  if (type != CL_COMMAND_COPY_BUFFER || execution != CL_COMPLETE || end < start)
    return check_fail(failure, "copy event: type 0x%x, status %d, start %llu, end %llu", type, execution,
                      (unsigned long long)start, (unsigned long long)end);
  return 1;
}

/* Write A, copy A -> B, fill C, read B and C back, map B and invert it in place. */
static int run_commands(struct BufferRun* run) {
  struct Failure* failure = run->failure;
  for (cl_uint i = 0; i < WORDS; ++i) run->host[i] = pattern_word(i);
  if (!check_cl(failure, clEnqueueWriteBuffer(run->queue, run->a, CL_TRUE, 0, BYTES, run->host, 0, NULL, NULL),
                "clEnqueueWriteBuffer") ||
      !check_cl(failure, clEnqueueCopyBuffer(run->queue, run->a, run->b, 0, 0, BYTES, 0, NULL, &run->copy_done),
                "clEnqueueCopyBuffer") ||
      !check_cl(failure, clWaitForEvents(1, &run->copy_done), "clWaitForEvents(copy)") || !check_copy_event(run))
    return 0;

  const cl_uint fill = FILL_PATTERN;
  if (!check_cl(failure, clEnqueueFillBuffer(run->queue, run->c, &fill, sizeof fill, 0, BYTES, 0, NULL, NULL),
                "clEnqueueFillBuffer") ||
      !read_and_verify(run, run->b, pattern_word, "buffer B after the copy") ||
      !read_and_verify(run, run->c, fill_word, "buffer C after the fill"))
    return 0;

  cl_int status = CL_SUCCESS;
  cl_uint* mapped = clEnqueueMapBuffer(run->queue, run->b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, BYTES, 0, NULL,
                                       NULL, &status);
  if (!check_cl(failure, status, "clEnqueueMapBuffer")) return 0;
  int mapped_ok = verify(failure, mapped, pattern_word, "buffer B through the mapping");
  for (cl_uint i = 0; i < WORDS; ++i) mapped[i] = ~mapped[i];
  if (!check_cl(failure, clEnqueueUnmapMemObject(run->queue, run->b, mapped, 0, NULL, NULL),
                "clEnqueueUnmapMemObject") ||
      !mapped_ok)
    return 0;
  return read_and_verify(run, run->b, inverted_word, "buffer B after writing through the mapping") &&
         check_cl(failure, clFinish(run->queue), "clFinish");
}

int run_buffer_checks(cl_context context, cl_command_queue queue, struct Failure* failure) {
  struct BufferRun run = {.queue = queue, .failure = failure};
  cl_int status = CL_SUCCESS;
  int passed = 0;
  run.a = clCreateBuffer(context, CL_MEM_READ_WRITE, BYTES, NULL, &status);
  if (!check_cl(failure, status, "clCreateBuffer(A)")) goto done;
  run.b = clCreateBuffer(context, CL_MEM_READ_WRITE, BYTES, NULL, &status);
  if (!check_cl(failure, status, "clCreateBuffer(B)")) goto done;
  run.c = clCreateBuffer(context, CL_MEM_WRITE_ONLY, BYTES, NULL, &status);
  if (!check_cl(failure, status, "clCreateBuffer(C)")) goto done;
  run.host = malloc(BYTES);
  if (!run.host) {
    check_fail(failure, "out of host memory");
    goto done;
  }
  passed = run_commands(&run);
done:
  release_run(&run);
  return passed;
}

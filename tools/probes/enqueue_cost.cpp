// What one small command costs the host, phase by phase, on the first GPU device (CPU device
// with TYPE=cpu) of the first platform whose name contains $PLATFORM (any platform without it): N empty-kernel
// launches then clFinish, N launches each followed by clFinish, and the same with 4-byte
// non-blocking writes -- cucl-bench's launch and transfer rows; then a blocking 4-byte read,
// alone and behind a launch, and a non-blocking one behind a launch, waited for by clFinish or
// by its event. Each phase prints its wall
// time per command; under callgrind each phase is also dumped on its own (the counters are
// zeroed before it), so `callgrind_annotate --inclusive=yes` splits a command's instructions
// between the loader, cucl and the CUDA driver, thread by thread. Not part of the build:
//   g++ -O2 -std=c++17 tools/probes/enqueue_cost.cpp -lOpenCL -o enqueue_cost
//   OCL_ICD_VENDORS=build/vendors ./enqueue_cost 2000
//   valgrind --tool=callgrind --separate-threads=yes ./enqueue_cost 2000
// A second argument runs only that phase, a third sets its repetitions (long enough for a
// sampling profiler): perf record -F 20000 ./enqueue_cost 2000 write 400
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <valgrind/callgrind.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

#define CHECK(call)                                                       \
  do {                                                                    \
    cl_int status_ = (call);                                              \
    if (status_ != CL_SUCCESS) {                                          \
      std::fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #call, status_); \
      std::exit(1);                                                       \
    }                                                                     \
  } while (0)

cl_device_id chosen_device() {
  const char* type = std::getenv("TYPE");
  const cl_device_type wanted_type = type && std::strcmp(type, "cpu") == 0 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
  cl_platform_id platforms[8];
  cl_uint count = 0;
  CHECK(clGetPlatformIDs(8, platforms, &count));
  const char* wanted = std::getenv("PLATFORM");
  for (cl_uint i = 0; i < count && i < 8; ++i) {
    char name[256] = {};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    if (wanted && !std::strstr(name, wanted)) continue;
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platforms[i], wanted_type, 1, &device, nullptr) == CL_SUCCESS) return device;
  }
  std::fprintf(stderr, "no such device\n");
  std::exit(1);
}

// `body` enqueues `commands` commands; it runs `reps` times after a warm-up of a tenth as many
// (pools filled, code paged in).
template <class Body>
void phase(const char* name, int reps, int commands, Body body) {
  for (int i = 0; i < reps / 10 + 1; ++i) body();
  CALLGRIND_ZERO_STATS;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) body();
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  CALLGRIND_DUMP_STATS_AT(name);
  std::printf("%-16s %8.2f us per command (%d)\n", name, us / (reps * commands), reps * commands);
}

}  // namespace

int main(int argc, char** argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 2000;
  const char* only = argc > 2 ? argv[2] : nullptr;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 0;
  const auto burst_reps = reps ? reps : 5;
  const auto single_reps = reps ? reps : count;
  cl_device_id device = chosen_device();
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  CHECK(status);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
  CHECK(status);
  const char* source = "kernel void empty(void) {}";
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  CHECK(status);
  CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  cl_kernel empty = clCreateKernel(program, "empty", &status);
  CHECK(status);
  cl_mem word = clCreateBuffer(context, CL_MEM_READ_WRITE, 4, nullptr, &status);
  CHECK(status);
  const size_t one = 1;
  const cl_uint pattern = 0x5a5a5a5a;
  const auto launch = [&] { CHECK(clEnqueueNDRangeKernel(queue, empty, 1, nullptr, &one, nullptr, 0, nullptr, nullptr)); };
  const auto write = [&] { CHECK(clEnqueueWriteBuffer(queue, word, CL_FALSE, 0, 4, &pattern, 0, nullptr, nullptr)); };
  cl_uint result = 0;
  const auto read = [&] { CHECK(clEnqueueReadBuffer(queue, word, CL_TRUE, 0, 4, &result, 0, nullptr, nullptr)); };

  // N commands then clFinish, or one command then clFinish.
  const auto burst = [&](auto command) {
    return [&, command] {
      for (int i = 0; i < count; ++i) command();
      CHECK(clFinish(queue));
    };
  };
  const auto round_trip = [&](auto command) {
    return [&, command] {
      command();
      CHECK(clFinish(queue));
    };
  };
  const auto run = [&](const char* name, int phase_reps, int commands, auto body) {
    if (!only || std::strcmp(only, name) == 0) phase(name, phase_reps, commands, body);
  };
  run("launch", burst_reps, count, burst(launch));
  run("launch+finish", single_reps, 1, round_trip(launch));
  run("write", burst_reps, count, burst(write));
  run("write+finish", single_reps, 1, round_trip(write));
  // The commonest round trip of all: a kernel, then a blocking read of its (4-byte) result.
  run("read", single_reps, 1, read);
  run("launch+read", single_reps, 1, [&] {
    launch();
    read();
  });
  // The same with a non-blocking read, then clFinish, or a wait for the read's event (as SYCL
  // runtimes do).
  run("launch+readnb+finish", single_reps, 1, [&] {
    launch();
    CHECK(clEnqueueReadBuffer(queue, word, CL_FALSE, 0, 4, &result, 0, nullptr, nullptr));
    CHECK(clFinish(queue));
  });
  run("launch+readnb+wait", single_reps, 1, [&] {
    launch();
    cl_event event = nullptr;
    CHECK(clEnqueueReadBuffer(queue, word, CL_FALSE, 0, 4, &result, 0, nullptr, &event));
    CHECK(clWaitForEvents(1, &event));
    CHECK(clReleaseEvent(event));
  });
  clReleaseMemObject(word);
  clReleaseKernel(empty);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}

// An LD_PRELOAD shim that times each clEnqueueNDRangeKernel of an application to its end and
// prints, at exit, per kernel name and range: the launches, their total and mean time and the
// page faults of the process during each (a first write of fresh memory shows there). Each
// key's first launch is left out (it may build). Every launch is finished before and after,
// so it serialises the application's queue. KTRACE_DUMP=<folder> also writes each program's
// source there (programN.cl) and its build options (programN.opts). Not part of the build:
//   g++ -O2 -std=c++17 -shared -fPIC tools/probes/kernel_trace.cpp -ldl -o kernel_trace.so
//   LD_PRELOAD=./kernel_trace.so ./clblast_sgemm 1024
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace {

long page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt + usage.ru_majflt;
}

struct Launches {
  int count = 0;
  double milliseconds = 0;
  long faults = 0;
};

struct Totals {
  std::mutex mutex;
  std::map<std::string, Launches> by_key;
  std::map<std::string, int> seen;
  std::map<cl_program, int> program_numbers;
  int programs = 0;
  ~Totals() {
    for (const auto& [key, launches] : by_key) {
      std::fprintf(stderr, "ktrace %-36s %4d calls %9.3f ms total %8.3f ms each %ld faults each\n", key.c_str(),
                   launches.count, launches.milliseconds, launches.milliseconds / launches.count,
                   launches.faults / launches.count);
    }
  }
} totals;

std::string launch_key(cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local) {
  char name[128] = {};
  clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr);
  std::string key = std::string(name) + " " + std::to_string(global[0]) + "x" + std::to_string(dims > 1 ? global[1] : 1);
  key += local ? "/" + std::to_string(local[0]) + "x" + std::to_string(dims > 1 ? local[1] : 1) : "/-";
  return key;
}

template <class Function>
Function next_definition(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t* offset,
                                         const size_t* global, const size_t* local, cl_uint waits,
                                         const cl_event* wait_list, cl_event* event) {
  using Enqueue = cl_int (*)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*, cl_uint,
                             const cl_event*, cl_event*);
  static const Enqueue enqueue = next_definition<Enqueue>("clEnqueueNDRangeKernel");
  const std::string key = launch_key(kernel, dims, global, local);
  clFinish(queue);
  const long faults_before = page_faults();
  const auto start = std::chrono::steady_clock::now();
  const cl_int result = enqueue(queue, kernel, dims, offset, global, local, waits, wait_list, event);
  clFinish(queue);
  const double milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const long faults = page_faults() - faults_before;
  std::lock_guard lock(totals.mutex);
  if (totals.seen[key]++ == 0) return result;
  Launches& launches = totals.by_key[key];
  ++launches.count;
  launches.milliseconds += milliseconds;
  launches.faults += faults;
  return result;
}

extern "C" cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                const size_t* lengths, cl_int* status) {
  using Create = cl_program (*)(cl_context, cl_uint, const char**, const size_t*, cl_int*);
  static const Create create = next_definition<Create>("clCreateProgramWithSource");
  if (const char* folder = std::getenv("KTRACE_DUMP")) {
    std::string source;
    for (cl_uint i = 0; i < count; ++i) source += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : strings[i];
    int number = 0;
    {
      std::lock_guard lock(totals.mutex);
      number = totals.programs++;
    }
    const std::string path = std::string(folder) + "/program" + std::to_string(number) + ".cl";
    if (FILE* file = std::fopen(path.c_str(), "w")) {
      std::fwrite(source.data(), 1, source.size(), file);
      std::fclose(file);
    }
    cl_program program = create(context, count, strings, lengths, status);
    std::lock_guard lock(totals.mutex);
    totals.program_numbers[program] = number;
    return program;
  }
  return create(context, count, strings, lengths, status);
}

extern "C" cl_int clBuildProgram(cl_program program, cl_uint device_count, const cl_device_id* devices,
                                 const char* options, void (*notify)(cl_program, void*), void* user_data) {
  using Build = cl_int (*)(cl_program, cl_uint, const cl_device_id*, const char*, void (*)(cl_program, void*), void*);
  static const Build build = next_definition<Build>("clBuildProgram");
  const char* folder = std::getenv("KTRACE_DUMP");
  int number = -1;
  if (folder) {
    std::lock_guard lock(totals.mutex);
    auto found = totals.program_numbers.find(program);
    if (found != totals.program_numbers.end()) number = found->second;
  }
  if (number >= 0) {
    const std::string path = std::string(folder) + "/program" + std::to_string(number) + ".opts";
    if (FILE* file = std::fopen(path.c_str(), "w")) {
      std::fputs(options ? options : "", file);
      std::fclose(file);
    }
  }
  return build(program, device_count, devices, options, notify, user_data);
}

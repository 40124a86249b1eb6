// Two builds of an OpenCL library compared in one process: the first GPU device of every
// platform the ICD loader finds runs the same small-command phases in turn, many short rounds
// with the platforms' order rotating, so that whatever the host does meanwhile (where its
// scheduler puts the threads, other tenants) falls on every platform alike. Alternating whole
// processes left rounds of one library 4.1-6.5 us per launch apart on an H200's host, more
// than the changes being judged. Phases, per command: a burst of N empty-kernel launches then
// clFinish; launch + clFinish; a burst of N 4-byte non-blocking writes then clFinish; write +
// clFinish; launch + blocking 4-byte read; a copy of COPY_MIB (default 256) MiB between two
// buffers + clFinish (clEnqueueCopyBuffer; the driver: cuMemcpyDtoDAsync); the same bytes
// copied by a float4 kernel, one float4 a work-item, + clFinish (NULL local size; the driver:
// the same kernel in PTX, blocks of 256, as cucl-bench's reference). Medians over the rounds, in microseconds. With
// CUDA=1 the CUDA driver itself (loaded at run time) runs the same phases beside them as the
// reference: cuLaunchKernel, pageable cuMemcpyHtoDAsync / cuMemcpyDtoHAsync, cuMemcpyDtoDAsync and
// cuStreamSynchronize on a stream of the primary context. Load the builds as separate
// libraries, each named by one .icd file of a vendors folder; a platform is named by its
// library's file (tools/gpu-run-tests does this with CUCL_GPU_AB):
//   g++ -O2 -std=c++17 tools/probes/platform_ab.cpp -lOpenCL -ldl -o platform_ab
//   OCL_ICD_VENDORS=/tmp/ab-vendors ./platform_ab [rounds] [N]    (TYPE=cpu: CPU devices)
// Read "rounds where A beat B" against an A/A run (two copies of one library): on an H200 in
// 2026-11 the first-loaded copy won launch + clFinish in 71 of 100 rounds twice, launch + read
// in 60 and 86, and the second-loaded one the copy phases in 80-82, by up to 1 us.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

#define CHECK(call)                                                                \
  do {                                                                             \
    cl_int status_ = (call);                                                       \
    if (status_ != CL_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #call, status_); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

struct Target {
  std::string name;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_kernel empty = nullptr;
  cl_kernel copy4 = nullptr;
  cl_mem word = nullptr;
  cl_mem copy_from = nullptr, copy_to = nullptr;
};

// Read once: every copy of every round uses it.
size_t copy_bytes() {
  static const size_t bytes = [] {
    const char* mib = std::getenv("COPY_MIB");
    return static_cast<size_t>(mib ? std::strtoull(mib, nullptr, 10) : 256) << 20;
  }();
  return bytes;
}

// The file of the library behind `platform`: an ICD's handles begin with its dispatch table,
// whose entries are its own functions.
std::string library_of(cl_platform_id platform) {
  void* const* dispatch = *reinterpret_cast<void* const* const*>(platform);
  Dl_info info{};
  for (int i = 0; i < 4; ++i) {
    if (dispatch[i] && dladdr(dispatch[i], &info) && info.dli_fname) {
      const std::string path = info.dli_fname;
      return path.substr(path.rfind('/') + 1);
    }
  }
  return "?";
}

Target open_target(cl_platform_id platform, size_t index) {
  Target target;
  target.name = std::to_string(index) + ":" + library_of(platform);
  cl_device_id device = nullptr;
  CHECK(clGetDeviceIDs(platform, getenv("TYPE") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU, 1, &device, nullptr));
  cl_int status = CL_SUCCESS;
  target.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  CHECK(status);
  target.queue = clCreateCommandQueueWithProperties(target.context, device, nullptr, &status);
  CHECK(status);
  const char* source =
      "__kernel void empty(void) {}\n"
      "__kernel void copy4(__global const float4* in, __global float4* out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  out[i] = in[i];\n"
      "}\n";
  cl_program program = clCreateProgramWithSource(target.context, 1, &source, nullptr, &status);
  CHECK(status);
  CHECK(clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr));
  target.empty = clCreateKernel(program, "empty", &status);
  CHECK(status);
  target.copy4 = clCreateKernel(program, "copy4", &status);
  CHECK(status);
  clReleaseProgram(program);
  target.word = clCreateBuffer(target.context, CL_MEM_READ_WRITE, 4, nullptr, &status);
  CHECK(status);
  target.copy_from = clCreateBuffer(target.context, CL_MEM_READ_WRITE, copy_bytes(), nullptr, &status);
  CHECK(status);
  target.copy_to = clCreateBuffer(target.context, CL_MEM_READ_WRITE, copy_bytes(), nullptr, &status);
  CHECK(status);
  const unsigned char pattern = 7;
  CHECK(clEnqueueFillBuffer(target.queue, target.copy_from, &pattern, 1, 0, copy_bytes(), 0, nullptr, nullptr));
  CHECK(clFinish(target.queue));
  CHECK(clSetKernelArg(target.copy4, 0, sizeof(cl_mem), &target.copy_from));
  CHECK(clSetKernelArg(target.copy4, 1, sizeof(cl_mem), &target.copy_to));
  return target;
}

// The CUDA driver's functions the reference needs, declared here so that the probe builds
// without CUDA (types as cuda.h has them; every handle is a pointer).
struct CudaDriver {
  using Result = int;
  Result (*cuInit)(unsigned);
  Result (*cuDeviceGet)(int*, int);
  Result (*cuDevicePrimaryCtxRetain)(void**, int);
  Result (*cuCtxSetCurrent)(void*);
  Result (*cuModuleLoadData)(void**, const void*);
  Result (*cuModuleGetFunction)(void**, void*, const char*);
  Result (*cuStreamCreate)(void**, unsigned);
  Result (*cuLaunchKernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                           void**, void**);
  Result (*cuStreamSynchronize)(void*);
  Result (*cuMemAlloc)(unsigned long long*, size_t);
  Result (*cuMemcpyHtoDAsync)(unsigned long long, const void*, size_t, void*);
  Result (*cuMemcpyDtoHAsync)(void*, unsigned long long, size_t, void*);
  Result (*cuMemcpyDtoDAsync)(unsigned long long, unsigned long long, size_t, void*);
};

#define CU(call)                                                                    \
  do {                                                                              \
    int result_ = (call);                                                           \
    if (result_ != 0) {                                                             \
      std::fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #call, result_); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

// The driver alone, on a stream of the primary context of device 0; an empty kernel with one
// 160-byte parameter, as cucl's kernels take their LaunchContext.
struct CudaTarget {
  CudaDriver cu{};
  void* stream = nullptr;
  void* empty = nullptr;
  void* copy4 = nullptr;
  unsigned long long word = 0;
  unsigned long long copy_from = 0, copy_to = 0;
  alignas(8) unsigned char parameter[160] = {};
  void* parameters[1] = {parameter};

  bool open() {
    void* library = dlopen("libcuda.so.1", RTLD_NOW);
    if (!library) return false;
    const auto get = [&](auto& function, const char* name) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
      if (!function) std::exit(1);
    };
    get(cu.cuInit, "cuInit");
    get(cu.cuDeviceGet, "cuDeviceGet");
    get(cu.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    get(cu.cuCtxSetCurrent, "cuCtxSetCurrent");
    get(cu.cuModuleLoadData, "cuModuleLoadData");
    get(cu.cuModuleGetFunction, "cuModuleGetFunction");
    get(cu.cuStreamCreate, "cuStreamCreate");
    get(cu.cuLaunchKernel, "cuLaunchKernel");
    get(cu.cuStreamSynchronize, "cuStreamSynchronize");
    get(cu.cuMemAlloc, "cuMemAlloc_v2");
    get(cu.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    get(cu.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    get(cu.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
    CU(cu.cuInit(0));
    int device = 0;
    CU(cu.cuDeviceGet(&device, 0));
    void* context = nullptr;
    CU(cu.cuDevicePrimaryCtxRetain(&context, device));
    CU(cu.cuCtxSetCurrent(context));
    const char* ptx =
        ".version 7.0\n.target sm_50\n.address_size 64\n"
        ".visible .entry k(.param .align 8 .b8 p[160]) { ret; }\n"
        ".visible .entry copy4(.param .u64 in, .param .u64 out) {\n"
        "  .reg .b32 %r<4>; .reg .f32 %f<5>; .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
        "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x;\n"
        "  mad.wide.u32 %rd3, %r1, %r2, 0; cvt.u64.u32 %rd4, %r3; add.s64 %rd5, %rd3, %rd4;\n"
        "  shl.b64 %rd5, %rd5, 4; add.s64 %rd6, %rd1, %rd5; add.s64 %rd7, %rd2, %rd5;\n"
        "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd6];\n"
        "  st.global.v4.f32 [%rd7], {%f1, %f2, %f3, %f4};\n"
        "  ret;\n}\n";
    void* module = nullptr;
    CU(cu.cuModuleLoadData(&module, ptx));
    CU(cu.cuModuleGetFunction(&empty, module, "k"));
    CU(cu.cuModuleGetFunction(&copy4, module, "copy4"));
    CU(cu.cuStreamCreate(&stream, 1));  // CU_STREAM_NON_BLOCKING
    CU(cu.cuMemAlloc(&word, 4));
    CU(cu.cuMemAlloc(&copy_from, copy_bytes()));
    CU(cu.cuMemAlloc(&copy_to, copy_bytes()));
    return true;
  }
  void launch() { CU(cu.cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, parameters, nullptr)); }
  void write(const unsigned* value) { CU(cu.cuMemcpyHtoDAsync(word, value, 4, stream)); }
  void read(unsigned* value) {
    CU(cu.cuMemcpyDtoHAsync(value, word, 4, stream));
    finish();
  }
  void copy() { CU(cu.cuMemcpyDtoDAsync(copy_to, copy_from, copy_bytes(), stream)); }
  void copy_kernel() {
    void* arguments[] = {&copy_from, &copy_to};
    const auto blocks = static_cast<unsigned>(copy_bytes() / 16 / 256);
    CU(cu.cuLaunchKernel(copy4, blocks, 1, 1, 256, 1, 1, 0, stream, arguments, nullptr));
  }
  void finish() { CU(cu.cuStreamSynchronize(stream)); }
};

using Clock = std::chrono::steady_clock;

template <class Body>
double us_per_command(int commands, Body body) {
  const auto start = Clock::now();
  body();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / commands;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 30;
  const int n = argc > 2 ? std::atoi(argv[2]) : 2000;
  cl_platform_id platforms[8];
  cl_uint count = 0;
  if (clGetPlatformIDs(8, platforms, &count) != CL_SUCCESS) count = 0;  // the driver alone (CUDA=1)
  std::vector<Target> targets;
  for (cl_uint i = 0; i < count && i < 8; ++i) targets.push_back(open_target(platforms[i], i));
  CudaTarget cuda;
  const char* with_cuda = std::getenv("CUDA");
  if (with_cuda && std::strcmp(with_cuda, "1") == 0) {
    if (cuda.open()) {
      targets.push_back(Target{"cuda"});
    } else {
      std::fprintf(stderr, "platform_ab: no CUDA driver here, so no driver column\n");
    }
  }
  const size_t one = 1;
  constexpr int kCopies = 8;
  unsigned value = 0;
  const char* phases[] = {"launch burst", "launch+finish", "write burst", "write+finish", "launch+read", "copy+finish", "copy4+finish"};
  constexpr int kPhases = 7;
  std::vector<std::vector<double>> times(targets.size() * kPhases);
  for (int round = -2; round < rounds; ++round) {  // two rounds of warm-up
    for (size_t k = 0; k < targets.size(); ++k) {
      const size_t t = (k + static_cast<size_t>(round + 2)) % targets.size();
      Target& target = targets[t];
      const bool driver = !target.queue;
      const auto launch = [&] {
        if (driver) return cuda.launch();
        CHECK(clEnqueueNDRangeKernel(target.queue, target.empty, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
      };
      const auto write = [&] {
        if (driver) return cuda.write(&value);
        CHECK(clEnqueueWriteBuffer(target.queue, target.word, CL_FALSE, 0, 4, &value, 0, nullptr, nullptr));
      };
      const auto finish = [&] {
        if (driver) return cuda.finish();
        CHECK(clFinish(target.queue));
      };
      const auto copy = [&] {
        if (driver) return cuda.copy();
        CHECK(clEnqueueCopyBuffer(target.queue, target.copy_from, target.copy_to, 0, 0, copy_bytes(), 0, nullptr,
                                  nullptr));
      };
      const auto copy_kernel = [&] {
        if (driver) return cuda.copy_kernel();
        const size_t items = copy_bytes() / 16;
        CHECK(clEnqueueNDRangeKernel(target.queue, target.copy4, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
      };
      const auto launch_then_read = [&] {  // a kernel, then a blocking read of its 4-byte result
        launch();
        if (driver) return cuda.read(&value);
        CHECK(clEnqueueReadBuffer(target.queue, target.word, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr));
      };
      // ONLY=<phase number> runs that phase alone (for a sampling profiler); the others read 0.
      const char* only = std::getenv("ONLY");
      const auto runs = [&](int p) { return !only || std::atoi(only) == p; };
      // A burst of n commands then one finish, or n / 4 commands each followed by a finish.
      const auto burst = [&](auto command) {
        return us_per_command(n, [&] {
          for (int i = 0; i < n; ++i) command();
          finish();
        });
      };
      const auto round_trips = [&](auto command) {
        return us_per_command(n / 4, [&] {
          for (int i = 0; i < n / 4; ++i) {
            command();
            finish();
          }
        });
      };
      const double measured[kPhases] = {
          runs(0) ? burst(launch) : 0.0,
          runs(1) ? round_trips(launch) : 0.0,
          runs(2) ? burst(write) : 0.0,
          runs(3) ? round_trips(write) : 0.0,
          runs(4) ? us_per_command(n / 4, [&] {
            for (int i = 0; i < n / 4; ++i) launch_then_read();
          }) : 0.0,
          runs(5) ? us_per_command(kCopies, [&] {
            for (int i = 0; i < kCopies; ++i) {
              copy();
              finish();
            }
          }) : 0.0,
          runs(6) ? us_per_command(kCopies, [&] {
            for (int i = 0; i < kCopies; ++i) {
              copy_kernel();
              finish();
            }
          }) : 0.0,
      };
      if (round < 0) continue;
      for (int p = 0; p < kPhases; ++p) times[t * kPhases + p].push_back(measured[p]);
    }
  }
  std::printf("%-16s", "phase (us)");
  for (const Target& target : targets) std::printf("%22s", target.name.substr(0, 21).c_str());
  std::printf("\n");
  for (int p = 0; p < kPhases; ++p) {
    std::printf("%-16s", phases[p]);
    for (size_t t = 0; t < targets.size(); ++t) {
      std::vector<double> v = times[t * kPhases + p];
      std::sort(v.begin(), v.end());
      std::printf("%22.2f", v[v.size() / 2]);
    }
    std::printf("\n");
  }
  // How often the first platform beat each other one, round by round.
  for (size_t t = 1; t < targets.size(); ++t) {
    std::printf("rounds where %s beat %s:", targets[0].name.c_str(), targets[t].name.c_str());
    for (int p = 0; p < kPhases; ++p) {
      int wins = 0;
      for (int r = 0; r < rounds; ++r) wins += times[p][r] < times[t * kPhases + p][r];
      std::printf(" %s %d/%d;", phases[p], wins, rounds);
    }
    std::printf("\n");
  }
  for (Target& target : targets) {
    if (!target.queue) continue;
    clReleaseMemObject(target.word);
    clReleaseMemObject(target.copy_from);
    clReleaseMemObject(target.copy_to);
    clReleaseKernel(target.empty);
    clReleaseKernel(target.copy4);
    clReleaseCommandQueue(target.queue);
    clReleaseContext(target.context);
  }
  return 0;
}

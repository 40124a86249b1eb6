// CLBlast's SGEMM (C = A * B, n x n, row-major) on the first CPU device (GPU device with
// TYPE=gpu) of the first platform whose name contains $PLATFORM (any platform without it): the first call's time (it builds
// CLBlast's kernels), then the median of five more calls, in ms and GFLOPS, and 32 entries of
// C checked against a double-precision product. With XEON_PARAMS set it gives CLBlast's Xgemm
// the parameters CLBlast's database holds for the H100 machine's Xeon, so that another CPU
// runs the same kernel shapes; XGEMM_PARAMS="0,32,16,..." gives it any configuration, in the
// order clblast_tuner_xgemm prints them. Not part of the build (it needs libclblast-dev):
//   g++ -O2 -std=c++17 tools/probes/clblast_sgemm.cpp -lclblast -lOpenCL -o clblast_sgemm
//   OCL_ICD_VENDORS=build/vendors ./clblast_sgemm 1024
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <clblast_c.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

cl_platform_id chosen_platform() {
  cl_platform_id platforms[8];
  cl_uint count = 0;
  if (clGetPlatformIDs(8, platforms, &count) != CL_SUCCESS) return nullptr;
  const char* wanted = std::getenv("PLATFORM");
  for (cl_uint i = 0; i < count && i < 8; ++i) {
    char name[256] = {};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    if (!wanted || std::strstr(name, wanted)) {
      std::printf("platform %s\n", name);
      return platforms[i];
    }
  }
  return nullptr;
}

// Xgemm's parameters for `device`, in the order CLBlast's database and clblast_tuner_xgemm
// print them: GEMMK MWG NWG KWG MDIMC NDIMC MDIMA NDIMB KWI VWM VWN STRM STRN SA SB KREG.
void override_xgemm(cl_device_id device, const size_t (&tuner_order)[16]) {
  const char* names[] = {"GEMMK", "MWG", "NWG", "KWG", "MDIMC", "NDIMC", "MDIMA", "NDIMB",
                         "KWI",   "VWM", "VWN", "STRM", "STRN", "SA",   "SB",   "KREG"};
  std::printf("override Xgemm: %d\n", static_cast<int>(CLBlastOverrideParameters(device, "Xgemm", CLBlastPrecisionSingle,
                                                                               16, names, tuner_order)));
}

// XGEMM_PARAMS="0,32,16,..." (the tuner's order, above) or XEON_PARAMS (the H100 machine's Xeon's).
void use_chosen_parameters(cl_device_id device) {
  if (const char* chosen = std::getenv("XGEMM_PARAMS")) {
    size_t values[16] = {};
    const char* next = chosen;
    for (size_t& value : values) {
      char* end = nullptr;
      value = std::strtoull(next, &end, 10);
      next = *end == ',' ? end + 1 : end;
    }
    override_xgemm(device, values);
  } else if (std::getenv("XEON_PARAMS")) {
    override_xgemm(device, {0, 64, 64, 32, 16, 8, 16, 8, 2, 4, 4, 0, 0, 0, 0, 1});
  }
}

// Entries of C that differ from the product computed in double precision, of 32 spread ones.
int wrong_entries(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c, size_t n) {
  int wrong = 0;
  for (unsigned probe = 0; probe < 32; ++probe) {
    const size_t i = (probe * 2654435761u) % n, j = (probe * 40503u + 7) % n;
    double want = 0;
    for (size_t k = 0; k < n; ++k) want += static_cast<double>(a[i * n + k]) * b[k * n + j];
    if (std::fabs(c[i * n + j] - want) > 1e-3 * (1 + std::fabs(want))) ++wrong;
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1024;
  cl_platform_id platform = chosen_platform();
  const char* type = std::getenv("TYPE");
  const cl_device_type wanted_type = type && std::strcmp(type, "gpu") == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
  cl_device_id device = nullptr;
  if (!platform || clGetDeviceIDs(platform, wanted_type, 1, &device, nullptr) != CL_SUCCESS) {
    std::printf("no such device\n");
    return 1;
  }
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
  use_chosen_parameters(device);
  std::vector<float> a(n * n), b(n * n), c(n * n, 0.f);
  for (size_t i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(static_cast<int>(i * 7 % 17) - 8) / 8;
    b[i] = static_cast<float>(static_cast<int>(i * 13 % 17) - 8) / 8;
  }
  const size_t bytes = n * n * sizeof(float);
  cl_mem a_buffer = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, bytes, a.data(), &status);
  cl_mem b_buffer = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, bytes, b.data(), &status);
  cl_mem c_buffer = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, bytes, c.data(), &status);
  std::vector<double> seconds;
  for (int call = 0; call < 6; ++call) {
    const auto start = std::chrono::steady_clock::now();
    const CLBlastStatusCode result = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n,
                                                  n, 1.0f, a_buffer, 0, n, b_buffer, 0, n, 0.0f, c_buffer, 0, n, &queue,
                                                  nullptr);
    clFinish(queue);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result != CLBlastSuccess) {
      std::printf("CLBlast status %d\n", static_cast<int>(result));
      return 1;
    }
    if (call == 0) {
      std::printf("first call (builds the kernels) %.1f ms\n", elapsed * 1e3);
    } else {
      seconds.push_back(elapsed);
    }
  }
  clEnqueueReadBuffer(queue, c_buffer, CL_TRUE, 0, bytes, c.data(), 0, nullptr, nullptr);
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("sgemm %zu^3: median %.2f ms, %.1f GFLOPS, %d of 32 probes wrong\n", n, median * 1e3,
              2.0 * n * n * n / median / 1e9, wrong_entries(a, b, c, n));
  for (cl_mem buffer : {a_buffer, b_buffer, c_buffer}) clReleaseMemObject(buffer);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

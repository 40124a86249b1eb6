// Times CLBlast's Xgemm kernel from a PTX file through the CUDA driver alone, so that two
// compilers' PTX for one configuration (cucl's and NVIDIA OpenCL's, the latter from
// program_binary) run under identical launches, buffers and clocks. The kernel's first ten
// parameters are Xgemm's (M, N, K, alpha, beta, A, B, C, b_offset, c_offset); cucl's entries
// take an eleventh, the launch context, passed as zeros (group and global offsets zero).
// Prints the median of 20 launches and a checksum of C. Not part of the build:
//   g++ -O2 tools/probes/xgemm_ptx_time.cpp -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda -o xgemm_ptx_time
//   ./xgemm_ptx_time kernel.ptx M N K GRID_X GRID_Y BLOCK_X BLOCK_Y
#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(call)                                                              \
  do {                                                                           \
    CUresult r = (call);                                                         \
    if (r != CUDA_SUCCESS) {                                                     \
      const char* s = nullptr;                                                   \
      cuGetErrorString(r, &s);                                                   \
      std::fprintf(stderr, "%s failed: %s\n", #call, s ? s : "?");               \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 9) {
    std::fprintf(stderr, "usage: %s kernel.ptx M N K GRID_X GRID_Y BLOCK_X BLOCK_Y\n", argv[0]);
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  std::string ptx = text.str();
  ptx.erase(std::find(ptx.begin(), ptx.end(), '\0'), ptx.end());
  int m = std::atoi(argv[2]), n = std::atoi(argv[3]), k = std::atoi(argv[4]);
  unsigned gx = std::atoi(argv[5]), gy = std::atoi(argv[6]), bx = std::atoi(argv[7]), by = std::atoi(argv[8]);

  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CUmodule module;
  CHECK(cuModuleLoadData(&module, ptx.c_str()));
  CUfunction function;
  CHECK(cuModuleGetFunction(&function, module, "Xgemm"));
  int registers = 0;
  CHECK(cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function));

  std::vector<float> a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n, 0.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7) * 0.25f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(i % 5) * 0.5f;
  CUdeviceptr da, db, dc;
  CHECK(cuMemAlloc(&da, a.size() * 4));
  CHECK(cuMemAlloc(&db, b.size() * 4));
  CHECK(cuMemAlloc(&dc, c.size() * 4));
  CHECK(cuMemcpyHtoD(da, a.data(), a.size() * 4));
  CHECK(cuMemcpyHtoD(db, b.data(), b.size() * 4));

  float alpha = 1.0f, beta = 0.0f;
  int offset = 0;
  alignas(8) char launch_context[160] = {};
  void* params[] = {&m, &n, &k, &alpha, &beta, &da, &db, &dc, &offset, &offset, launch_context};
  CUevent start, stop;
  CHECK(cuEventCreate(&start, 0));
  CHECK(cuEventCreate(&stop, 0));
  std::vector<float> times;
  for (int i = 0; i < 21; ++i) {
    CHECK(cuMemsetD32(dc, 0, c.size()));
    CHECK(cuEventRecord(start, nullptr));
    CHECK(cuLaunchKernel(function, gx, gy, 1, bx, by, 1, 0, nullptr, params, nullptr));
    CHECK(cuEventRecord(stop, nullptr));
    CHECK(cuEventSynchronize(stop));
    float ms = 0;
    CHECK(cuEventElapsedTime(&ms, start, stop));
    if (i > 0) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  CHECK(cuMemcpyDtoH(c.data(), dc, c.size() * 4));
  double sum = 0;
  for (float v : c) sum += v;
  std::printf("%s: %d registers, median %.3f ms (min %.3f), checksum %.6g\n", argv[1], registers,
              times[times.size() / 2], times.front(), sum);
  return 0;
}

// Does the size of a kernel's parameters change what cuLaunchKernel costs the host? The CUDA
// driver API alone: empty kernels taking 0, 8, 64, 160 (cucl's LaunchContext) and 256 bytes of
// parameters, each launched 10000 times back to back (then one cuStreamSynchronize); medians of
// 7 such batches, in microseconds per launch, the sizes interleaved. Not part of the build
// (it links the driver directly); on a machine with CUDA:
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include tools/probes/launch_params.cpp \
//       -L/usr/local/cuda/lib64/stubs -lcuda -o launch_params
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                                 \
  do {                                                                        \
    CUresult r = (x);                                                         \
    if (r) {                                                                  \
      const char* s;                                                          \
      cuGetErrorString(r, &s);                                                \
      std::printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, s);             \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

int main() {
  const int sizes[] = {0, 8, 64, 160, 256};
  std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n";
  for (int size : sizes) {
    ptx += ".visible .entry k" + std::to_string(size) + "(";
    if (size) ptx += ".param .align 8 .b8 p[" + std::to_string(size) + "]";
    ptx += ") { ret; }\n";
  }
  CK(cuInit(0));
  CUdevice device;
  CK(cuDeviceGet(&device, 0));
  CUcontext context;
  CK(cuDevicePrimaryCtxRetain(&context, device));
  CK(cuCtxSetCurrent(context));
  CUmodule module;
  CK(cuModuleLoadData(&module, ptx.c_str()));
  CUstream stream;
  CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  alignas(8) unsigned char bytes[256] = {};
  void* one_parameter[] = {bytes};
  constexpr int kLaunches = 10000, kBatches = 7;
  std::vector<std::vector<double>> times(std::size(sizes));
  for (int batch = 0; batch < kBatches + 1; ++batch) {
    for (size_t s = 0; s < std::size(sizes); ++s) {
      CUfunction function;
      CK(cuModuleGetFunction(&function, module, ("k" + std::to_string(sizes[s])).c_str()));
      void** parameters = sizes[s] ? one_parameter : nullptr;
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < kLaunches; ++i) CK(cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, parameters, nullptr));
      CK(cuStreamSynchronize(stream));
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
      if (batch) times[s].push_back(us / kLaunches);  // the first batch warms up
    }
  }
  for (size_t s = 0; s < std::size(sizes); ++s) {
    std::sort(times[s].begin(), times[s].end());
    std::printf("params %3d bytes: %.3f us per launch (median of %d)\n", sizes[s], times[s][kBatches / 2], kBatches);
  }
  return 0;
}

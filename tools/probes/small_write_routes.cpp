// What a small host-to-device write costs by each route the driver offers: cuMemcpyHtoDAsync
// from pageable memory (4, 16, 64 bytes), cuStreamWriteValue32/64 and cuMemsetD32Async of the
// value, as a burst of 2000 + cuStreamSynchronize and as one write + cuStreamSynchronize
// (per-call medians of 21), each checked by reading the bytes back; and one
// cuPointerGetAttribute on a pageable address, the price of learning that the driver would read
// the source at once (a memset of the value reads it at once too). Two rounds.
// Not part of the build (it links the driver directly); on a machine with CUDA:
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include tools/probes/small_write_routes.cpp \
//       -L/usr/local/cuda/lib64/stubs -lcuda -o small_write_routes
#include <cuda.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { std::printf("%s -> %d\n", #x, r_); std::exit(1);} } while (0)
int main() {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  int a1 = 0, a2 = 0, a3 = 0;
  cuDeviceGetAttribute(&a1, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, dev);
  cuDeviceGetAttribute(&a2, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1, dev);
  cuDeviceGetAttribute(&a3, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1, dev);
  std::printf("mem ops %d, 64-bit %d, wait nor %d\n", a1, a2, a3);
  CUstream s; CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUdeviceptr buf; CK(cuMemAlloc(&buf, 4096));
  static unsigned pattern[16] = {0x5a5a5a5a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  struct Route { const char* name; int words; int kind; };
  std::vector<Route> routes = {
    {"HtoDAsync pageable 4 B", 1, 0}, {"HtoDAsync pageable 16 B", 4, 0}, {"HtoDAsync pageable 64 B", 16, 0},
    {"WriteValue32 4 B", 1, 1}, {"WriteValue64 8 B", 2, 2}, {"MemsetD32Async 4 B", 1, 3},
  };
  auto issue = [&](const Route& r) {
    switch (r.kind) {
      case 0: return cuMemcpyHtoDAsync(buf, pattern, 4 * r.words, s);
      case 1: return cuStreamWriteValue32(s, buf, pattern[0], 0);
      case 2: { unsigned long long v; std::memcpy(&v, pattern, 8); return cuStreamWriteValue64(s, buf, v, 0); }
      default: return cuMemsetD32Async(buf, pattern[0], 1, s);
    }
  };
  {
    std::vector<double> t;
    for (int rep = 0; rep < 21; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      unsigned type = 0; int known = 0;
      for (int i = 0; i < 2000; ++i) known += cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)&pattern[0]) == CUDA_SUCCESS;
      t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 2000);
      if (rep == 0) std::printf("pageable pointer known to the driver: %d of 2000\n", known);
    }
    std::sort(t.begin(), t.end());
    std::printf("cuPointerGetAttribute %.3f us\n", t[10]);
  }
  for (int round = 0; round < 2; ++round) {
    for (const Route& r : routes) {
      CK(cuMemsetD32Async(buf, 0, 16, s)); CK(cuStreamSynchronize(s));
      CUresult first = issue(r);
      CK(cuStreamSynchronize(s));
      unsigned back[16] = {};
      CK(cuMemcpyDtoH(back, buf, 64));
      const bool right = first == CUDA_SUCCESS && std::memcmp(back, pattern, 4 * r.words) == 0;
      std::vector<double> burst, trip;
      for (int rep = 0; rep < 21; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 2000; ++i) CK(issue(r));
        CK(cuStreamSynchronize(s));
        burst.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 2000);
        t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 200; ++i) { CK(issue(r)); CK(cuStreamSynchronize(s)); }
        trip.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 200);
      }
      std::sort(burst.begin(), burst.end()); std::sort(trip.begin(), trip.end());
      std::printf("%-28s burst %.3f us  write+sync %.3f us  %s\n", r.name, burst[10], trip[10], right ? "right" : "WRONG");
    }
  }
  return 0;
}

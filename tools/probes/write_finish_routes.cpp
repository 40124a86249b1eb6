// What a 4-byte host-to-device write followed by a wait for it costs at the driver, by where the
// bytes come from and how the end is seen: cuMemcpyHtoDAsync from pageable memory (the driver
// stages it) or from a page-locked slot the caller copied the bytes into; the end seen by
// cuStreamSynchronize, by polling cuStreamQuery, or by watching a page-locked word that a
// cuStreamWriteValue32 behind the write raises (with and without one cuStreamQuery first); and
// the burst cost of each source. Per-trip medians of 21 x 200 trips, two rounds; each route's
// bytes are checked. cucl-bench's driver column is "pageable + sync". Not part of the build:
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include tools/probes/write_finish_routes.cpp \
//       -L/usr/local/cuda/lib64/stubs -lcuda -o write_finish_routes
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#define CK(x)                                              \
  do {                                                     \
    CUresult r_ = (x);                                     \
    if (r_ != CUDA_SUCCESS) {                              \
      std::printf("%s -> %d\n", #x, static_cast<int>(r_)); \
      std::exit(1);                                        \
    }                                                      \
  } while (0)

namespace {

double per_call_us(const std::function<void()>& body, int calls) {
  std::vector<double> runs;
  for (int rep = 0; rep < 21; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) body();
    runs.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls);
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

inline void relax() { __builtin_ia32_pause(); }

}  // namespace

int main() {
  CK(cuInit(0));
  CUdevice device;
  CK(cuDeviceGet(&device, 0));
  CUcontext context;
  CK(cuDevicePrimaryCtxRetain(&context, device));
  CK(cuCtxSetCurrent(context));
  CUstream stream;
  CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr target;
  CK(cuMemAlloc(&target, 4096));
  static unsigned pageable[16];
  unsigned* slots = nullptr;  // a ring of page-locked slots, one per trip in flight
  CK(cuMemHostAlloc(reinterpret_cast<void**>(&slots), 4096, CU_MEMHOSTALLOC_PORTABLE));
  volatile unsigned* word = nullptr;
  CK(cuMemHostAlloc((void**)&word, 64, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  CUdeviceptr device_word;
  CK(cuMemHostGetDevicePointer(&device_word, (void*)word, 0));
  unsigned value = 0, ring = 0, raised = 0;

  const auto from_pageable = [&] {
    pageable[0] = ++value;
    CK(cuMemcpyHtoDAsync(target, pageable, 4, stream));
  };
  const auto from_slot = [&] {
    unsigned* slot = slots + (ring++ % 1024);
    const unsigned v = ++value;
    std::memcpy(slot, &v, 4);
    CK(cuMemcpyHtoDAsync(target, slot, 4, stream));
  };
  const auto sync = [&] { CK(cuStreamSynchronize(stream)); };
  const auto poll = [&] {
    CUresult result;
    while ((result = cuStreamQuery(stream)) == CUDA_ERROR_NOT_READY) relax();
    CK(result);
  };
  const auto watch_word = [&] {
    const unsigned want = ++raised;
    CK(cuStreamWriteValue32(stream, device_word, want, 0));
    while (*word != want) relax();
  };
  const auto query_then_watch = [&] {
    if (cuStreamQuery(stream) == CUDA_SUCCESS) return;
    watch_word();
  };
  struct Route {
    const char* name;
    std::function<void()> write, wait;
  };
  const std::vector<Route> routes = {
      {"pageable + sync", from_pageable, sync},
      {"pageable + poll query", from_pageable, poll},
      {"pageable + word", from_pageable, watch_word},
      {"pageable + query, word", from_pageable, query_then_watch},
      {"slot + sync", from_slot, sync},
      {"slot + poll query", from_slot, poll},
      {"slot + word", from_slot, watch_word},
      {"slot + query, word", from_slot, query_then_watch},
  };
  for (int round = 0; round < 2; ++round) {
    for (const Route& route : routes) {
      route.write();
      route.wait();
      unsigned back = 0;
      CK(cuMemcpyDtoH(&back, target, 4));
      const bool right = back == value;
      const double trip = per_call_us([&] { route.write(); route.wait(); }, 200);
      std::printf("%-26s write+wait %6.2f us  %s\n", route.name, trip, right ? "right" : "WRONG");
    }
    for (const auto& [name, write] : {std::pair<const char*, std::function<void()>>{"pageable", from_pageable},
                                      {"slot", from_slot}}) {
      const double burst = per_call_us(write, 1000);
      sync();
      std::printf("%-26s burst      %6.2f us\n", name, burst);
    }
    std::printf("cuStreamQuery, idle       %6.2f us\n", per_call_us([&] { (void)cuStreamQuery(stream); }, 1000));
    std::printf("cuStreamWriteValue32      %6.2f us\n",
                per_call_us([&] { CK(cuStreamWriteValue32(stream, device_word, ++raised, 0)); }, 1000));
    sync();
  }
  CK(cuMemFreeHost((void*)word));
  CK(cuMemFreeHost(slots));
  return 0;
}

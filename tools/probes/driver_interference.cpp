// Does a second thread slow the driver's small cuMemcpyHtoDAsync from pageable memory? A
// burst of 2000 4-byte writes + cuStreamSynchronize (per-call median of 21), alone and while a
// helper thread pause-spins, reads the clock, reads a cache line the writer changes on every
// call, polls cuEventQuery on a finished event, sleeps in 50 us steps or yields: which of a
// completion thread's habits cost its submitter (backends/cuda/cuda_completion.h). Three rounds.
// Not part of the build (it links the driver directly); on a machine with CUDA:
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include tools/probes/driver_interference.cpp \
//       -L/usr/local/cuda/lib64/stubs -lcuda -lpthread -o driver_interference
#include <cuda.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>
#include <vector>
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { std::printf("%s -> %d\n", #x, r_); std::exit(1);} } while (0)
static inline void relax() { __builtin_ia32_pause(); }
int main() {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUstream s; CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUdeviceptr word; CK(cuMemAlloc(&word, 4));
  CUevent done_event; CK(cuEventCreate(&done_event, CU_EVENT_DISABLE_TIMING)); CK(cuEventRecord(done_event, s));
  CK(cuStreamSynchronize(s));
  static unsigned pattern = 0x5a5a5a5a;
  alignas(64) static std::atomic<unsigned long> shared{0};
  auto measure = [&](int mode) {
    std::atomic<bool> stop{false};
    std::thread helper;
    if (mode) helper = std::thread([&] {
      CK(cuCtxSetCurrent(ctx));
      unsigned long seen = 0, n = 0;
      timespec t;
      while (!stop.load(std::memory_order_relaxed)) {
        switch (mode) {
          case 1: relax(); break;
          case 2: relax(); clock_gettime(CLOCK_MONOTONIC, &t); break;
          case 3: relax(); seen += shared.load(std::memory_order_acquire); break;
          case 4: cuEventQuery(done_event); break;
          case 5: { timespec d{0, 50000}; nanosleep(&d, nullptr); break; }
          case 6: std::this_thread::yield(); break;
        }
        ++n;
      }
      (void)seen;
    });
    std::vector<double> v;
    for (int r = 0; r < 21; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 2000; ++i) {
        CK(cuMemcpyHtoDAsync(word, &pattern, 4, s));
        if (mode == 3) shared.fetch_add(1, std::memory_order_release);
      }
      CK(cuStreamSynchronize(s));
      v.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 2000);
    }
    stop = true;
    if (helper.joinable()) helper.join();
    std::sort(v.begin(), v.end());
    return v[10];
  };
  const char* names[] = {"alone", "helper pause-spins", "helper pause+clock_gettime", "helper reads a line written per call",
                         "helper polls cuEventQuery", "helper nanosleep(50us) loop", "helper sched_yield loop"};
  for (int round = 0; round < 3; ++round)
    for (int mode = 0; mode < 7; ++mode) std::printf("%-40s %.3f us\n", names[mode], measure(mode));
  return 0;
}

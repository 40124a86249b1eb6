// How soon can a thread other than the submitter see a stream's work end? The CUDA driver
// API alone, on an empty kernel: the submitter's own cuStreamSynchronize or polling, against a
// second thread polling cuStreamQuery (with or without one query of the submitter's first),
// polling an event the submitter recorded, sleeping in cuStreamSynchronize, or watching a word
// that the stream writes (cuStreamWriteValue32); and the submitter polling the stream itself and
// handing the end to a second thread and back, as a waiter's look and cucl's completion thread
// do (backends/cuda/cuda_completion.h). Medians of 3000, in microseconds, two rounds.
// Not part of the build (it links the driver directly); on a machine with CUDA:
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include tools/probes/stream_handoff.cpp \
//       -L/usr/local/cuda/lib64/stubs -lcuda -lpthread -o stream_handoff
#include <cuda.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
#include <immintrin.h>
#define CK(x) do { CUresult r = (x); if (r) { const char* s; cuGetErrorString(r, &s); std::printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, s); std::exit(1); } } while (0)
static inline double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static const char* kPtx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry empty() { ret; }\n";
static CUfunction fn; static CUstream s; static CUcontext ctx;
static void launch() { CK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, s, nullptr, nullptr)); }
template <class F> static double median_us(F&& body, int reps = 3000) {
  std::vector<double> t(reps);
  for (int i = 0; i < 200; ++i) body();
  for (int i = 0; i < reps; ++i) { double a = now_us(); body(); t[i] = now_us() - a; }
  std::sort(t.begin(), t.end()); return t[reps / 2];
}
std::atomic<long> queries{0};
// The submitter launches, runs `after_launch`, and hands the work to a helper thread, which runs
// `wait` (until the stream's work has passed a point it knows) and hands it back: the median
// round trip in microseconds; `iterations` is how many there were, warm-up included.
template <class AfterLaunch, class Wait>
static double handoff_us(AfterLaunch after_launch, Wait wait, int* iterations = nullptr) {
  std::atomic<int> work{0}, done{0};
  std::atomic<bool> quit{false};
  std::thread helper([&] {
    CK(cuCtxSetCurrent(ctx)); int seen = 0;
    while (!quit.load(std::memory_order_relaxed)) {
      int w = work.load(std::memory_order_acquire);
      if (w == seen) { _mm_pause(); continue; }
      wait();
      seen = w; done.store(w, std::memory_order_release);
    }
  });
  int n = 0;
  const double t = median_us([&] {
    launch(); after_launch();
    work.store(++n, std::memory_order_release);
    while (done.load(std::memory_order_acquire) != n) _mm_pause();
  });
  quit = true; helper.join();
  if (iterations) *iterations = n;
  return t;
}
int main() {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  unsigned flags; int active; CK(cuDevicePrimaryCtxGetState(dev, &flags, &active)); std::printf("ctx flags %u\n", flags);
  CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUmodule m; CK(cuModuleLoadData(&m, kPtx)); CK(cuModuleGetFunction(&fn, m, "empty"));
  CUevent ev; CK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
  for (int round = 0; round < 2; ++round) {
  std::printf("launch only            %.2f us\n", median_us([] { launch(); }, 3000)); CK(cuStreamSynchronize(s));
  std::printf("launch+StreamSync      %.2f us\n", median_us([] { launch(); CK(cuStreamSynchronize(s)); }));
  std::printf("launch+spin StreamQuery %.2f us\n", median_us([] { launch(); while (cuStreamQuery(s) == CUDA_ERROR_NOT_READY) {} }));
  std::printf("launch+rec+spin EventQuery %.2f us\n", median_us([&] { launch(); CK(cuEventRecord(ev, s)); while (cuEventQuery(ev) == CUDA_ERROR_NOT_READY) {} }));
  std::printf("EventRecord alone      %.2f us\n", median_us([&] { CK(cuEventRecord(ev, s)); })); CK(cuStreamSynchronize(s));
  std::printf("launch+rec issue       %.2f us\n", median_us([&] { launch(); CK(cuEventRecord(ev, s)); })); CK(cuStreamSynchronize(s));
  std::printf("idle StreamQuery       %.3f us\n", median_us([] { cuStreamQuery(s); }) );
  std::printf("idle EventQuery        %.3f us\n", median_us([&] { cuEventQuery(ev); }) );
  const auto poll_stream = [] { while (cuStreamQuery(s) == CUDA_ERROR_NOT_READY) queries.fetch_add(1, std::memory_order_relaxed); };
  const auto nothing = [] {};
  // a helper thread polls the stream, the submitter waits on an atomic
  int n = 0; queries = 0;
  double t = handoff_us(nothing, poll_stream, &n);
  std::printf("launch+handoff(StreamQuery thread) %.2f us (queries/iter %.1f)\n", t, double(queries) / n);
  // the same, with one cuStreamQuery by the launching thread before it hands off (does a
  // query of the launching thread get the launch to the GPU sooner?)
  queries = 0;
  t = handoff_us([] { (void)cuStreamQuery(s); }, poll_stream, &n);
  std::printf("launch+own query+handoff(StreamQuery thread) %.2f us (queries/iter %.1f)\n", t, double(queries) / n);
  // the launching thread watches the stream itself and tells a helper, which hands the end
  // back (a waiter that sees the end, and a finishing thread that reports it)
  t = handoff_us([] { while (cuStreamQuery(s) == CUDA_ERROR_NOT_READY) {} }, nothing);
  std::printf("launch+own StreamQuery+round trip to a helper %.2f us\n", t);
  // the submitter records an event after its launch; a helper thread polls the event
  t = handoff_us([&] { CK(cuEventRecord(ev, s)); }, [&] { while (cuEventQuery(ev) == CUDA_ERROR_NOT_READY) {} });
  std::printf("launch+rec+handoff(EventQuery thread) %.2f us\n", t);
  t = handoff_us(nothing, [] { CK(cuStreamSynchronize(s)); });
  std::printf("launch+handoff(StreamSync thread) %.2f us\n", t);
  {
    volatile unsigned* word; CK(cuMemHostAlloc((void**)&word, 64, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    CUdeviceptr dword; CK(cuMemHostGetDevicePointer(&dword, (void*)word, 0));
    unsigned seq = 0;
    std::printf("WriteValue32 alone     %.2f us\n", median_us([&] { CK(cuStreamWriteValue32(s, dword, ++seq, 0)); })); CK(cuStreamSynchronize(s));
    std::printf("launch+WriteValue32 issue %.2f us\n", median_us([&] { launch(); CK(cuStreamWriteValue32(s, dword, ++seq, 0)); })); CK(cuStreamSynchronize(s));
    std::printf("launch+WriteValue+spin word %.2f us\n", median_us([&] { launch(); CK(cuStreamWriteValue32(s, dword, ++seq, 0)); while (*word != seq) _mm_pause(); }));
    // the helper raises the word behind the launch and watches it
    t = handoff_us(nothing, [&] {
      unsigned want = ++seq; CK(cuStreamWriteValue32(s, dword, want, 0));
      while (*word != want) _mm_pause();
    });
    std::printf("launch+handoff(WriteValue thread) %.2f us\n", t);
    CK(cuMemFreeHost((void*)word));
  }
  }
  return 0;
}

// What makes cuLaunchKernel dearer inside cucl than in a bare loop? A sampling profile
// (pc_sampler.cpp) of cucl-bench's launch burst put ~1 us more per launch in libcuda than the
// driver's own loop spends there. The CUDA driver API alone: bursts of 20000 launches of an
// empty kernel with a 160-byte parameter (cucl's LaunchContext) then cuStreamSynchronize, in
// microseconds per launch (the whole burst, and the time inside cuLaunchKernel alone), medians
// of 7 bursts, the conditions interleaved:
//   plain            the bare loop
//   +getcurrent      cuCtxGetCurrent before each launch (cucl's make_current)
//   +host 1.5us      1.5 us of host work between launches (cucl's own share of a launch)
//   +spinner         a second thread spinning on a clock and a line the launcher writes
//   +eventpoll       a second thread polling cuEventQuery on an event recorded long ago
//   +record 200us    a second thread recording an event on the stream every 200 us and
//                    polling it until it has passed (cucl's completion thread in a burst)
// Not part of the build (it links the driver directly); on a machine with CUDA:
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include tools/probes/launch_spacing.cpp \
//       -L/usr/local/cuda/lib64/stubs -lcuda -lpthread -o launch_spacing
#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#define CK(x)                                                     \
  do {                                                            \
    CUresult r_ = (x);                                            \
    if (r_ != CUDA_SUCCESS) {                                     \
      std::printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, r_); \
      std::exit(1);                                               \
    }                                                             \
  } while (0)

namespace {

using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

void host_work(double us) {
  const auto end = Clock::now() + std::chrono::nanoseconds(static_cast<int64_t>(us * 1000));
  while (Clock::now() < end) {
  }
}

enum Condition { kPlain, kGetCurrent, kHostWork, kSpinner, kEventPoll, kRecord, kConditions };
const char* kNames[] = {"plain", "+getcurrent", "+host 1.5us", "+spinner", "+eventpoll", "+record 200us"};

}  // namespace

int main() {
  CK(cuInit(0));
  CUdevice device;
  CK(cuDeviceGet(&device, 0));
  CUcontext context;
  CK(cuDevicePrimaryCtxRetain(&context, device));
  CK(cuCtxSetCurrent(context));
  const char* ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k(.param .align 8 .b8 p[160]) { ret; }\n";
  CUmodule module;
  CK(cuModuleLoadData(&module, ptx));
  CUfunction function;
  CK(cuModuleGetFunction(&function, module, "k"));
  CUstream stream;
  CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUevent old_event, record_event;
  CK(cuEventCreate(&old_event, CU_EVENT_DISABLE_TIMING));
  CK(cuEventCreate(&record_event, CU_EVENT_DISABLE_TIMING));
  CK(cuEventRecord(old_event, stream));
  CK(cuStreamSynchronize(stream));
  alignas(8) unsigned char bytes[160] = {};
  void* parameters[] = {bytes};
  alignas(64) static std::atomic<unsigned long> launched{0};

  constexpr int kLaunches = 20000, kBursts = 7;
  std::vector<double> whole[kConditions], inside[kConditions];
  for (int burst = 0; burst <= kBursts; ++burst) {
    for (int condition = 0; condition < kConditions; ++condition) {
      std::atomic<bool> stop{false};
      std::thread helper;
      if (condition >= kSpinner) {
        helper = std::thread([&, condition] {
          CK(cuCtxSetCurrent(context));
          unsigned long seen = 0;
          auto next_record = Clock::now();
          while (!stop.load(std::memory_order_relaxed)) {
            if (condition == kSpinner) {
              seen += launched.load(std::memory_order_acquire);
              (void)Clock::now();
            } else if (condition == kEventPoll) {
              cuEventQuery(old_event);
            } else if (Clock::now() >= next_record) {
              CK(cuEventRecord(record_event, stream));
              while (cuEventQuery(record_event) == CUDA_ERROR_NOT_READY && !stop.load(std::memory_order_relaxed)) {
              }
              next_record = Clock::now() + std::chrono::microseconds(200);
            }
          }
          if (seen == 1) std::printf(" ");
        });
      }
      double in_launch = 0;
      const auto start = Clock::now();
      for (int i = 0; i < kLaunches; ++i) {
        if (condition == kGetCurrent) {
          CUcontext current;
          CK(cuCtxGetCurrent(&current));
        }
        if (condition == kHostWork) host_work(1.5);
        const auto before = Clock::now();
        CK(cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, parameters, nullptr));
        in_launch += us_since(before);
        launched.fetch_add(1, std::memory_order_release);
      }
      CK(cuStreamSynchronize(stream));
      const double total = us_since(start);
      stop = true;
      if (helper.joinable()) helper.join();
      if (burst == 0) continue;  // warm-up
      whole[condition].push_back(total / kLaunches);
      inside[condition].push_back(in_launch / kLaunches);
    }
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  for (int condition = 0; condition < kConditions; ++condition) {
    std::printf("%-15s whole %.3f us per launch, inside cuLaunchKernel %.3f us\n", kNames[condition],
                median(whole[condition]), median(inside[condition]));
  }
  return 0;
}

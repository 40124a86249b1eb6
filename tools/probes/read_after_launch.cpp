// What an empty kernel followed by a blocking 4-byte read costs at the driver, by the ways a
// runtime may wait before, during and after the read: cuMemcpyDtoHAsync into pageable memory
// straight behind the launch (the driver waits for the kernel; cucl-bench's driver column), or
// after the stream was seen idle by polling cuStreamQuery or a recorded event, or after
// cuStreamSynchronize; then the read's end seen by cuStreamSynchronize or by polling
// cuStreamQuery; and the same into page-locked memory. Per-trip medians of 21 x 200 trips, two
// rounds; each result is checked. Not part of the build (it links the driver directly):
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include tools/probes/read_after_launch.cpp \
//       -L/usr/local/cuda/lib64/stubs -lcuda -o read_after_launch
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

// One kernel that writes its argument to out[0].
constexpr const char* kPtx = R"(
.version 7.8
.target sm_90
.address_size 64
.visible .entry put(.param .u64 out, .param .u32 value) {
  .reg .b64 %a; .reg .b32 %v;
  ld.param.u64 %a, [out];
  ld.param.u32 %v, [value];
  cvta.to.global.u64 %a, %a;
  st.global.u32 [%a], %v;
  ret;
}
)";

void poll_stream(CUstream stream) {
  CUresult result;
  while ((result = cuStreamQuery(stream)) == CUDA_ERROR_NOT_READY) {
  }
  CK(result);
}

}  // namespace

int main() {
  CK(cuInit(0));
  CUdevice device;
  CK(cuDeviceGet(&device, 0));
  CUcontext context;
  CK(cuDevicePrimaryCtxRetain(&context, device));
  CK(cuCtxSetCurrent(context));
  CUmodule module;
  CK(cuModuleLoadData(&module, kPtx));
  CUfunction put;
  CK(cuModuleGetFunction(&put, module, "put"));
  CUstream stream;
  CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr word;
  CK(cuMemAlloc(&word, 4));
  CUevent event;
  CK(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  unsigned* pinned = nullptr;
  CK(cuMemHostAlloc(reinterpret_cast<void**>(&pinned), 4, 0));
  unsigned pageable = 0;
  unsigned value = 0;

  auto launch = [&] {
    ++value;
    void* args[] = {&word, &value};
    CK(cuLaunchKernel(put, 1, 1, 1, 1, 1, 1, 0, stream, args, nullptr));
  };
  struct Way {
    const char* name;
    std::function<void()> trip;
    unsigned* destination;
  };
  const std::vector<Way> ways = {
      {"read behind the launch, sync", [&] { launch(); CK(cuMemcpyDtoHAsync(&pageable, word, 4, stream)); CK(cuStreamSynchronize(stream)); }, &pageable},
      {"read behind the launch, poll stream", [&] { launch(); CK(cuMemcpyDtoHAsync(&pageable, word, 4, stream)); poll_stream(stream); }, &pageable},
      {"poll stream, read, sync", [&] { launch(); poll_stream(stream); CK(cuMemcpyDtoHAsync(&pageable, word, 4, stream)); CK(cuStreamSynchronize(stream)); }, &pageable},
      {"poll stream, read, poll stream", [&] { launch(); poll_stream(stream); CK(cuMemcpyDtoHAsync(&pageable, word, 4, stream)); poll_stream(stream); }, &pageable},
      {"poll event, read, sync", [&] {
         launch(); CK(cuEventRecord(event, stream));
         while (cuEventQuery(event) == CUDA_ERROR_NOT_READY) {}
         CK(cuMemcpyDtoHAsync(&pageable, word, 4, stream)); CK(cuStreamSynchronize(stream)); }, &pageable},
      {"sync, read, sync", [&] { launch(); CK(cuStreamSynchronize(stream)); CK(cuMemcpyDtoHAsync(&pageable, word, 4, stream)); CK(cuStreamSynchronize(stream)); }, &pageable},
      {"pinned: read behind the launch, sync", [&] { launch(); CK(cuMemcpyDtoHAsync(pinned, word, 4, stream)); CK(cuStreamSynchronize(stream)); }, pinned},
      {"pinned: read behind, poll stream", [&] { launch(); CK(cuMemcpyDtoHAsync(pinned, word, 4, stream)); poll_stream(stream); }, pinned},
      {"launch, sync (no read)", [&] { launch(); CK(cuStreamSynchronize(stream)); }, nullptr},
  };
  for (int round = 0; round < 2; ++round) {
    for (const Way& way : ways) {
      way.trip();
      const bool right = !way.destination || *way.destination == value;
      std::vector<double> trips;
      for (int rep = 0; rep < 21; ++rep) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < 200; ++i) way.trip();
        trips.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / 200);
      }
      std::sort(trips.begin(), trips.end());
      std::printf("%-40s %7.2f us (%.2f-%.2f)  %s\n", way.name, trips[10], trips[0], trips[20], right ? "right" : "WRONG");
    }
  }
  return 0;
}

#include "cuda_driver_reference.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <type_traits>
#include <stdexcept>
#include <utility>
#include <string>
#include <vector>

namespace bench {
namespace {

// An empty kernel and a float4 copy, in the oldest PTX every CUDA 12+ driver reads.
constexpr const char* kPtx = R"PTX(
.version 7.0
.target sm_50
.address_size 64
.visible .entry empty() { ret; }
.visible .entry copy4(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<4>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.wide.u32 %rd3, %r1, %r2, 0;
  cvt.u64.u32 %rd4, %r3;
  add.s64 %rd5, %rd3, %rd4;
  shl.b64 %rd5, %rd5, 4;
  add.s64 %rd6, %rd1, %rd5;
  add.s64 %rd7, %rd2, %rd5;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd6];
  st.global.v4.f32 [%rd7], {%f1, %f2, %f3, %f4};
  ret;
}
)PTX";

// The driver entry points used here, looked up by their exported (versioned) names.
struct Driver {
  void* library = nullptr;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceCanAccessPeer)(int*, CUdevice, CUdevice);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxEnablePeerAccess)(CUcontext, unsigned);
  CUresult (*cuStreamCreate)(CUstream*, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyPeerAsync)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t, CUstream);
  CUresult (*cuMemHostAlloc)(void**, size_t, unsigned);
  CUresult (*cuMemFreeHost)(void*);
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void**, void**);
  CUresult (*cuStreamBeginCapture)(CUstream, CUstreamCaptureMode);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph*);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec*, CUgraph, unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
  CUresult (*cuGraphGetNodes)(CUgraph, CUgraphNode*, size_t*);
  CUresult (*cuGraphKernelNodeGetParams)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS*);
  CUresult (*cuGraphExecKernelNodeSetParams)(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*);

  // False when there is no driver or a symbol is missing.
  bool load() {
    library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return false;
    bool complete = true;
    auto find = [&](auto& entry, const char* name) {
      entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(dlsym(library, name));
      complete = complete && entry != nullptr;
    };
    find(cuInit, "cuInit");
    find(cuDeviceGet, "cuDeviceGet");
    find(cuDeviceGetCount, "cuDeviceGetCount");
    find(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer");
    find(cuDeviceGetName, "cuDeviceGetName");
    find(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    find(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    find(cuCtxSetCurrent, "cuCtxSetCurrent");
    find(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess");
    find(cuStreamCreate, "cuStreamCreate");
    find(cuStreamDestroy, "cuStreamDestroy_v2");
    find(cuStreamSynchronize, "cuStreamSynchronize");
    find(cuStreamWaitEvent, "cuStreamWaitEvent");
    find(cuEventCreate, "cuEventCreate");
    find(cuEventDestroy, "cuEventDestroy_v2");
    find(cuEventRecord, "cuEventRecord");
    find(cuMemAlloc, "cuMemAlloc_v2");
    find(cuMemFree, "cuMemFree_v2");
    find(cuMemsetD32Async, "cuMemsetD32Async");
    find(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    find(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    find(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    find(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    find(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
    find(cuMemcpyPeerAsync, "cuMemcpyPeerAsync");
    find(cuMemHostAlloc, "cuMemHostAlloc");
    find(cuMemFreeHost, "cuMemFreeHost");
    find(cuModuleLoadData, "cuModuleLoadData");
    find(cuModuleUnload, "cuModuleUnload");
    find(cuModuleGetFunction, "cuModuleGetFunction");
    find(cuLaunchKernel, "cuLaunchKernel");
    find(cuStreamBeginCapture, "cuStreamBeginCapture_v2");
    find(cuStreamEndCapture, "cuStreamEndCapture");
    find(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
    find(cuGraphLaunch, "cuGraphLaunch");
    find(cuGraphExecDestroy, "cuGraphExecDestroy");
    find(cuGraphDestroy, "cuGraphDestroy");
    find(cuGraphGetNodes, "cuGraphGetNodes");
    find(cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams_v2");
    find(cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams_v2");
    return complete;
  }
  ~Driver() {
    if (library) dlclose(library);
  }
};

void check(CUresult result, const char* call) {
  if (result != CUDA_SUCCESS) throw std::runtime_error(std::string(call) + " failed: CUDA error " + std::to_string(result));
}
#define BENCH_CU(call) check(driver.call, #call)

// A device's primary context, made current on this thread, with one non-blocking stream.
class CudaSession {
 public:
  explicit CudaSession(const Driver& d, int ordinal = 0) : driver(d) {
    BENCH_CU(cuDeviceGet(&device, ordinal));
    BENCH_CU(cuDevicePrimaryCtxRetain(&context, device));
    BENCH_CU(cuCtxSetCurrent(context));
    BENCH_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  }
  ~CudaSession() {
    driver.cuStreamDestroy(stream);
    driver.cuDevicePrimaryCtxRelease(device);
  }
  CudaSession(const CudaSession&) = delete;
  CudaSession& operator=(const CudaSession&) = delete;

  const Driver& driver;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
};

// A module unloaded on scope exit.
class Module {
 public:
  Module(const Driver& d, const char* image) : driver(d) { BENCH_CU(cuModuleLoadData(&module, image)); }
  ~Module() { driver.cuModuleUnload(module); }
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  CUfunction function(const char* name) const {
    CUfunction function = nullptr;
    BENCH_CU(cuModuleGetFunction(&function, module, name));
    return function;
  }
  const Driver& driver;
  CUmodule module = nullptr;
};

// An event without timing, made in the current context, destroyed on scope exit.
class Event {
 public:
  explicit Event(const Driver& d) : driver(d) { BENCH_CU(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING)); }
  ~Event() { driver.cuEventDestroy(event); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  const Driver& driver;
  CUevent event = nullptr;
};

// Device memory freed on scope exit.
class DeviceMemory {
 public:
  DeviceMemory(const Driver& d, size_t bytes) : driver(d) { BENCH_CU(cuMemAlloc(&pointer, bytes)); }
  ~DeviceMemory() { driver.cuMemFree(pointer); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  const Driver& driver;
  CUdeviceptr pointer = 0;
};

constexpr int kChainLinks = 200;  // the two-GPU dependency rows

// `launches` one-thread launches of `kernel` captured on `stream` into a graph and
// instantiated, with the graph's kernel nodes; both destroyed on scope exit.
class CapturedLaunches {
 public:
  CapturedLaunches(const Driver& d, CUstream stream, CUfunction kernel, int launches) : driver(d) {
    BENCH_CU(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    for (int i = 0; i < launches; ++i) BENCH_CU(cuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr));
    BENCH_CU(cuStreamEndCapture(stream, &graph));
    size_t count = 0;
    BENCH_CU(cuGraphGetNodes(graph, nullptr, &count));
    nodes.resize(count);
    BENCH_CU(cuGraphGetNodes(graph, nodes.data(), &count));
    parameters.resize(count);
    for (size_t i = 0; i < count; ++i) BENCH_CU(cuGraphKernelNodeGetParams(nodes[i], &parameters[i]));
    BENCH_CU(cuGraphInstantiateWithFlags(&exec, graph, 0));
  }
  ~CapturedLaunches() {
    if (exec) driver.cuGraphExecDestroy(exec);
    if (graph) driver.cuGraphDestroy(graph);
  }
  CapturedLaunches(const CapturedLaunches&) = delete;
  CapturedLaunches& operator=(const CapturedLaunches&) = delete;

  const Driver& driver;
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  std::vector<CUgraphNode> nodes;
  std::vector<CUDA_KERNEL_NODE_PARAMS> parameters;
};

// The command buffer rows as the driver does them with a graph of the same launches:
// launched, the launches one by one, every node's parameters set then launched, and one
// node's parameters set and the graph (of one node, of eight) launched per call.
void measure_graphs(const Driver& driver, CUstream stream, CUfunction empty, const Settings& settings, Cells& cells) {
  constexpr int kLaunches = 200;
  CapturedLaunches all(driver, stream, empty, kLaunches);
  double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CU(cuGraphLaunch(all.exec, stream));
    BENCH_CU(cuStreamSynchronize(stream));
  });
  cells[kCommandBufferReplay].value = seconds * 1e6;
  seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < kLaunches; ++i) BENCH_CU(cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr));
    BENCH_CU(cuStreamSynchronize(stream));
  });
  cells[kCommandBufferEnqueues].value = seconds * 1e6;
  seconds = median_seconds(settings.repetitions, [&] {
    for (size_t i = 0; i < all.nodes.size(); ++i)
      BENCH_CU(cuGraphExecKernelNodeSetParams(all.exec, all.nodes[i], &all.parameters[i]));
    BENCH_CU(cuGraphLaunch(all.exec, stream));
    BENCH_CU(cuStreamSynchronize(stream));
  });
  cells[kCommandBufferUpdateReplay].value = seconds * 1e6;
  for (auto [launches, row] : {std::pair{1, kCommandBufferArgumentUpdate}, std::pair{8, kCommandBufferArgumentUpdateOfMany}}) {
    CapturedLaunches few(driver, stream, empty, launches);
    seconds = median_seconds(settings.repetitions, [&] {
      for (int i = 0; i < settings.enqueue_count; ++i) {
        BENCH_CU(cuGraphExecKernelNodeSetParams(few.exec, few.nodes[0], &few.parameters[0]));
        BENCH_CU(cuGraphLaunch(few.exec, stream));
      }
      BENCH_CU(cuStreamSynchronize(stream));
    });
    cells[row].value = seconds * 1e6 / settings.enqueue_count;
  }
}

// One end of a chain of empty kernels: a stream, the kernel loaded in the stream's context,
// and an event of that context recorded after each launch on the stream.
struct ChainEnd {
  CUcontext context;
  CUstream stream;
  CUfunction empty;
  CUevent event;
};

// Microseconds per launch of `links` launches alternating between the two ends, each waiting
// for the event recorded after the one before. Where the ends are in two devices' contexts,
// each launch first makes its end's context current, as a CUDA application must.
double chain_microseconds(const Driver& driver, const ChainEnd (&ends)[2], int links, int repetitions) {
  const bool two_contexts = ends[0].context != ends[1].context;
  double seconds = median_seconds(repetitions, [&] {
    for (int i = 0; i < links; ++i) {
      const ChainEnd& on = ends[i % 2];
      if (two_contexts) BENCH_CU(cuCtxSetCurrent(on.context));
      if (i) BENCH_CU(cuStreamWaitEvent(on.stream, ends[(i - 1) % 2].event, 0));
      BENCH_CU(cuLaunchKernel(on.empty, 1, 1, 1, 1, 1, 1, 0, on.stream, nullptr, nullptr));
      BENCH_CU(cuEventRecord(on.event, on.stream));
    }
    // The last launch waited, through the chain, for all the others.
    BENCH_CU(cuStreamSynchronize(ends[(links - 1) % 2].stream));
  });
  return seconds * 1e6 / links;
}

// Peer access both ways where the devices allow it (otherwise peer copies go through the host).
void enable_peer_access(const Driver& driver, const CudaSession& a, const CudaSession& b) {
  for (auto [from, to] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    int possible = 0;
    BENCH_CU(cuDeviceCanAccessPeer(&possible, from->device, to->device));
    if (!possible) continue;
    BENCH_CU(cuCtxSetCurrent(from->context));
    CUresult result = driver.cuCtxEnablePeerAccess(to->context, 0);
    if (result != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) check(result, "cuCtxEnablePeerAccess");
  }
}

// The two-GPU rows that need device 1: a peer copy of `bytes` from `source` on device 0 to
// device 1, and the chain alternating between `first`'s stream and one of device 1.
void measure_next_gpu(const Driver& driver, const CudaSession& first, CUfunction first_empty, CUdeviceptr source,
                      std::size_t bytes, const Settings& settings, Cells& cells) {
  const Event first_event(driver);
  {
    CudaSession second(driver, 1);
    enable_peer_access(driver, first, second);
    // Device 1's objects are made and, at the end of this scope, destroyed in its context.
    BENCH_CU(cuCtxSetCurrent(second.context));
    const Module module(driver, kPtx);
    const Event second_event(driver);
    const ChainEnd ends[2] = {{first.context, first.stream, first_empty, first_event.event},
                              {second.context, second.stream, module.function("empty"), second_event.event}};
    cells[kDependencyToNextGpu].value = chain_microseconds(driver, ends, kChainLinks, settings.repetitions);

    BENCH_CU(cuCtxSetCurrent(second.context));
    const DeviceMemory destination(driver, bytes);
    double seconds = median_seconds(settings.repetitions, [&] {
      BENCH_CU(cuMemcpyPeerAsync(destination.pointer, second.context, source, first.context, bytes, second.stream));
      BENCH_CU(cuStreamSynchronize(second.stream));
    });
    cells[kMigrationToNextGpu].value = bytes / seconds / 1e9;
  }
  BENCH_CU(cuCtxSetCurrent(first.context));
}

// The empty-kernel rows: launches back to back, then each followed by a synchronisation.
void measure_launches(const Driver& driver, CUstream stream, CUfunction empty, const Settings& settings, Cells& cells) {
  double seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.enqueue_count; ++i)
      BENCH_CU(cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr));
    BENCH_CU(cuStreamSynchronize(stream));
  });
  cells[kKernelEnqueue].value = seconds * 1e6 / settings.enqueue_count;
  seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.round_trips; ++i) {
      BENCH_CU(cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr));
      BENCH_CU(cuStreamSynchronize(stream));
    }
  });
  cells[kKernelLaunch].value = seconds * 1e6 / settings.round_trips;
  // A kernel, then its 4-byte result read into pageable memory and waited for.
  const DeviceMemory word(driver, sizeof(unsigned));
  unsigned result = 0;
  seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.round_trips; ++i) {
      BENCH_CU(cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr));
      BENCH_CU(cuMemcpyDtoHAsync(&result, word.pointer, sizeof result, stream));
      BENCH_CU(cuStreamSynchronize(stream));
    }
  });
  cells[kKernelRead].value = seconds * 1e6 / settings.round_trips;
}

void measure(const Driver& driver, const Settings& settings, std::size_t bytes, Cells& cells) {
  CudaSession session(driver);
  CUstream stream = session.stream;
  const int n = settings.enqueue_count;

  DeviceMemory word(driver, sizeof(unsigned));
  const unsigned pattern = 0x5a5a5a5a;
  double seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < n; ++i) BENCH_CU(cuMemcpyHtoDAsync(word.pointer, &pattern, sizeof pattern, stream));
    BENCH_CU(cuStreamSynchronize(stream));
  });
  cells[kEnqueueThroughput].value = seconds * 1e6 / n;
  seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < settings.round_trips; ++i) {
      BENCH_CU(cuMemcpyHtoDAsync(word.pointer, &pattern, sizeof pattern, stream));
      BENCH_CU(cuStreamSynchronize(stream));
    }
  });
  cells[kRoundTrip].value = seconds * 1e6 / settings.round_trips;
  if (settings.overheads_only) {
    const Module module(driver, kPtx);
    measure_launches(driver, stream, module.function("empty"), settings, cells);
    return;
  }

  cells[kBufferSize].value = static_cast<double>(bytes) / (1024.0 * 1024.0);
  std::vector<unsigned char> host(bytes);
  for (std::size_t i = 0; i < bytes; ++i) host[i] = static_cast<unsigned char>(i * 7);
  DeviceMemory src(driver, bytes), dst(driver, bytes);
  BENCH_CU(cuMemcpyHtoD(src.pointer, host.data(), bytes));
  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CU(cuMemcpyDtoDAsync(dst.pointer, src.pointer, bytes, stream));
    BENCH_CU(cuStreamSynchronize(stream));
  });
  cells[kCopyBandwidth].value = 2.0 * bytes / seconds / 1e9;
  seconds = median_seconds(settings.repetitions, [&] { BENCH_CU(cuMemcpyHtoD(src.pointer, host.data(), bytes)); });
  cells[kHostWrite].value = bytes / seconds / 1e9;
  seconds = median_seconds(settings.repetitions, [&] { BENCH_CU(cuMemcpyDtoH(host.data(), dst.pointer, bytes)); });
  cells[kHostRead].value = bytes / seconds / 1e9;
  {
    // What a map or unmap must move at the least: the bytes between the GPU and
    // page-locked host memory.
    void* pinned = nullptr;
    BENCH_CU(cuMemHostAlloc(&pinned, bytes, 0));
    seconds = median_seconds(settings.repetitions, [&] { BENCH_CU(cuMemcpyDtoH(pinned, dst.pointer, bytes)); });
    cells[kMapRead].value = bytes / seconds / 1e9;
    seconds = median_seconds(settings.repetitions, [&] { BENCH_CU(cuMemcpyHtoD(src.pointer, pinned, bytes)); });
    cells[kUnmapWrite].value = bytes / seconds / 1e9;
    driver.cuMemFreeHost(pinned);
  }
  seconds = median_seconds(settings.repetitions, [&] {
    const DeviceMemory temporary(driver, bytes);
    BENCH_CU(cuMemsetD32Async(temporary.pointer, 0, bytes / sizeof(unsigned), stream));
    BENCH_CU(cuStreamSynchronize(stream));
  });
  cells[kTemporaryBuffer].value = seconds * 1e6;

  const Module module(driver, kPtx);
  CUfunction empty = module.function("empty");
  CUfunction copy = module.function("copy4");
  measure_launches(driver, stream, empty, settings, cells);
  int gpus = 0;
  BENCH_CU(cuDeviceGetCount(&gpus));
  {
    // Two streams, each launch waiting for an event the other recorded after its launch.
    CUstream other = nullptr;
    BENCH_CU(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    const Event events[2] = {Event(driver), Event(driver)};
    const ChainEnd ends[2] = {{session.context, stream, empty, events[0].event},
                              {session.context, other, empty, events[1].event}};
    cells[kKernelPingPong].value = chain_microseconds(driver, ends, n, settings.repetitions);
    // A two-GPU row, though it uses one: beside the OpenCL rows of GPUs that have a partner.
    if (gpus >= 2)
      cells[kDependencyBetweenQueuesOfThisGpu].value =
          chain_microseconds(driver, ends, kChainLinks, settings.repetitions);
    driver.cuStreamDestroy(other);
  }
  constexpr unsigned kBlock = 256;
  const auto blocks = static_cast<unsigned>(bytes / 16 / kBlock);
  void* arguments[] = {&src.pointer, &dst.pointer};
  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CU(cuLaunchKernel(copy, blocks, 1, 1, kBlock, 1, 1, 0, stream, arguments, nullptr));
    BENCH_CU(cuStreamSynchronize(stream));
  });
  cells[kKernelCopy].value = 2.0 * bytes / seconds / 1e9;
  measure_graphs(driver, stream, empty, settings, cells);
  for (Row row : {kComputeFp32, kComputeHalf, kAtomicAddInt, kAtomicAddFloat, kIntegerLoop, kNativeMath, kSgemm, kTreeReduction,
                  kWaitCpu, kWaitReadCpu, kBuildFirst, kBuildAgain}) {
    cells[row].note = "n/a";
  }
  if (gpus >= 2) {
    measure_next_gpu(driver, session, empty, src.pointer, bytes, settings, cells);
  } else {
    for (Row row : {kMigrationToNextGpu, kDependencyBetweenQueuesOfThisGpu, kDependencyToNextGpu})
      cells[row].note = "n/a (one GPU)";
  }
  // No buffer of the driver's own lives on two GPUs: moving it is the OpenCL layer's work.
  for (Row row : {kDataDependencyBetweenQueuesOfThisGpu, kDataDependencyToNextGpu}) cells[row].note = "n/a";
}

}  // namespace

std::optional<Column> cuda_driver_reference(const Settings& settings, std::size_t bytes) {
  Driver driver;
  if (!driver.load() || driver.cuInit(0) != CUDA_SUCCESS) return std::nullopt;
  CUdevice device = 0;
  char name[256] = {};
  if (driver.cuDeviceGet(&device, 0) != CUDA_SUCCESS || driver.cuDeviceGetName(name, sizeof name, device) != CUDA_SUCCESS) {
    return std::nullopt;
  }
  Column column;
  column.name = "cuda/gpu0";
  column.description = std::string("CUDA driver API, no OpenCL: ") + name;
  try {
    measure(driver, settings, bytes, column.cells);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cucl-bench: cuda/gpu0: %s\n", error.what());
    for (Cell& cell : column.cells)
      if (!cell.value && cell.note.empty()) cell.note = "error";
  }
  return column;
}

}  // namespace bench

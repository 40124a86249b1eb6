// The two-GPU rows: one context holding a GPU and its partner, the next GPU of the same
// platform (the last GPU's partner is the first). A buffer filled on this GPU is migrated to
// the partner (clEnqueueMigrateMemObjects + clFinish on the partner's queue), and chains of
// empty kernels alternate between two queues of this GPU, or between this GPU's queue and
// the partner's, each launch waiting for the event of the one before; the same chains of a
// kernel that adds one to each word of a 4 KiB buffer make the buffer move between the GPUs
// at every link (checked at the end).
#include "measurements.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace bench {
namespace {

constexpr int kChainLinks = 200;
constexpr cl_uint kFillPatternSeed = 0x600df00d;
const char* kChainSource =
    "__kernel void empty(void) {}\n"
    "__kernel void add_one(__global uint* data) { data[get_global_id(0)] += 1; }\n";
constexpr size_t kDataWords = 1024;  // 4 KiB

bool is_gpu(cl_device_id device) { return device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU; }

// The GPU after `gpu` among its platform's GPUs, wrapping around; null when it is the only one.
cl_device_id next_gpu(cl_device_id gpu) {
  std::vector<cl_device_id> gpus;
  for (cl_device_id device : devices(device_value<cl_platform_id>(gpu, CL_DEVICE_PLATFORM)))
    if (is_gpu(device)) gpus.push_back(device);
  auto at = std::find(gpus.begin(), gpus.end(), gpu);
  if (gpus.size() < 2 || at == gpus.end()) return nullptr;
  return gpus[(at - gpus.begin() + 1) % gpus.size()];
}

Queue in_order_queue(cl_context context, cl_device_id device) {
  cl_int status = CL_SUCCESS;
  Queue queue(clCreateCommandQueueWithProperties(context, device, nullptr, &status));
  check(status, "clCreateCommandQueueWithProperties");
  return queue;
}

// One context holding a GPU and its partner: two in-order queues on the GPU, one on the partner.
struct GpuPair {
  GpuPair(cl_device_id gpu, cl_device_id partner) : devices{gpu, partner} {
    cl_int status = CL_SUCCESS;
    context.reset(clCreateContext(nullptr, 2, devices.data(), nullptr, nullptr, &status));
    check(status, "clCreateContext(two GPUs)");
    queue = in_order_queue(context.get(), gpu);
    second_queue = in_order_queue(context.get(), gpu);
    partner_queue = in_order_queue(context.get(), partner);
  }
  std::vector<cl_device_id> devices;  // the GPU, then its partner
  Context context;
  Queue queue, second_queue, partner_queue;
};

// Whether words at the start, middle and end of `buffer`, read through the partner's queue,
// hold `pattern`.
bool partner_holds(const GpuPair& pair, cl_mem buffer, std::size_t bytes, cl_uint pattern) {
  const std::size_t word = sizeof(cl_uint);
  for (std::size_t offset : {std::size_t{0}, bytes / 2 / word * word, bytes - word}) {
    cl_uint read = 0;
    BENCH_CL(clEnqueueReadBuffer(pair.partner_queue.get(), buffer, CL_TRUE, offset, word, &read, 0, nullptr,
                                 nullptr));
    if (read != pattern) return false;
  }
  return true;
}

Cell migration_to_partner(const GpuPair& pair, std::size_t bytes, const Settings& settings) {
  cl_int status = CL_SUCCESS;
  Buffer buffer(clCreateBuffer(pair.context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &status));
  check(status, "clCreateBuffer");
  cl_mem mem = buffer.get();
  // A new pattern each time, so that a partner still holding the last one's bytes shows.
  cl_uint pattern = kFillPatternSeed;
  double seconds = median_of(settings.repetitions, [&] {
    // After the fill this GPU alone holds the current bytes: the migration must move them all.
    ++pattern;
    BENCH_CL(clEnqueueFillBuffer(pair.queue.get(), mem, &pattern, sizeof pattern, 0, bytes, 0, nullptr, nullptr));
    BENCH_CL(clFinish(pair.queue.get()));
    auto start = std::chrono::steady_clock::now();
    BENCH_CL(clEnqueueMigrateMemObjects(pair.partner_queue.get(), 1, &mem, 0, 0, nullptr, nullptr));
    BENCH_CL(clFinish(pair.partner_queue.get()));
    return seconds_since(start);
  });
  if (!partner_holds(pair, mem, bytes, pattern)) return {std::nullopt, "wrong result"};
  return {bytes / seconds / 1e9, ""};
}

// Microseconds per launch of kChainLinks launches of `kernel` over `items` work-items
// alternating between `first` and `second`, each waiting for the event of the one before,
// until both queues finish.
double chain_microseconds(cl_command_queue first, cl_command_queue second, cl_kernel kernel, size_t items,
                          const Settings& settings) {
  double seconds = median_seconds(settings.repetitions, [&] {
    Event last;
    for (int i = 0; i < kChainLinks; ++i) {
      cl_event previous = last.get(), next = nullptr;
      BENCH_CL(clEnqueueNDRangeKernel(i % 2 ? second : first, kernel, 1, nullptr, &items, nullptr, previous ? 1 : 0,
                                      previous ? &previous : nullptr, &next));
      last.reset(next);
    }
    BENCH_CL(clFinish(first));
    BENCH_CL(clFinish(second));
  });
  return seconds * 1e6 / kChainLinks;
}

// The data chains: one buffer, zeroed, then kChainLinks additions of one per repetition
// (and the warm-up) alternating between `first` and `second`; every word must end at the
// total.
Cell data_chain(const GpuPair& pair, cl_command_queue first, cl_command_queue second, cl_kernel add_one,
                const Settings& settings) {
  cl_int status = CL_SUCCESS;
  Buffer data(clCreateBuffer(pair.context.get(), CL_MEM_READ_WRITE, kDataWords * sizeof(cl_uint), nullptr, &status));
  check(status, "clCreateBuffer");
  const cl_uint zero = 0;
  BENCH_CL(clEnqueueFillBuffer(first, data.get(), &zero, sizeof zero, 0, kDataWords * sizeof(cl_uint), 0, nullptr,
                               nullptr));
  BENCH_CL(clFinish(first));
  cl_mem mem = data.get();
  BENCH_CL(clSetKernelArg(add_one, 0, sizeof mem, &mem));
  const double us = chain_microseconds(first, second, add_one, kDataWords, settings);
  std::vector<cl_uint> words(kDataWords);
  BENCH_CL(clEnqueueReadBuffer(first, mem, CL_TRUE, 0, kDataWords * sizeof(cl_uint), words.data(), 0, nullptr,
                               nullptr));
  const auto total = static_cast<cl_uint>(kChainLinks * (settings.repetitions + 1));
  if (std::any_of(words.begin(), words.end(), [&](cl_uint word) { return word != total; })) {
    return {std::nullopt, "wrong result"};
  }
  return {us, ""};
}

}  // namespace

void measure_two_gpus(cl_device_id device, std::size_t bytes, const Settings& settings, Cells& cells) {
  const Row rows[] = {kMigrationToNextGpu, kDependencyBetweenQueuesOfThisGpu, kDependencyToNextGpu,
                      kDataDependencyBetweenQueuesOfThisGpu, kDataDependencyToNextGpu};
  cl_device_id partner = is_gpu(device) ? next_gpu(device) : nullptr;
  if (!partner) {
    for (Row row : rows) cells[row].note = is_gpu(device) ? "n/a (one GPU)" : "n/a (not a GPU)";
    return;
  }
  GpuPair pair(device, partner);
  cells[kMigrationToNextGpu] =
      migration_to_partner(pair, std::min(bytes, bandwidth_bytes(partner, settings)), settings);

  if (!device_value<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE) ||
      !device_value<cl_bool>(partner, CL_DEVICE_COMPILER_AVAILABLE)) {
    for (Row row : rows) {
      if (row != kMigrationToNextGpu) cells[row].note = "n/a (no compiler)";
    }
    return;
  }
  Program program = build_program(pair.context.get(), pair.devices, kChainSource);
  Kernel empty = create_kernel(program.get(), "empty");
  cells[kDependencyBetweenQueuesOfThisGpu].value =
      chain_microseconds(pair.queue.get(), pair.second_queue.get(), empty.get(), 1, settings);
  cells[kDependencyToNextGpu].value =
      chain_microseconds(pair.queue.get(), pair.partner_queue.get(), empty.get(), 1, settings);
  Kernel add_one = create_kernel(program.get(), "add_one");
  cells[kDataDependencyBetweenQueuesOfThisGpu] =
      data_chain(pair, pair.queue.get(), pair.second_queue.get(), add_one.get(), settings);
  cells[kDataDependencyToNextGpu] =
      data_chain(pair, pair.queue.get(), pair.partner_queue.get(), add_one.get(), settings);
}

}  // namespace bench

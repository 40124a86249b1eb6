// Two queues of one GPU in one context: a command that waits for another queue's command
// waits on the device (the CUDA streams order them), yet it sees the other's results, its
// event completes after the one it waited for, user events still hold it back and their
// failure still fails it. Profiling timestamps of GPU commands are the device's times on the
// host clock: a command queued behind a long one starts when that one ends.
//
// The long producer: 1024 work-items each take kLongSteps (8 Mi) steps of x = x * mul + inc,
// every step needing the one before. mul and inc are kernel arguments, so the compiler can
// neither fold unrolled steps into one multiply-add (as it could with constants) nor compute
// the result in closed form: each step is one dependent IMAD, at least 2 and about 4-6 cycles
// of latency. At 1.4-2 GHz that is about 17-35 ms on an H100, and never under 8 ms.
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "event_test_helpers.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

constexpr const char* kSource = R"CL(
uint lcg(uint x, uint steps, uint mul, uint inc) {
  for (uint k = 0; k < steps; ++k) x = x * mul + inc;
  return x;
}
// out[j * size + i] = lcg(seed + i) + j for j < per: only the final values, at the end.
kernel void produce(global uint* out, uint seed, uint steps, uint per, uint mul, uint inc) {
  uint i = (uint)get_global_id(0), size = (uint)get_global_size(0);
  uint value = lcg(seed + i, steps, mul, inc);
  for (uint j = 0; j < per; ++j) out[j * size + i] = value + j;
}
kernel void produce_from(global const uint* in, global uint* out, uint steps, uint mul, uint inc) {
  uint i = (uint)get_global_id(0);
  out[i] = lcg(in[i], steps, mul, inc);
}
kernel void copy_at(global const uint* in, global uint* out, uint offset) {
  uint i = (uint)get_global_id(0);
  out[offset + i] = in[i];
}
// Holds the counter it read for `steps` steps before writing it back plus one: two of
// these running at once lose an increment.
kernel void increment(global uint* counter, global uint* scratch, uint steps, uint mul, uint inc) {
  uint i = (uint)get_global_id(0);
  uint value = counter[i];
  scratch[i] = lcg(value, steps, mul, inc);
  counter[i] = value + 1;
}
kernel void sum(global const uint* a, global const uint* b, global uint* out) {
  uint i = (uint)get_global_id(0);
  out[i] = a[i] + b[i];
}
)CL";

constexpr cl_uint kLongSteps = 8u << 20;  // tens of milliseconds (see the top of the file)
constexpr cl_uint kShortSteps = 16384;    // tens of microseconds
constexpr size_t kItems = 1024;           // work-items of produce, copy_at and sum
constexpr size_t kCounters = 64;          // work-items of increment
constexpr cl_uint kUnwritten = 0xDEADBEEFu;
constexpr cl_ulong kMs = 1000000;  // nanoseconds
constexpr cl_ulong kCrossStreamSlack = kMs / 10;

// lcg() of the kernels, in O(log steps): x -> mul * x + inc composed `steps` times.
cl_uint lcg(cl_uint x, cl_uint steps) { return affine_steps(x, steps, kAffineMul, kAffineInc); }

// What produce(seed, steps, per) writes over kItems work-items.
std::vector<cl_uint> produced_values(cl_uint seed, cl_uint steps, cl_uint per = 1) {
  std::vector<cl_uint> values(kItems * per);
  for (cl_uint i = 0; i < kItems; ++i) {
    cl_uint value = lcg(seed + i, steps);
    for (cl_uint j = 0; j < per; ++j) values[j * kItems + i] = value + j;
  }
  return values;
}

cl_uint seed_of(int round) { return 1000003u * static_cast<cl_uint>(round + 1); }

// Two or more queues of the first GPU in one context (the fixture's and another_queue()'s),
// and the kernels above.
class CudaStreamOrder : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    program_ = std::make_unique<BuiltProgram>(*env, kSource);
    ASSERT_TRUE(*program_);
    for (auto [kernel, name] :
         {std::pair{&produce_, "produce"}, std::pair{&produce_from_, "produce_from"}, std::pair{&copy_at_, "copy_at"},
          std::pair{&increment_, "increment"}, std::pair{&sum_, "sum"}}) {
      *kernel = program_->kernel(name);
      ASSERT_NE(*kernel, nullptr) << name;
    }
  }
  void TearDown() override {
    for (cl_command_queue queue : queues_) {
      EXPECT_EQ(clFinish(queue), CL_SUCCESS);
      EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    }
  }

  // One more queue on the fixture's GPU and context, released at the end of the test.
  cl_command_queue another_queue(cl_command_queue_properties properties = 0) {
    queues_.push_back(make_queue(context(), gpu, properties));
    return queues_.back();
  }

  // A buffer of `count` copies of `value`.
  Mem uint_buffer(size_t count, cl_uint value) {
    std::vector<cl_uint> values(count, value);
    return make_buffer(context(), CL_MEM_COPY_HOST_PTR, count * sizeof(cl_uint), values.data());
  }

  cl_event launch(cl_command_queue queue, cl_kernel kernel, const std::vector<cl_event>& wait, size_t global) {
    cl_event event = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, static_cast<cl_uint>(wait.size()),
                                     wait.empty() ? nullptr : wait.data(), &event),
              CL_SUCCESS);
    return event;
  }

  // The commands below each return their event (the caller releases it).
  cl_event produce(cl_command_queue queue, cl_mem out, cl_uint seed, cl_uint steps,
                   const std::vector<cl_event>& wait = {}, cl_uint per = 1) {
    set_args(produce_, out, seed, steps, per, kAffineMul, kAffineInc);
    return launch(queue, produce_, wait, kItems);
  }
  cl_event produce_from(cl_command_queue queue, cl_mem in, cl_mem out, cl_uint steps) {
    set_args(produce_from_, in, out, steps, kAffineMul, kAffineInc);
    return launch(queue, produce_from_, {}, kItems);
  }
  // out[offset + i] = in[i] for i < kItems.
  cl_event copy_at(cl_command_queue queue, cl_mem in, cl_mem out, size_t offset, const std::vector<cl_event>& wait) {
    set_args(copy_at_, in, out, static_cast<cl_uint>(offset));
    return launch(queue, copy_at_, wait, kItems);
  }
  cl_event increment(cl_command_queue queue, cl_mem counters, cl_mem scratch, cl_uint steps,
                     const std::vector<cl_event>& wait) {
    set_args(increment_, counters, scratch, steps, kAffineMul, kAffineInc);
    return launch(queue, increment_, wait, kCounters);
  }
  cl_event sum(cl_command_queue queue, cl_mem a, cl_mem b, cl_mem out) {
    set_args(sum_, a, b, out);
    return launch(queue, sum_, {}, kItems);
  }

  // A producer on the fixture's queue behind an unset user event (`gate`), and a consumer on
  // another queue that copies its output into `result` once it is done.
  struct GatedChain {
    cl_command_queue producer_queue, consumer_queue;
    cl_event gate, produced, consumed;
  };
  GatedChain gated_chain(cl_mem produced, cl_mem result) {
    GatedChain chain{queue(), another_queue(), user_event(context()), nullptr, nullptr};
    chain.produced = produce(chain.producer_queue, produced, 7, kShortSteps, {chain.gate});
    chain.consumed = copy_at(chain.consumer_queue, produced, result, 0, {chain.produced});
    return chain;
  }

  // kLinks increments of one counter per work-item, alternating between `a` and `b`, each
  // waiting for the one before: every increment must see the previous one's result.
  void ping_pong(cl_command_queue a, cl_command_queue b) {
    constexpr cl_uint kLinks = 200;
    Mem counters = uint_buffer(kCounters, 0), scratch = uint_buffer(kCounters, 0);
    cl_event previous = nullptr;
    for (cl_uint link = 0; link < kLinks; ++link) {
      std::vector<cl_event> wait;
      if (previous) wait.push_back(previous);
      cl_event next = increment(link % 2 ? b : a, counters, scratch, kShortSteps, wait);
      if (previous) clReleaseEvent(previous);  // the command that waits for it holds it
      previous = next;
    }
    EXPECT_EQ(clWaitForEvents(1, &previous), CL_SUCCESS);
    clReleaseEvent(previous);
    EXPECT_EQ(read_buffer<cl_uint>(a, counters, kCounters), std::vector<cl_uint>(kCounters, kLinks));
  }

 private:
  std::unique_ptr<BuiltProgram> program_;
  // Owned by program_.
  cl_kernel produce_ = nullptr, produce_from_ = nullptr, copy_at_ = nullptr, increment_ = nullptr, sum_ = nullptr;
  std::vector<cl_command_queue> queues_;
};

// 20 rounds, the producer alternately on either queue; the consumer on the other queue
// (a kernel or clEnqueueCopyBuffer) copies what it waited for into its round's slot. No
// round waits on the host: the next producer overwrites the buffer after the consumer, in
// its queue's order.
TEST_F(CudaStreamOrder, ConsumerOnTheOtherQueueSeesTheLongProducersResult) {
  constexpr int kRounds = 20;
  cl_command_queue queues[2] = {queue(), another_queue()};
  Mem produced = uint_buffer(kItems, kUnwritten);
  Mem results = uint_buffer(kItems * kRounds, kUnwritten);
  std::vector<cl_event> events;
  for (int round = 0; round < kRounds; ++round) {
    cl_command_queue producer = queues[round % 2], consumer = queues[1 - round % 2];
    cl_event produced_event = produce(producer, produced, seed_of(round), kLongSteps);
    cl_event consumed = nullptr;
    if (round / 2 % 2 == 0) {
      consumed = copy_at(consumer, produced, results, round * kItems, {produced_event});
    } else {
      EXPECT_EQ(clEnqueueCopyBuffer(consumer, produced, results, 0, round * kItems * sizeof(cl_uint),
                                    kItems * sizeof(cl_uint), 1, &produced_event, &consumed),
                CL_SUCCESS);
    }
    events.push_back(produced_event);
    events.push_back(consumed);
  }
  for (cl_command_queue queue : queues) ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  auto back = read_buffer<cl_uint>(queue(), results, kItems * kRounds);
  for (int round = 0; round < kRounds; ++round) {
    std::vector<cl_uint> slot(back.begin() + round * kItems, back.begin() + (round + 1) * kItems);
    EXPECT_EQ(slot, produced_values(seed_of(round), kLongSteps)) << "round " << round;
  }
  release_all(events);
}

// 200 read-modify-write kernels alternating between two in-order queues.
TEST_F(CudaStreamOrder, PingPongChainBetweenTwoInOrderQueues) { ping_pong(queue(), another_queue()); }

// The same with an out-of-order queue: its commands are ordered only by their wait lists.
TEST_F(CudaStreamOrder, PingPongChainWithAnOutOfOrderQueue) { ping_pong(queue(), another_queue(kOoo)); }

// Pairs of a short kernel and a tiny one on the other queue that waits for it, in
// alternating directions, each pair after the one before. The host waits only for the
// tiny one: by then the event it waited for must be complete too.
TEST_F(CudaStreamOrder, EventIsCompleteOnceTheCommandThatWaitedForItIs) {
  constexpr int kPairs = 100;
  cl_command_queue queues[2] = {queue(), another_queue()};
  Mem counters = uint_buffer(kCounters, 0), scratch = uint_buffer(kCounters, 0);
  std::vector<cl_event> events;
  for (int pair = 0; pair < kPairs; ++pair) {
    cl_command_queue first = queues[pair % 2], second = queues[1 - pair % 2];
    std::vector<cl_event> wait;
    if (!events.empty()) wait.push_back(events.back());
    events.push_back(increment(first, counters, scratch, kShortSteps, wait));
    events.push_back(increment(second, counters, scratch, 0, {events.back()}));
    ASSERT_EQ(clWaitForEvents(1, &events.back()), CL_SUCCESS) << "pair " << pair;
    EXPECT_EQ(event_status(events[events.size() - 2]), CL_COMPLETE) << "pair " << pair;
  }
  EXPECT_EQ(read_buffer<cl_uint>(queue(), counters, kCounters), std::vector<cl_uint>(kCounters, 2 * kPairs));
  release_all(events);
}

// A producer that waits for an unset user event, and a consumer on the other queue that
// waits for the producer: neither may complete until the user event is set.
TEST_F(CudaStreamOrder, UnsetUserEventHoldsBackTheCommandOnTheOtherQueue) {
  Mem produced = uint_buffer(kItems, kUnwritten), result = uint_buffer(kItems, kUnwritten);
  auto [a, b, gate, produced_event, consumed] = gated_chain(produced, result);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(event_status(produced_event), CL_COMPLETE);
  EXPECT_GT(event_status(consumed), CL_COMPLETE) << "ran before the command it waits for";
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &consumed), CL_SUCCESS);
  EXPECT_EQ(read_buffer<cl_uint>(b, result, kItems), produced_values(7, kShortSteps));
  release_all({gate, produced_event, consumed});
}

// The user event fails: so do the producer and the consumer on the other queue, and
// neither writes anything.
TEST_F(CudaStreamOrder, FailedUserEventFailsTheCommandOnTheOtherQueue) {
  Mem produced = uint_buffer(kItems, kUnwritten), result = uint_buffer(kItems, kUnwritten);
  auto [a, b, gate, produced_event, consumed] = gated_chain(produced, result);
  EXPECT_EQ(clSetUserEventStatus(gate, -7), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &consumed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_LT(event_status(consumed), 0);
  EXPECT_LT(event_status(produced_event), 0);
  // A failed command does not fail the later commands of its queue: these reads run.
  EXPECT_EQ(read_buffer<cl_uint>(b, result, kItems), std::vector<cl_uint>(kItems, kUnwritten));
  EXPECT_EQ(read_buffer<cl_uint>(a, produced, kItems), std::vector<cl_uint>(kItems, kUnwritten));
  release_all({gate, produced_event, consumed});
}

// In one out-of-order queue, each consumer waits for the long producer before it and
// each producer for the consumer before it (which still reads the buffer it overwrites).
TEST_F(CudaStreamOrder, OutOfOrderQueueKernelWaitsForTheLongKernelItDependsOn) {
  constexpr int kRounds = 4;
  cl_command_queue ooo = another_queue(kOoo);
  Mem produced = uint_buffer(kItems, kUnwritten);
  Mem results = uint_buffer(kItems * kRounds, kUnwritten);
  std::vector<cl_event> events;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<cl_event> wait;
    if (!events.empty()) wait.push_back(events.back());
    events.push_back(produce(ooo, produced, seed_of(round), kLongSteps, wait));
    events.push_back(copy_at(ooo, produced, results, round * kItems, {events.back()}));
  }
  ASSERT_EQ(clFinish(ooo), CL_SUCCESS);
  auto back = read_buffer<cl_uint>(ooo, results, kItems * kRounds);
  for (int round = 0; round < kRounds; ++round) {
    std::vector<cl_uint> slot(back.begin() + round * kItems, back.begin() + (round + 1) * kItems);
    EXPECT_EQ(slot, produced_values(seed_of(round), kLongSteps)) << "round " << round;
  }
  release_all(events);
}

// The command that waits for the long producer on the other queue is a read into
// pageable memory: a blocking one of 16 MiB (staged), or a non-blocking one of 4 KiB.
TEST_F(CudaStreamOrder, ReadIntoPageableMemoryOnTheOtherQueueWaitsForTheProducer) {
  constexpr cl_uint kPer = 4096;  // 1024 * 4096 values: 16 MiB
  cl_command_queue queues[2] = {queue(), another_queue()};
  Mem produced = uint_buffer(kItems * kPer, kUnwritten);
  for (int round = 0; round < 4; ++round) {
    cl_command_queue producer = queues[round % 2], consumer = queues[1 - round % 2];
    const bool large = round < 2;
    cl_event produced_event = produce(producer, produced, seed_of(round), kLongSteps, {}, kPer);
    auto expected = produced_values(seed_of(round), kLongSteps, kPer);
    if (!large) expected.resize(kItems);
    std::vector<cl_uint> back(expected.size(), 0);
    cl_event read = nullptr;
    EXPECT_EQ(clEnqueueReadBuffer(consumer, produced, large ? CL_TRUE : CL_FALSE, 0, back.size() * sizeof(cl_uint),
                                  back.data(), 1, &produced_event, &read),
              CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
    EXPECT_TRUE(back == expected) << (large ? "blocking 16 MiB" : "non-blocking 4 KiB") << " read, round " << round;
    release_all({produced_event, read});
  }
}

// A long kernel reads `input`; a write on the other queue that waits for it replaces
// `input` (4 KiB: straight from pageable memory; 16 MiB: staged), and a kernel after the
// write in that queue adds what the long kernel produced to the new input.
TEST_F(CudaStreamOrder, WriteOnTheOtherQueueWaitsAndTheKernelAfterItSeesBothResults) {
  const size_t sizes[] = {kItems * sizeof(cl_uint), 16u << 20};
  cl_command_queue queues[2] = {queue(), another_queue()};
  for (int round = 0; round < 2; ++round) {
    cl_command_queue producer = queues[round % 2], consumer = queues[1 - round % 2];
    const size_t count = sizes[round] / sizeof(cl_uint);
    std::vector<cl_uint> old_input(count), new_input(count);
    for (size_t i = 0; i < count; ++i) {
      old_input[i] = static_cast<cl_uint>(i * 7 + 3 + round);
      new_input[i] = static_cast<cl_uint>(i * 13 + 5 + round);
    }
    Mem input = make_buffer(context(), CL_MEM_COPY_HOST_PTR, sizes[round], old_input.data());
    Mem produced = uint_buffer(kItems, kUnwritten), sums = uint_buffer(kItems, kUnwritten);
    cl_event produced_event = produce_from(producer, input, produced, kLongSteps);
    cl_event written = nullptr;
    EXPECT_EQ(clEnqueueWriteBuffer(consumer, input, CL_FALSE, 0, sizes[round], new_input.data(), 1, &produced_event,
                                   &written),
              CL_SUCCESS);
    cl_event summed = sum(consumer, produced, input, sums);
    std::vector<cl_uint> expected(kItems);
    for (size_t i = 0; i < kItems; ++i) expected[i] = lcg(old_input[i], kLongSteps) + new_input[i];
    EXPECT_EQ(read_buffer<cl_uint>(consumer, sums, kItems), expected) << sizes[round] << "-byte write";
    EXPECT_TRUE(read_buffer<cl_uint>(consumer, input, count) == new_input) << sizes[round] << "-byte write";
    release_all({produced_event, written, summed});
  }
}

// Profiling: the fixture's queue has CL_QUEUE_PROFILING_ENABLE.
class CudaDeviceTimestamps : public CudaStreamOrder {
 protected:
  cl_command_queue_properties queue_properties() const override { return CL_QUEUE_PROFILING_ENABLE; }

  struct Times {
    cl_ulong queued, submit, start, end, complete;
    cl_ulong duration() const { return end - start; }
  };
  static Times times_of(cl_event event) {
    return {profile(event, CL_PROFILING_COMMAND_QUEUED), profile(event, CL_PROFILING_COMMAND_SUBMIT),
            profile(event, CL_PROFILING_COMMAND_START), profile(event, CL_PROFILING_COMMAND_END),
            profile(event, CL_PROFILING_COMMAND_COMPLETE)};
  }
  static void expect_ordered(const Times& t, const std::string& what) {
    EXPECT_LE(t.queued, t.submit) << what;
    EXPECT_LE(t.submit, t.start) << what;
    EXPECT_LE(t.start, t.end) << what;
    EXPECT_LE(t.end, t.complete) << what;
  }
  // One small launch first, so that loading the module is in no timed command.
  void warm_up(cl_command_queue queue, cl_mem out) {
    cl_event event = produce(queue, out, 1, 1);
    EXPECT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    clReleaseEvent(event);
  }
};

// The long kernel alone; its START..END is most of the host's wall time around it, and
// not more.
TEST_F(CudaDeviceTimestamps, LongKernelsDurationMatchesTheHostsWallTime) {
  Mem out = uint_buffer(kItems, kUnwritten);
  warm_up(queue(), out);
  auto begin = std::chrono::steady_clock::now();
  cl_event event = produce(queue(), out, 2, kLongSteps);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  auto wall = static_cast<cl_ulong>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begin).count());
  Times t = times_of(event);
  expect_ordered(t, "long kernel");
  EXPECT_GT(t.duration(), wall / 2) << "wall " << wall << " ns";
  EXPECT_LE(t.duration(), wall + kMs) << "wall " << wall << " ns";
  clReleaseEvent(event);
}

// A long kernel then three tiny ones, back to back in the in-order profiling queue:
// each starts when the one before ends, the tiny ones take their own (short) time although
// they were queued for as long as the long one ran, and everything lies between device timer
// readings before the first enqueue and after clFinish.
TEST_F(CudaDeviceTimestamps, TinyKernelsBehindALongKernelStartWhenItEnds) {
  Mem out = uint_buffer(kItems, kUnwritten), tiny_out = uint_buffer(kItems, kUnwritten);
  warm_up(queue(), out);
  cl_ulong before = device_timer(gpu);
  std::vector<cl_event> events = {produce(queue(), out, 3, kLongSteps)};
  for (cl_uint k = 0; k < 3; ++k) events.push_back(produce(queue(), tiny_out, 4 + k, 1));
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  cl_ulong after = device_timer(gpu);
  std::vector<Times> t;
  for (cl_event event : events) t.push_back(times_of(event));
  for (size_t i = 0; i < t.size(); ++i) {
    std::string what = i ? "tiny kernel " + std::to_string(i) : "long kernel";
    expect_ordered(t[i], what);
    EXPECT_LE(before, t[i].queued) << what;
    EXPECT_LE(t[i].end, after) << what;
    EXPECT_LE(t[i].complete, after) << what;
    if (i) {
      EXPECT_GE(t[i].start, t[i - 1].end) << what;
      EXPECT_LT(t[i].duration(), kMs) << what;
      EXPECT_LT(t[i].duration() * 10, t[i].complete - t[i].queued) << what;
    }
  }
  EXPECT_GT(t[0].duration(), 5 * kMs);
  EXPECT_GT(t[1].complete - t[1].queued, t[0].duration() / 2) << "the first tiny kernel waited behind the long one";
  release_all(events);
}

// Each command alone, after the GPU has idled for a while, lies between the device timer
// readings just before its enqueue and just after its end.
TEST_F(CudaDeviceTimestamps, EachCommandLiesBetweenTheDeviceTimerReadingsAroundIt) {
  constexpr size_t kBytes = kItems * sizeof(cl_uint);
  Mem a = uint_buffer(kItems, kUnwritten), b = uint_buffer(kItems, kUnwritten);
  std::vector<cl_uint> host(kItems, 5);
  warm_up(queue(), a);
  const std::pair<const char*, std::function<cl_event()>> commands[] = {
      {"long kernel", [&] { return produce(queue(), a, 8, kLongSteps); }},
      {"tiny kernel", [&] { return produce(queue(), a, 9, 1); }},
      {"write",
       [&] {
         cl_event event = nullptr;
         EXPECT_EQ(clEnqueueWriteBuffer(queue(), b, CL_FALSE, 0, kBytes, host.data(), 0, nullptr, &event), CL_SUCCESS);
         return event;
       }},
      {"copy",
       [&] {
         cl_event event = nullptr;
         EXPECT_EQ(clEnqueueCopyBuffer(queue(), a, b, 0, 0, kBytes, 0, nullptr, &event), CL_SUCCESS);
         return event;
       }},
      {"read",
       [&] {
         cl_event event = nullptr;
         EXPECT_EQ(clEnqueueReadBuffer(queue(), b, CL_FALSE, 0, kBytes, host.data(), 0, nullptr, &event), CL_SUCCESS);
         return event;
       }},
  };
  for (const auto& [what, enqueue] : commands) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    cl_ulong before = device_timer(gpu);
    cl_event event = enqueue();
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS) << what;
    cl_ulong after = device_timer(gpu);
    Times t = times_of(event);
    expect_ordered(t, what);
    EXPECT_LE(before, t.queued) << what;
    EXPECT_LE(t.complete, after) << what;
    clReleaseEvent(event);
  }
  EXPECT_EQ(host, produced_values(9, 1));
}

// A tiny kernel on one profiling queue that waits for the long kernel of another
// starts, by its timestamps, when that one ends (the device waited, not the command).
TEST_F(CudaDeviceTimestamps, CommandWaitingForAnotherQueueStartsWhenItsDependencyEnds) {
  cl_command_queue queues[2] = {queue(), another_queue(CL_QUEUE_PROFILING_ENABLE)};
  Mem produced = uint_buffer(kItems, kUnwritten), result = uint_buffer(kItems, kUnwritten);
  for (cl_command_queue queue : queues) warm_up(queue, result);
  for (int round = 0; round < 2; ++round) {
    cl_command_queue producer = queues[round % 2], consumer = queues[1 - round % 2];
    cl_event produced_event = produce(producer, produced, seed_of(round), kLongSteps);
    cl_event consumed = copy_at(consumer, produced, result, 0, {produced_event});
    ASSERT_EQ(clWaitForEvents(1, &consumed), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &produced_event), CL_SUCCESS);
    Times p = times_of(produced_event), c = times_of(consumed);
    expect_ordered(p, "producer, round " + std::to_string(round));
    expect_ordered(c, "consumer, round " + std::to_string(round));
    EXPECT_GT(p.duration(), 5 * kMs) << "round " << round;
    // Two streams' timestamps: allow for how precisely each is placed on the host clock. A
    // START taken before the device wait would lie milliseconds before the producer's END.
    EXPECT_GE(c.start + kCrossStreamSlack, p.end) << "round " << round;
    EXPECT_LT(c.duration(), kMs) << "round " << round;
    EXPECT_EQ(read_buffer<cl_uint>(consumer, result, kItems), produced_values(seed_of(round), kLongSteps))
        << "round " << round;
    release_all({produced_event, consumed});
  }
}

// A 64 MiB write, a long kernel, a 64 MiB copy and a 64 MiB read back to back: ordered,
// and the copy's START..END is its own time, not its wait behind the kernel.
TEST_F(CudaDeviceTimestamps, LargeCopyBehindALongKernelHasItsOwnDuration) {
  constexpr size_t kBytes = 64u << 20;
  Mem src = make_buffer(context(), 0, kBytes), dst = make_buffer(context(), 0, kBytes);
  Mem out = uint_buffer(kItems, kUnwritten);
  warm_up(queue(), out);
  auto data = position_pattern(kBytes, 9);
  std::vector<uint8_t> back(kBytes, 0);
  std::vector<cl_event> events(4, nullptr);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), src, CL_FALSE, 0, kBytes, data.data(), 0, nullptr, &events[0]), CL_SUCCESS);
  events[1] = produce(queue(), out, 10, kLongSteps);
  ASSERT_EQ(clEnqueueCopyBuffer(queue(), src, dst, 0, 0, kBytes, 0, nullptr, &events[2]), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), dst, CL_FALSE, 0, kBytes, back.data(), 0, nullptr, &events[3]), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  const char* names[] = {"write", "kernel", "copy", "read"};
  std::vector<Times> t;
  for (size_t i = 0; i < events.size(); ++i) {
    t.push_back(times_of(events[i]));
    expect_ordered(t[i], names[i]);
    if (i) {
      EXPECT_GE(t[i].start, t[i - 1].end) << names[i];
    }
  }
  EXPECT_GT(t[0].duration(), 0u) << "write";
  EXPECT_GT(t[2].duration(), 0u) << "copy";
  EXPECT_LT(t[2].duration(), t[1].duration()) << "the copy's time includes its wait behind the kernel";
  EXPECT_TRUE(back == data);
  release_all(events);
}

}  // namespace

// Threads that wait for a GPU queue (clFinish, clWaitForEvents) look at its CUDA stream
// themselves, and the stream's completion thread finishes what a look found done
// (backends/cuda/cuda_completion.h). A wait must still end only after the work it waits for:
// each test would see a command reported done early, in its results in host memory or in its
// profiling times against the device timer read after the wait.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "support/kernel_support.h"
#include "svm_test_helpers.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;
using svm_test::SvmPointer;

namespace {

constexpr const char* kSource = R"CL(
// 4 Mi dependent steps of x = x * mul + inc in each work-item: milliseconds on any GPU.
kernel void long_work(global uint* out, uint seed, uint steps, uint mul, uint inc) {
  uint i = (uint)get_global_id(0);
  uint x = seed + i;
  for (uint k = 0; k < steps; ++k) x = x * mul + inc;
  out[i] = x;
}
kernel void add_one(global uint* counter) { counter[get_global_id(0)] += 1; }
)CL";

constexpr cl_uint kLongSteps = 4u << 20;
constexpr size_t kItems = 256;

// What long_work writes at item i.
cl_uint long_work_value(cl_uint seed, size_t i) {
  return affine_steps(seed + static_cast<cl_uint>(i), kLongSteps, kAffineMul, kAffineInc);
}

class CudaWaits : public GpuTest {
 protected:
  cl_command_queue_properties queue_properties() const override { return CL_QUEUE_PROFILING_ENABLE; }
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    program_ = std::make_unique<BuiltProgram>(*env, kSource);
    ASSERT_TRUE(*program_);
    long_work_ = program_->kernel("long_work");
    add_one_ = program_->kernel("add_one");
    ASSERT_NE(long_work_, nullptr);
    ASSERT_NE(add_one_, nullptr);
  }

  cl_event launch(cl_command_queue queue, cl_kernel kernel, size_t items, bool with_event = true) {
    cl_event event = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &items, nullptr, 0, nullptr,
                                     with_event ? &event : nullptr),
              CL_SUCCESS);
    return event;
  }
  // Kernels of a thread's own: setting a kernel's arguments is not safe from several threads.
  struct Kernels {
    cl_kernel long_work = nullptr, add_one = nullptr;
  };
  Kernels own_kernels() { return {program_->kernel("long_work"), program_->kernel("add_one")}; }

  cl_event long_work(cl_command_queue queue, cl_mem out, cl_uint seed, size_t items = kItems,
                     cl_uint steps = kLongSteps, cl_kernel kernel = nullptr) {
    kernel = kernel ? kernel : long_work_;
    set_args(kernel, out, seed, steps, kAffineMul, kAffineInc);
    return launch(queue, kernel, items);
  }
  cl_event add_one(cl_command_queue queue, cl_mem counter, size_t items, bool with_event,
                   cl_kernel kernel = nullptr) {
    kernel = kernel ? kernel : add_one_;
    set_args(kernel, counter);
    return launch(queue, kernel, items, with_event);
  }
  Mem zeros(size_t count) {
    std::vector<cl_uint> values(count, 0);
    return make_buffer(context(), CL_MEM_COPY_HOST_PTR, count * sizeof(cl_uint), values.data());
  }
  // The event ended (on the device) before `after`, a device timer reading taken once a wait
  // for it returned.
  void expect_ended_before(cl_event event, cl_ulong after) {
    EXPECT_EQ(event_status(event), CL_COMPLETE);
    EXPECT_LE(profile(event, CL_PROFILING_COMMAND_END), after);
    EXPECT_LE(profile(event, CL_PROFILING_COMMAND_COMPLETE), after);
  }

 private:
  std::unique_ptr<BuiltProgram> program_;
  cl_kernel long_work_ = nullptr, add_one_ = nullptr;  // owned by program_
};

TEST_F(CudaWaits, FinishEndsAfterALongKernelAndTheReadBehindIt) {
  Mem out = zeros(kItems);
  std::vector<cl_uint> host(kItems, 0);
  cl_event kernel = long_work(queue(), out, 11);
  // Into pageable memory behind a running kernel: the completion thread enqueues it later.
  cl_event read = nullptr;
  ASSERT_EQ(clEnqueueReadBuffer(queue(), out, CL_FALSE, 0, kItems * sizeof(cl_uint), host.data(), 0, nullptr, &read),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  const cl_ulong after = device_timer(gpu);
  expect_ended_before(kernel, after);
  expect_ended_before(read, after);
  EXPECT_LT(profile(kernel, CL_PROFILING_COMMAND_END), profile(read, CL_PROFILING_COMMAND_END));
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(host[i], long_work_value(11, i)) << i;
  clReleaseEvent(kernel);
  clReleaseEvent(read);
}

// A blocking read into pageable memory behind a running kernel: its caller waits for the
// kernel itself and then enqueues the read (a small one the driver copies, a large one staged
// through page-locked chunks); each carries the kernel's results and ends after it.
TEST_F(CudaWaits, ABlockingReadBehindALongKernelCarriesItsResults) {
  constexpr size_t kLargeItems = (3u << 20) / sizeof(cl_uint);  // staged: 1 MiB and more
  constexpr cl_uint kShortSteps = 4096;
  Mem out = zeros(kItems), large = zeros(kLargeItems);
  for (int round = 0; round < 3; ++round) {
    const cl_uint seed = 21 + static_cast<cl_uint>(round);
    cl_event kernel = long_work(queue(), out, seed);
    cl_uint word = 0;
    cl_event read = nullptr;
    ASSERT_EQ(clEnqueueReadBuffer(queue(), out, CL_TRUE, 5 * sizeof(cl_uint), sizeof(cl_uint), &word, 0, nullptr,
                                  &read),
              CL_SUCCESS);
    EXPECT_EQ(word, long_work_value(seed, 5));
    const cl_ulong after = device_timer(gpu);
    expect_ended_before(kernel, after);
    expect_ended_before(read, after);
    EXPECT_LE(profile(kernel, CL_PROFILING_COMMAND_END), profile(read, CL_PROFILING_COMMAND_START));
    clReleaseEvent(kernel);
    clReleaseEvent(read);

    clReleaseEvent(long_work(queue(), large, seed, kLargeItems, kShortSteps));
    std::vector<cl_uint> host(kLargeItems, 0);
    ASSERT_EQ(clEnqueueReadBuffer(queue(), large, CL_TRUE, 0, kLargeItems * sizeof(cl_uint), host.data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < kLargeItems; i += 997) {
      ASSERT_EQ(host[i], affine_steps(seed + static_cast<cl_uint>(i), kShortSteps, kAffineMul, kAffineInc)) << i;
    }
    ASSERT_EQ(host.back(), affine_steps(seed + static_cast<cl_uint>(kLargeItems - 1), kShortSteps, kAffineMul,
                                        kAffineInc));
  }
}

// Non-blocking reads behind a running kernel land in the stream's page-locked slots and are
// copied out when they finish: more reads than slots, with and without events, each carries
// the kernel's results by the time its event or clFinish says so.
TEST_F(CudaWaits, NonBlockingReadsBehindALongKernelCarryItsResults) {
  constexpr size_t kReads = 20;
  Mem out = zeros(kItems);
  cl_event kernel = long_work(queue(), out, 31);
  std::vector<std::vector<cl_uint>> hosts(kReads, std::vector<cl_uint>(kItems, 0));
  std::vector<cl_event> reads(kReads, nullptr);
  for (size_t r = 0; r < kReads; ++r) {
    const size_t first = r % kItems, count = kItems - first;
    ASSERT_EQ(clEnqueueReadBuffer(queue(), out, CL_FALSE, first * sizeof(cl_uint), count * sizeof(cl_uint),
                                  hosts[r].data(), 0, nullptr, r % 2 ? &reads[r] : nullptr),
              CL_SUCCESS);
  }
  ASSERT_EQ(clWaitForEvents(1, &reads[1]), CL_SUCCESS);
  for (size_t i = 0; i + 1 < kItems; ++i) ASSERT_EQ(hosts[1][i], long_work_value(31, i + 1)) << i;
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  const cl_ulong after = device_timer(gpu);
  expect_ended_before(kernel, after);
  for (size_t r = 0; r < kReads; ++r) {
    const size_t first = r % kItems;
    for (size_t i = 0; i < kItems - first; ++i) ASSERT_EQ(hosts[r][i], long_work_value(31, first + i)) << r << " " << i;
    if (reads[r]) {
      expect_ended_before(reads[r], after);
      EXPECT_LE(profile(kernel, CL_PROFILING_COMMAND_END), profile(reads[r], CL_PROFILING_COMMAND_START));
      clReleaseEvent(reads[r]);
    }
  }
  clReleaseEvent(kernel);
}

// What a non-blocking read brings is what later commands of the queue find in that memory: a
// write from it, and a blocking read into it, come after the read's bytes have landed.
TEST_F(CudaWaits, LaterCommandsFindWhatANonBlockingReadBrought) {
  Mem out = zeros(kItems), copy = zeros(kItems), other = zeros(kItems);
  clReleaseEvent(long_work(queue(), other, 44));
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  std::vector<cl_uint> host(kItems, 0);
  for (int round = 0; round < 3; ++round) {
    const cl_uint seed = 40 + static_cast<cl_uint>(round);
    clReleaseEvent(long_work(queue(), out, seed));
    const size_t bytes = kItems * sizeof(cl_uint);
    ASSERT_EQ(clEnqueueReadBuffer(queue(), out, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), copy, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<cl_uint> copied = read_buffer<cl_uint>(queue(), copy, kItems);
    for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(copied[i], long_work_value(seed, i)) << round << " " << i;

    clReleaseEvent(long_work(queue(), out, seed + 10));
    ASSERT_EQ(clEnqueueReadBuffer(queue(), out, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(queue(), other, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr), CL_SUCCESS);
    for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(host[i], long_work_value(44, i)) << round << " " << i;
  }
}

// One thread keeps adding to a counter on a queue while another reads it there with blocking
// reads: each read waits for what was enqueued before it and sees no count go backwards.
TEST_F(CudaWaits, BlockingReadsAmongAnotherThreadsKernelsSeeTheCountGrow) {
  constexpr int kAdds = 3000, kReads = 300;
  Mem counter = zeros(1);
  std::thread adder([&] {
    for (int i = 0; i < kAdds; ++i) add_one(queue(), counter, 1, false);
  });
  cl_uint last = 0;
  for (int i = 0; i < kReads; ++i) {
    cl_uint count = 0;
    ASSERT_EQ(clEnqueueReadBuffer(queue(), counter, CL_TRUE, 0, sizeof(count), &count, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_GE(count, last);
    ASSERT_LE(count, static_cast<cl_uint>(kAdds));
    last = count;
  }
  adder.join();
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  EXPECT_EQ(read_buffer<cl_uint>(queue(), counter, 1)[0], static_cast<cl_uint>(kAdds));
}

TEST_F(CudaWaits, WaitForAnEarlyEventEndsBeforeTheLongKernelBehindIt) {
  Mem counter = zeros(1), out = zeros(kItems);
  cl_event early = add_one(queue(), counter, 1, true);
  cl_event late = long_work(queue(), out, 5);
  ASSERT_EQ(clWaitForEvents(1, &early), CL_SUCCESS);
  expect_ended_before(early, device_timer(gpu));
  ASSERT_EQ(clWaitForEvents(1, &late), CL_SUCCESS);
  expect_ended_before(late, device_timer(gpu));
  EXPECT_LE(profile(early, CL_PROFILING_COMMAND_END), profile(late, CL_PROFILING_COMMAND_START));
  EXPECT_EQ(read_buffer<cl_uint>(queue(), counter, 1)[0], 1u);
  EXPECT_EQ(read_buffer<cl_uint>(queue(), out, 1)[0], long_work_value(5, 0));
  clReleaseEvent(early);
  clReleaseEvent(late);
}

// Round trips as the launch benchmark makes them, alternately through clFinish (a command
// without an event) and clWaitForEvents; each ends before the device timer read after it.
TEST_F(CudaWaits, EveryShortRoundTripEndsAfterItsCommand) {
  constexpr int kTrips = 400;
  Mem counter = zeros(1);
  for (int trip = 0; trip < kTrips; ++trip) {
    if (trip % 2) {
      add_one(queue(), counter, 1, false);
      ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
    } else {
      cl_event event = add_one(queue(), counter, 1, true);
      ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
      expect_ended_before(event, device_timer(gpu));
      clReleaseEvent(event);
    }
  }
  EXPECT_EQ(read_buffer<cl_uint>(queue(), counter, 1)[0], static_cast<cl_uint>(kTrips));
}

// Threads waiting on queues of their own, and one more thread waiting on the first thread's
// queue at the same time: the looks of one stream's waiters finish only that stream's work.
TEST_F(CudaWaits, WaitersOnSeveralQueuesAtOnce) {
  constexpr int kThreads = 3, kTrips = 200;
  std::vector<cl_command_queue> queues;
  std::vector<Mem> counters;
  std::vector<Kernels> kernels;
  for (int i = 0; i < kThreads; ++i) {
    cl_int status = CL_SUCCESS;
    queues.push_back(clCreateCommandQueue(context(), gpu, 0, &status));
    ASSERT_EQ(status, CL_SUCCESS);
    counters.push_back(zeros(kItems));
    kernels.push_back(own_kernels());
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int trip = 0; trip < kTrips; ++trip) {
        add_one(queues[i], counters[i], kItems, false, kernels[i].add_one);
        if (trip % 10 == 0) {
          // Overwritten by later adds.
          cl_event event = long_work(queues[i], counters[i], 1, kItems, kLongSteps, kernels[i].long_work);
          clReleaseEvent(event);
          EXPECT_EQ(clFinish(queues[i]), CL_SUCCESS);
          // Restart the count from the long kernel's values, read back after clFinish.
          std::vector<cl_uint> values(kItems);
          EXPECT_EQ(clEnqueueReadBuffer(queues[i], counters[i], CL_TRUE, 0, kItems * sizeof(cl_uint), values.data(), 0,
                                        nullptr, nullptr),
                    CL_SUCCESS);
          for (size_t item = 0; item < kItems; ++item) EXPECT_EQ(values[item], long_work_value(1, item)) << item;
        } else {
          EXPECT_EQ(clFinish(queues[i]), CL_SUCCESS);
        }
      }
    });
  }
  // A second waiter on queue 0 while its thread enqueues and waits.
  for (int i = 0; i < 100; ++i) EXPECT_EQ(clFinish(queues[0]), CL_SUCCESS);
  for (auto& thread : threads) thread.join();
  // 200 adds; the last long kernel ran at trip 190, so 9 adds came after it.
  for (int i = 0; i < kThreads; ++i) {
    std::vector<cl_uint> values = read_buffer<cl_uint>(queues[i], counters[i], kItems);
    for (size_t item = 0; item < kItems; ++item) ASSERT_EQ(values[item], long_work_value(1, item) + 9) << item;
    clReleaseCommandQueue(queues[i]);
  }
}

// While an application keeps the queue busy with commands nothing names (direct commands,
// which the completion thread leaves unreaped while their submitter is busy), an event among
// them still completes: here the application only looks at its status, which neither waits
// nor registers anything, and goes on enqueuing until it sees CL_COMPLETE.
TEST_F(CudaWaits, AnEventAmongABurstOfWritesCompletesWhileTheBurstGoesOn) {
  Mem counter = zeros(1), word = zeros(1);
  const cl_uint value = 7;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), word, CL_FALSE, 0, 4, &value, 0, nullptr, nullptr), CL_SUCCESS);
  }
  cl_event marked = add_one(queue(), counter, 1, true);
  // Far more writes than the stream needs to reach the event (each costs the host microseconds).
  constexpr size_t kLimit = 400000;
  size_t writes = 0;
  while (event_status(marked) != CL_COMPLETE && writes < kLimit) {
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), word, CL_FALSE, 0, 4, &value, 0, nullptr, nullptr), CL_SUCCESS);
    ++writes;
  }
  EXPECT_LT(writes, kLimit);
  EXPECT_EQ(event_status(marked), CL_COMPLETE);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  cl_uint count = 0;
  ASSERT_EQ(clEnqueueReadBuffer(queue(), counter, CL_TRUE, 0, 4, &count, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(count, 1u);
  clReleaseEvent(marked);
}

// Commands nothing names wait longer to be finished while their submitter stays busy (the
// completion thread's merge window), but not for as long as it stays busy: a buffer that only
// such a command still holds is freed (its destructor callback runs) while the application goes
// on enqueuing, long before it would pause.
TEST_F(CudaWaits, ABufferOnlyADirectCommandHoldsIsFreedWhileTheBurstGoesOn) {
  Mem word = zeros(1);
  std::atomic<bool> freed{false};
  cl_int status = CL_SUCCESS;
  cl_mem held = clCreateBuffer(context(), CL_MEM_READ_WRITE, 4, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(clSetMemObjectDestructorCallback(
                held, [](cl_mem, void* flag) { static_cast<std::atomic<bool>*>(flag)->store(true); }, &freed),
            CL_SUCCESS);
  const cl_uint value = 7;
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), held, CL_FALSE, 0, 4, &value, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(held), CL_SUCCESS);  // the write's hold is the last
  // About a second of writes at a few microseconds each; the window is a millisecond.
  constexpr size_t kLimit = 400000;
  size_t writes = 0;
  while (!freed.load() && writes < kLimit) {
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), word, CL_FALSE, 0, 4, &value, 0, nullptr, nullptr), CL_SUCCESS);
    ++writes;
  }
  EXPECT_LT(writes, kLimit);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  EXPECT_TRUE(freed.load());
}

// clFinish over commands without events ends once the device has done them, which may come
// before the stream's thread has finished them (Stream::ended_through). What kernels wrote is
// there at once for the host (fine-grain SVM, read without a command: a wait that ended early
// would show the values of the round before), and what a command finishes on the host is not
// skipped: a non-blocking read's bytes, copied out of a page-locked slot.
TEST_F(CudaWaits, FinishOverCommandsWithoutEventsEndsAfterAllTheyDid) {
  if (!(svm_test::svm_capabilities(gpu) & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) GTEST_SKIP() << "no fine-grain SVM";
  SvmPointer out(context(), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, kItems * sizeof(cl_uint));
  SvmPointer counter(context(), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, sizeof(cl_uint));
  ASSERT_NE(out.get(), nullptr);
  ASSERT_NE(counter.get(), nullptr);
  Kernels kernels = own_kernels();
  for (cl_uint seed = 1; seed <= 3; ++seed) {
    set_args(kernels.long_work, cl_mem{nullptr}, seed, kLongSteps, kAffineMul, kAffineInc);
    ASSERT_EQ(clSetKernelArgSVMPointer(kernels.long_work, 0, out.get()), CL_SUCCESS);
    launch(queue(), kernels.long_work, kItems, false);
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
    for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(out.as<cl_uint>()[i], long_work_value(seed, i)) << seed << " " << i;
  }
  *counter.as<cl_uint>() = 0;
  ASSERT_EQ(clSetKernelArgSVMPointer(kernels.add_one, 0, counter.get()), CL_SUCCESS);
  Mem copy = zeros(1);
  for (cl_uint trip = 1; trip <= 300; ++trip) {
    launch(queue(), kernels.add_one, 1, false);
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
    ASSERT_EQ(*counter.as<cl_uint>(), trip);
    // The count goes on through a buffer, and comes back by a non-blocking read.
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), copy, CL_FALSE, 0, 4, counter.get(), 0, nullptr, nullptr), CL_SUCCESS);
    add_one(queue(), copy, 1, false);
    cl_uint read = 0;
    ASSERT_EQ(clEnqueueReadBuffer(queue(), copy, CL_FALSE, 0, 4, &read, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
    ASSERT_EQ(read, trip + 1);
  }
}

}  // namespace


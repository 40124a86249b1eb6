// SVM atomics between a host thread and a running kernel, on every device with them: the
// kernel waits for a flag the host sets while it runs (and then sees what the host wrote
// before), and both add to one counter, or increment one through compare-exchange, at once.
// Each kernel first meets the host: its work-items say they run and wait for the host's go,
// so that the host's operations fall within the kernel's; the waits are bounded on both
// sides, so that a device whose atomics do not reach the other side fails instead of hanging.
#include <atomic>
#include <chrono>
#include <cstring>
#include <initializer_list>
#include <thread>

#include "svm_test_helpers.h"

using namespace cucl_test;
using namespace svm_test;

namespace {

// One fine-grain allocation the host and the kernel meet in.
struct Meeting {
  std::atomic<cl_int> started;  // work-items that run
  std::atomic<cl_int> go;       // set by the host once a work-item runs
  std::atomic<cl_int> gave_up;  // work-items that stopped waiting for go
  cl_int payload;               // written by the host before go
};

// A work-item's side of the meeting: true once it saw the host's go, false after `patience`
// loads without it.
constexpr const char* kMeetTheHost = R"(
    bool meet_the_host(global atomic_int* meeting, int patience) {
      atomic_fetch_add_explicit(&meeting[0], 1, memory_order_release, memory_scope_all_svm_devices);
      for (int i = 0; i < patience; ++i) {
        if (atomic_load_explicit(&meeting[1], memory_order_acquire, memory_scope_all_svm_devices)) return true;
      }
      atomic_fetch_add_explicit(&meeting[2], 1, memory_order_relaxed, memory_scope_all_svm_devices);
      return false;
    }
)";

constexpr cl_svm_mem_flags kFineGrainAtomics =
    CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;

// Zeroes the allocation; false if there is none.
bool zeroed(const SvmPointer& pointer, size_t size) {
  if (!pointer.get()) return false;
  std::memset(pointer.get(), 0, size);
  return true;
}

class SvmAtomics : public SvmDeviceTest {
 protected:
  void SetUp() override {
    SvmDeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!has(CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS)) GTEST_SKIP() << "no SVM atomics";
    cl_device_type type = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    patience = type == CL_DEVICE_TYPE_CPU ? cl_int{1} << 30 : cl_int{1} << 22;
  }

  // Starts kernel(meeting, target, patience, more...) on `items` work-items, without waiting
  // for it.
  bool start(cl_kernel kernel, const SvmPointer& meeting, const SvmPointer& target, size_t items,
             std::initializer_list<cl_int> more = {}) {
    cl_uint index = 0;
    bool ok = clSetKernelArgSVMPointer(kernel, index++, meeting.get()) == CL_SUCCESS &&
              clSetKernelArgSVMPointer(kernel, index++, target.get()) == CL_SUCCESS &&
              clSetKernelArg(kernel, index++, sizeof patience, &patience) == CL_SUCCESS;
    for (cl_int value : more) ok = ok && clSetKernelArg(kernel, index++, sizeof value, &value) == CL_SUCCESS;
    return ok && clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &items, nullptr, 0, nullptr, nullptr) ==
                     CL_SUCCESS && clFlush(env.queue) == CL_SUCCESS;
  }

  // The host's side: waits (at most 30 s) for a work-item to run, then writes the payload and
  // sets go. True if a work-item ran in time.
  static bool meet_the_kernel(Meeting* meeting, cl_int payload) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (meeting->started.load(std::memory_order_acquire) == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    meeting->payload = payload;
    meeting->go.store(1, std::memory_order_release);
    return meeting->started.load(std::memory_order_acquire) != 0;
  }

  // Loads of the flag before a work-item gives up: a second or more on the CPU, seconds on a
  // GPU (a system-scope load and fence each), far more than the host needs to see the kernel
  // start and answer.
  cl_int patience = 0;
};

TEST_P(SvmAtomics, AKernelSeesAFlagTheHostSetsWhileItRuns) {
  SvmPointer meeting(env.context, kFineGrainAtomics, sizeof(Meeting));
  SvmPointer seen(env.context, kFineGrainAtomics, 64 * sizeof(cl_int));
  ASSERT_TRUE(zeroed(meeting, sizeof(Meeting)) && zeroed(seen, 64 * sizeof(cl_int)));
  BuiltProgram program(env, std::string(kMeetTheHost) + R"(
    kernel void wait_for_go(global atomic_int* meeting, global int* seen, int patience) {
      if (meet_the_host(meeting, patience)) seen[get_global_id(0)] = ((global int*)meeting)[3];
    })",
                       "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("wait_for_go");
  ASSERT_NE(kernel, nullptr);
  const size_t items = 64;
  ASSERT_TRUE(start(kernel, meeting, seen, items));
  auto* m = meeting.as<Meeting>();
  EXPECT_TRUE(meet_the_kernel(m, 42)) << "no work-item ran within 30 s";
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(m->started.load(), static_cast<cl_int>(items));
  EXPECT_EQ(m->gave_up.load(), 0) << "work-items that never saw the host's flag";
  for (size_t i = 0; i < items; ++i) EXPECT_EQ(seen.as<cl_int>()[i], 42) << "work-item " << i;
}

TEST_P(SvmAtomics, AHostThreadAndAKernelAddToOneCounterAtOnce) {
  SvmPointer meeting(env.context, kFineGrainAtomics, sizeof(Meeting));
  SvmPointer counter(env.context, kFineGrainAtomics, sizeof(cl_int));
  ASSERT_TRUE(zeroed(meeting, sizeof(Meeting)) && zeroed(counter, sizeof(cl_int)));
  BuiltProgram program(env, std::string(kMeetTheHost) + R"(
    kernel void add(global atomic_int* meeting, global atomic_int* count, int patience, int times) {
      meet_the_host(meeting, patience);
      for (int i = 0; i < times; ++i) {
        atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_all_svm_devices);
      }
    })",
                       "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("add");
  ASSERT_NE(kernel, nullptr);
  const cl_int times = 20000;
  const size_t items = 64;
  ASSERT_TRUE(start(kernel, meeting, counter, items, {times}));
  auto* count = counter.as<std::atomic<cl_int>>();
  const int host_adds = 200000;
  EXPECT_TRUE(meet_the_kernel(meeting.as<Meeting>(), 0)) << "no work-item ran within 30 s";
  for (int i = 0; i < host_adds; ++i) count->fetch_add(1, std::memory_order_relaxed);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(meeting.as<Meeting>()->gave_up.load(), 0) << "the kernel did not see the host start";
  EXPECT_EQ(count->load(), host_adds + times * static_cast<cl_int>(items));
}

// Half the work-items use the weak form, half the strong one; the host the strong one.
TEST_P(SvmAtomics, AHostThreadAndAKernelCompareExchangeOneCounterAtOnce) {
  SvmPointer meeting(env.context, kFineGrainAtomics, sizeof(Meeting));
  SvmPointer counter(env.context, kFineGrainAtomics, sizeof(cl_long));
  ASSERT_TRUE(zeroed(meeting, sizeof(Meeting)) && zeroed(counter, sizeof(cl_long)));
  BuiltProgram program(env, std::string(kMeetTheHost) + R"(
    kernel void increment(global atomic_int* meeting, global atomic_long* count, int patience, int times) {
      meet_the_host(meeting, patience);
      const bool weak = get_global_id(0) % 2;
      for (int i = 0; i < times; ++i) {
        long seen = atomic_load_explicit(count, memory_order_relaxed, memory_scope_all_svm_devices);
        while (weak ? !atomic_compare_exchange_weak_explicit(count, &seen, seen + 1, memory_order_acq_rel,
                                                             memory_order_relaxed, memory_scope_all_svm_devices)
                    : !atomic_compare_exchange_strong_explicit(count, &seen, seen + 1, memory_order_acq_rel,
                                                               memory_order_relaxed, memory_scope_all_svm_devices)) {
        }
      }
    })",
                       "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("increment");
  ASSERT_NE(kernel, nullptr);
  const cl_int times = 2000;
  const size_t items = 64;
  ASSERT_TRUE(start(kernel, meeting, counter, items, {times}));
  auto* count = counter.as<std::atomic<cl_long>>();
  const int host_increments = 100000;
  EXPECT_TRUE(meet_the_kernel(meeting.as<Meeting>(), 0)) << "no work-item ran within 30 s";
  for (int i = 0; i < host_increments; ++i) {
    cl_long seen = count->load(std::memory_order_relaxed);
    while (!count->compare_exchange_strong(seen, seen + 1, std::memory_order_acq_rel, std::memory_order_relaxed)) {
    }
  }
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(meeting.as<Meeting>()->gave_up.load(), 0) << "the kernel did not see the host start";
  EXPECT_EQ(count->load(), host_increments + static_cast<cl_long>(times) * static_cast<cl_long>(items));
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(EveryDevice, SvmAtomics, ::testing::ValuesIn(all_devices()), device_name);

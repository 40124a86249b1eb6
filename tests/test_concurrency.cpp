// Concurrency: out-of-order queues really run independent commands side by side and in any
// order, in-order queues never reorder (also with many enqueuing threads), and reference
// counts survive many threads. Each claim is shown with user events and callbacks, never
// by measuring time.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "event_test_helpers.h"

using namespace cucl_test;

namespace {

// Two commands that meet while both are running: each one's RUNNING callback (which runs
// on the thread executing that command, before its work) announces itself and then waits
// for the other. Only if the queue runs them at the same time can both see each other.
struct Rendezvous {
  std::mutex mutex;
  std::condition_variable changed;
  bool wait = true;
  int running = 0;
  int met = 0;

  static void CL_CALLBACK arrive(cl_event, cl_int status, void* user_data) {
    auto* self = static_cast<Rendezvous*>(user_data);
    std::unique_lock lock(self->mutex);
    ++self->running;
    self->changed.notify_all();
    if (self->wait && status == CL_RUNNING && self->changed.wait_for(lock, kPatience, [&] { return self->running >= 2; })) {
      ++self->met;
    }
  }
};

// Commands that each wait for their own user event (gates[i] holds back commands[i]), their
// COMPLETE callbacks logged with the index as tag; all released at scope exit.
struct GatedCommands {
  // `enqueue(i, gate)` enqueues command i, waiting for `gate`, and returns its event.
  template <class Enqueue>
  GatedCommands(const Env& env, int count, Enqueue enqueue) {
    for (int i = 0; i < count; ++i) {
      gates.push_back(user_event(env.context));
      commands.push_back(enqueue(i, gates.back()));
      log.watch(commands.back(), CL_COMPLETE, i);
    }
  }
  ~GatedCommands() {
    release_all(gates);
    release_all(commands);
  }
  GatedCommands(const GatedCommands&) = delete;
  GatedCommands& operator=(const GatedCommands&) = delete;

  std::vector<cl_event> gates, commands;
  CallbackLog log;
};

// first, first +- 1, ..., last.
std::vector<int> sequence(int first, int last) {
  std::vector<int> values{first};
  while (values.back() != last) values.push_back(values.back() + (first < last ? 1 : -1));
  return values;
}

}  // namespace

TEST(OutOfOrder, IndependentCommandsRunAtTheSameTime) {
  Env env(host_device(), kOoo);
  // The host device runs commands on oneTBB's worker threads, one per compute unit. Where
  // there are two, two ready commands must be running at once (also on a 2-core machine,
  // where oneTBB alone would give the device a single worker); with one compute unit they
  // can only take turns, and a meeting would wait in vain, so there the test checks that
  // both ran without asking them to meet.
  bool can_meet = info_value<cl_uint>(clGetDeviceInfo, env.device, CL_DEVICE_MAX_COMPUTE_UNITS) >= 2;
  Rendezvous rendezvous;
  rendezvous.wait = can_meet;
  cl_event gate = user_event(env.context);
  cl_event first = marker(env.queue, {gate});
  cl_event second = marker(env.queue, {gate});
  ASSERT_EQ(clSetEventCallback(first, CL_RUNNING, Rendezvous::arrive, &rendezvous), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(second, CL_RUNNING, Rendezvous::arrive, &rendezvous), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  cl_event both[] = {first, second};
  ASSERT_EQ(clWaitForEvents(2, both), CL_SUCCESS);
  std::lock_guard lock(rendezvous.mutex);
  EXPECT_EQ(rendezvous.running, 2);
  if (can_meet) {
    EXPECT_EQ(rendezvous.met, 2) << "the two commands never ran at the same time";
  }
  release_all({gate, first, second});
}

TEST(OutOfOrder, CommandsCompleteInTheOrderTheirDependenciesAllow) {
  Env env(host_device(), kOoo);
  constexpr int kCount = 8;
  GatedCommands gated(env, kCount, [&](int, cl_event gate) { return marker(env.queue, {gate}); });
  auto& [gates, commands, log] = gated;
  // Open the gates newest first; each command (callback included: it may trail the
  // status) is done before the next gate opens.
  for (int i = kCount - 1; i >= 0; --i) {
    ASSERT_EQ(clSetUserEventStatus(gates[i], CL_COMPLETE), CL_SUCCESS);
    ASSERT_TRUE(log.wait_for(kCount - i));
    EXPECT_EQ(event_status(commands[i]), CL_COMPLETE);
    if (i > 0) {
      EXPECT_EQ(event_status(commands[i - 1]), CL_QUEUED) << "enqueued earlier, still held back";
    }
  }
  EXPECT_EQ(log.tags(), sequence(kCount - 1, 0));
}

TEST(InOrder, NeverReordersWhateverTheDependencies) {
  Env env;
  constexpr int kCount = 8;
  GatedCommands gated(env, kCount, [&](int i, cl_event gate) {
    return i % 3 == 2 ? barrier(env.queue, {gate}) : marker(env.queue, {gate});
  });
  auto& [gates, commands, log] = gated;
  // Newest gate first: nothing may complete until the oldest gate opens.
  for (int i = kCount - 1; i > 0; --i) ASSERT_EQ(clSetUserEventStatus(gates[i], CL_COMPLETE), CL_SUCCESS);
  for (cl_event command : commands) EXPECT_EQ(event_status(command), CL_QUEUED);
  EXPECT_TRUE(log.entries().empty());
  ASSERT_EQ(clSetUserEventStatus(gates[0], CL_COMPLETE), CL_SUCCESS);
  ASSERT_TRUE(log.wait_for(kCount));
  EXPECT_EQ(log.tags(), sequence(0, kCount - 1));
}

TEST(InOrder, BufferWritesLandInEnqueueOrder) {
  Env env;
  constexpr int kCount = 16;
  cl_int error = 1;
  cl_mem buffer = clCreateBuffer(env.context, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  std::vector<cl_int> values(kCount);
  std::vector<cl_event> gates, writes;
  for (int i = 0; i < kCount; ++i) {
    values[i] = 100 + i;
    gates.push_back(user_event(env.context));
    cl_event write = nullptr;
    ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_FALSE, 0, sizeof(cl_int), &values[i], 1, &gates.back(),
                                   &write),
              CL_SUCCESS);
    writes.push_back(write);
  }
  for (int i = kCount - 1; i >= 0; --i) ASSERT_EQ(clSetUserEventStatus(gates[i], CL_COMPLETE), CL_SUCCESS);
  cl_int result = 0;
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, sizeof result, &result, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(result, values.back()) << "the last write enqueued is the last one done";
  for (cl_event write : writes) EXPECT_EQ(event_status(write), CL_COMPLETE);
  release_all(gates);
  release_all(writes);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
}

TEST(InOrder, ManyEnqueuingThreadsEachKeepTheirOrder) {
  Env env;
  constexpr int kThreads = 8, kPerThread = 200;
  std::mutex mutex;
  std::vector<std::pair<int, int>> completions;  // (thread, index) in completion order
  struct Tag {
    std::mutex* mutex;
    std::vector<std::pair<int, int>>* completions;
    int thread, index;
  };
  std::vector<std::vector<Tag>> tags(kThreads, std::vector<Tag>(kPerThread));
  cl_event gate = user_event(env.context);
  ASSERT_EQ(clEnqueueBarrierWithWaitList(env.queue, 1, &gate, nullptr), CL_SUCCESS);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        tags[t][i] = {&mutex, &completions, t, i};
        cl_event event = marker(env.queue);
        EXPECT_EQ(clSetEventCallback(
                      event, CL_COMPLETE,
                      [](cl_event, cl_int status, void* data) {
                        auto* tag = static_cast<Tag*>(data);
                        EXPECT_EQ(status, CL_COMPLETE);
                        std::lock_guard lock(*tag->mutex);
                        tag->completions->emplace_back(tag->thread, tag->index);
                      },
                      &tags[t][i]),
                  CL_SUCCESS);
        EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  for (int spins = 0; spins < 20000; ++spins) {
    {
      std::lock_guard lock(mutex);
      if (completions.size() == size_t{kThreads} * kPerThread) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::lock_guard lock(mutex);
  ASSERT_EQ(completions.size(), size_t{kThreads} * kPerThread);
  std::vector<int> next(kThreads, 0);
  for (auto [thread, index] : completions) {
    EXPECT_EQ(index, next[thread]) << "thread " << thread;
    next[thread] = index + 1;
  }
  EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);
}

TEST(RefCounts, ManyThreadsRetainAndReleaseOneObject) {
  Env env;
  cl_event event = user_event(env.context);
  constexpr int kThreads = 8, kRepeats = 5000;
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < kRepeats; ++i) {
        switch (t % 3) {
          case 0:
            EXPECT_EQ(clRetainContext(env.context), CL_SUCCESS);
            EXPECT_EQ(clReleaseContext(env.context), CL_SUCCESS);
            break;
          case 1:
            EXPECT_EQ(clRetainCommandQueue(env.queue), CL_SUCCESS);
            EXPECT_GE(ref_count(env.queue), 1u);
            EXPECT_EQ(clReleaseCommandQueue(env.queue), CL_SUCCESS);
            break;
          default:
            EXPECT_EQ(clRetainEvent(event), CL_SUCCESS);
            EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
            break;
        }
      }
    });
  }
  go = true;
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(ref_count(env.queue), 1u);
  EXPECT_EQ(ref_count(event), 1u);
  EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(RefCounts, RacingReleasesOfManyReferencesEndExactlyOnce) {
  Env env;
  constexpr int kThreads = 8, kPerThread = 500;
  cl_event event = user_event(env.context);
  for (int i = 1; i < kThreads * kPerThread; ++i) ASSERT_EQ(clRetainEvent(event), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  std::atomic<bool> go{false};
  std::atomic<int> successes{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < kPerThread; ++i) successes += clReleaseEvent(event) == CL_SUCCESS;
    });
  }
  go = true;
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(successes.load(), kThreads * kPerThread);
  EXPECT_EQ(clReleaseEvent(event), CL_INVALID_EVENT) << "every reference is gone";
}

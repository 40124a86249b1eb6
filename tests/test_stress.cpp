// Many threads at once: creating queues, user events and buffers, enqueueing markers,
// barriers and transfers with wait lists that cross threads and queues, failing some
// user events on purpose, and releasing everything while other threads still work.
// Every final status and every byte read back is checked.
#include <atomic>
#include <barrier>
#include <thread>

#include "event_test_helpers.h"

using namespace cucl_test;

namespace {

constexpr int kThreads = 8;
constexpr int kRounds = 200;
constexpr int kInts = 256;

cl_int expected(bool failed) { return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_COMPLETE; }

// Whether thread `t`'s user event fails in `round`.
bool fails(int t, int round) { return (t + round) % 5 == 0; }

struct Shared {
  cl_context context;
  cl_device_id device;
  cl_command_queue in_order;
  cl_command_queue out_of_order;
  std::vector<cl_event> gates = std::vector<cl_event>(kThreads);
  std::barrier<> sync{kThreads};
  std::atomic<int> callbacks{0};
};

void CL_CALLBACK count_callback(cl_event, cl_int, void* user_data) {
  ++static_cast<Shared*>(user_data)->callbacks;
}

void one_round(Shared& shared, int t, int round) {
  cl_command_queue own = make_queue(shared.context, shared.device,
                                    (t + round) % 2 ? kOoo : CL_QUEUE_PROFILING_ENABLE);
  cl_int error = 1;
  cl_mem buffer = clCreateBuffer(shared.context, CL_MEM_READ_WRITE, kInts * sizeof(cl_int), nullptr, &error);
  EXPECT_EQ(error, CL_SUCCESS);
  std::vector<cl_int> source(kInts), result(kInts, -1);
  for (int i = 0; i < kInts; ++i) source[i] = t * 100000 + round * 1000 + i;

  shared.gates[t] = user_event(shared.context);
  shared.sync.arrive_and_wait();  // every thread's gate exists

  cl_event mine = shared.gates[t];
  cl_event neighbour = shared.gates[(t + 1) % kThreads];
  bool mine_fails = fails(t, round), neighbour_fails = fails((t + 1) % kThreads, round);

  cl_event a = marker(shared.out_of_order, {mine});
  cl_event b = marker(shared.in_order, {neighbour});
  cl_event c = barrier(own, {a, b});
  EXPECT_EQ(clSetEventCallback(c, CL_COMPLETE, count_callback, &shared), CL_SUCCESS);
  cl_event d = marker(own);  // only ordered after c: it completes whatever c's fate
  cl_event write = nullptr, read = nullptr;
  EXPECT_EQ(clEnqueueWriteBuffer(own, buffer, CL_FALSE, 0, kInts * sizeof(cl_int), source.data(), 1, &mine, &write),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBuffer(shared.out_of_order, buffer, CL_FALSE, 0, kInts * sizeof(cl_int), result.data(), 1,
                                &write, &read),
            CL_SUCCESS);
  // Fire and forget, on queues other threads use too.
  EXPECT_EQ(clEnqueueMarkerWithWaitList(shared.in_order, 1, &b, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueBarrierWithWaitList(shared.out_of_order, 0, nullptr, nullptr), CL_SUCCESS);
  cl_event e = marker(shared.out_of_order);
  EXPECT_EQ(clRetainEvent(a), CL_SUCCESS);

  shared.sync.arrive_and_wait();  // nobody enqueues on the gates any more
  EXPECT_EQ(clSetUserEventStatus(mine, mine_fails ? -1 - t : CL_COMPLETE), CL_SUCCESS);
  release_all({mine, a});

  cl_event all[] = {a, b, c, d, write, read, e};
  cl_int wait_result = clWaitForEvents(7, all);
  EXPECT_EQ(wait_result, mine_fails || neighbour_fails ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS);
  EXPECT_EQ(event_status(a), expected(mine_fails));
  EXPECT_EQ(event_status(b), expected(neighbour_fails));
  EXPECT_EQ(event_status(c), expected(mine_fails || neighbour_fails));
  EXPECT_EQ(event_status(d), CL_COMPLETE);
  EXPECT_EQ(event_status(write), expected(mine_fails));
  EXPECT_EQ(event_status(read), expected(mine_fails));
  EXPECT_EQ(event_status(e), CL_COMPLETE);
  if (!mine_fails) {
    EXPECT_EQ(result, source) << "thread " << t << " round " << round;
  }
  for (cl_event event : all) EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(own), CL_SUCCESS);
}

}  // namespace

TEST(Stress, ThreadsShareQueuesEventsAndBuffers) {
  Env env;
  Shared shared;
  shared.context = env.context;
  shared.device = env.device;
  shared.in_order = env.queue;
  shared.out_of_order = make_queue(env.context, env.device, kOoo);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) one_round(shared, t, round);
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(clFinish(shared.out_of_order), CL_SUCCESS);
  ASSERT_EQ(clFinish(shared.in_order), CL_SUCCESS);
  // Callbacks may trail clWaitForEvents; all of them must come.
  for (int spins = 0; shared.callbacks.load() < kThreads * kRounds && spins < 20000; ++spins) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(shared.callbacks.load(), kThreads * kRounds);
  // Nothing kept a reference it should have dropped.
  EXPECT_EQ(ref_count(shared.out_of_order), 1u);
  EXPECT_EQ(ref_count(shared.in_order), 1u);
  EXPECT_EQ(clReleaseCommandQueue(shared.out_of_order), CL_SUCCESS);
}

TEST(Stress, ContextsQueuesAndEventsComeAndGoOnEveryThread) {
  cl_device_id device = host_device();
  std::atomic<int> destroyed{0};
  std::vector<std::thread> threads;
  constexpr int kLifetimes = 300;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kLifetimes; ++i) {
        cl_int error = 1;
        cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
        ASSERT_EQ(error, CL_SUCCESS);
        EXPECT_EQ(clSetContextDestructorCallback(
                      context, [](cl_context, void* data) { ++*static_cast<std::atomic<int>*>(data); }, &destroyed),
                  CL_SUCCESS);
        cl_command_queue queue = make_queue(context, device, (t + i) % 2 ? kOoo : 0);
        cl_event gate = user_event(context);
        // Commands left in flight when every handle is released.
        EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, &gate, nullptr), CL_SUCCESS);
        EXPECT_EQ(clEnqueueBarrierWithWaitList(queue, 0, nullptr, nullptr), CL_SUCCESS);
        cl_event last = marker(queue);
        EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
        EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
        EXPECT_EQ(clSetUserEventStatus(gate, i % 3 ? CL_COMPLETE : -7), CL_SUCCESS);
        EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);
        EXPECT_EQ(clWaitForEvents(1, &last), CL_SUCCESS) << "ordered after the gate, never failed by it";
        EXPECT_EQ(clReleaseEvent(last), CL_SUCCESS);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int spins = 0; destroyed.load() < kThreads * kLifetimes && spins < 20000; ++spins) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(destroyed.load(), kThreads * kLifetimes) << "every context is destroyed exactly once";
}

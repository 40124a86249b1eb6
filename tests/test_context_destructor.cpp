// clSetContextDestructorCallback: called once per registration, newest first, and only
// when the context is really destroyed (no queue, event or command holds it any more).
#include <atomic>
#include <thread>

#include "event_test_helpers.h"

using namespace cucl_test;

namespace {

struct DestructorLog {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<int> order;
  std::vector<cl_context> contexts;

  size_t size() {
    std::lock_guard lock(mutex);
    return order.size();
  }
  bool wait_for(size_t count) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, kPatience, [&] { return order.size() >= count; });
  }
};

struct Registration {
  DestructorLog* log;
  int tag;
};

void CL_CALLBACK record(cl_context context, void* user_data) {
  auto* registration = static_cast<Registration*>(user_data);
  std::lock_guard lock(registration->log->mutex);
  registration->log->order.push_back(registration->tag);
  registration->log->contexts.push_back(context);
  registration->log->changed.notify_all();
}

cl_context new_context() {
  cl_device_id device = host_device();
  cl_int error = 1;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  EXPECT_EQ(error, CL_SUCCESS);
  return context;
}

}  // namespace

TEST(ContextDestructor, CalledNewestFirstOnlyAtTheLastRelease) {
  DestructorLog log;
  Registration registrations[3] = {{&log, 0}, {&log, 1}, {&log, 2}};
  cl_context context = new_context();
  for (auto& registration : registrations) {
    ASSERT_EQ(clSetContextDestructorCallback(context, record, &registration), CL_SUCCESS);
  }
  ASSERT_EQ(clRetainContext(context), CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  EXPECT_EQ(log.size(), 0u);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  // Nothing else held the context: it is gone when the release returns.
  EXPECT_EQ(log.order, (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(log.contexts, (std::vector<cl_context>{context, context, context}));
}

TEST(ContextDestructor, NullCallbackIsInvalid) {
  cl_context context = new_context();
  EXPECT_EQ(clSetContextDestructorCallback(context, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

TEST(ContextDestructor, WaitsForTheLastQueue) {
  DestructorLog log;
  Registration registration{&log, 7};
  cl_context context = new_context();
  cl_command_queue first = make_queue(context, host_device(), 0);
  cl_command_queue second = make_queue(context, host_device(), CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_EQ(clSetContextDestructorCallback(context, record, &registration), CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  EXPECT_EQ(log.size(), 0u);
  ASSERT_EQ(clReleaseCommandQueue(first), CL_SUCCESS);
  EXPECT_EQ(log.size(), 0u);
  ASSERT_EQ(clReleaseCommandQueue(second), CL_SUCCESS);
  EXPECT_EQ(log.order, std::vector<int>{7});
}

TEST(ContextDestructor, WaitsForTheLastUserEvent) {
  DestructorLog log;
  Registration registration{&log, 1};
  cl_context context = new_context();
  cl_event event = user_event(context);
  ASSERT_EQ(clSetContextDestructorCallback(context, record, &registration), CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  EXPECT_EQ(log.size(), 0u);
  ASSERT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(log.size(), 0u);
  ASSERT_EQ(clReleaseEvent(event), CL_SUCCESS);
  EXPECT_EQ(log.order, std::vector<int>{1});
}

TEST(ContextDestructor, WaitsForCommandsInFlight) {
  DestructorLog log;
  Registration registration{&log, 3};
  cl_context context = new_context();
  cl_command_queue queue = make_queue(context, host_device(), 0);
  cl_event gate = user_event(context);
  // Commands the application keeps no event of: only the queue knows them.
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 1, &gate, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueBarrierWithWaitList(queue, 0, nullptr, nullptr), CL_SUCCESS);
  cl_event last = marker(queue);
  ASSERT_EQ(clSetContextDestructorCallback(context, record, &registration), CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  ASSERT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  ASSERT_EQ(clReleaseEvent(last), CL_SUCCESS);
  EXPECT_EQ(log.size(), 0u) << "the commands still wait for the gate";
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clReleaseEvent(gate), CL_SUCCESS);
  // The last command retires on a worker thread; the context goes with it.
  ASSERT_TRUE(log.wait_for(1)) << "the context was never destroyed";
  EXPECT_EQ(log.order, std::vector<int>{3});
}

TEST(ContextDestructor, EachContextCallsOnlyItsOwnCallbacks) {
  DestructorLog log;
  Registration a{&log, 10}, b{&log, 20};
  cl_context first = new_context();
  cl_context second = new_context();
  ASSERT_EQ(clSetContextDestructorCallback(first, record, &a), CL_SUCCESS);
  ASSERT_EQ(clSetContextDestructorCallback(second, record, &b), CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(second), CL_SUCCESS);
  EXPECT_EQ(log.order, std::vector<int>{20});
  ASSERT_EQ(clReleaseContext(first), CL_SUCCESS);
  EXPECT_EQ(log.order, (std::vector<int>{20, 10}));
  EXPECT_EQ(log.contexts, (std::vector<cl_context>{second, first}));
}

TEST(ContextDestructor, ConcurrentLastReleasesDestroyOnce) {
  // Many threads race to drop the references; exactly one destruction happens.
  for (int round = 0; round < 50; ++round) {
    DestructorLog log;
    Registration registration{&log, round};
    cl_context context = new_context();
    ASSERT_EQ(clSetContextDestructorCallback(context, record, &registration), CL_SUCCESS);
    constexpr int kThreads = 8;
    for (int i = 1; i < kThreads; ++i) ASSERT_EQ(clRetainContext(context), CL_SUCCESS);
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&] {
        while (!go.load()) std::this_thread::yield();
        EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
      });
    }
    go = true;
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(log.order, std::vector<int>{round});
  }
}

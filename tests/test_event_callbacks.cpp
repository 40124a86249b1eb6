// clSetEventCallback: each registration fires once, SUBMITTED before RUNNING before
// COMPLETE, immediately when registered late, and with the error status of failed events.
#include <atomic>
#include <thread>

#include "event_test_helpers.h"

using namespace cucl_test;

namespace {

constexpr cl_int kTriggers[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};

}  // namespace

TEST(EventCallback, FiresOncePerStatusInOrder) {
  for (cl_command_queue_properties bits : {0, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE}) {
    Env env(host_device(), bits);
    cl_event gate = user_event(env.context);
    cl_event gated = marker(env.queue, {gate});
    CallbackLog log;
    // Registered in reverse order: the firing order must still follow the statuses.
    log.watch(gated, CL_COMPLETE, 3);
    log.watch(gated, CL_RUNNING, 2);
    log.watch(gated, CL_SUBMITTED, 1);
    EXPECT_TRUE(log.entries().empty()) << "nothing may fire while the command waits";
    ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    ASSERT_TRUE(log.wait_for(3));
    EXPECT_EQ(log.tags(), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(log.statuses(), (std::vector<cl_int>{CL_SUBMITTED, CL_RUNNING, CL_COMPLETE}));
    for (const auto& entry : log.entries()) EXPECT_EQ(entry.event, gated);
    ASSERT_EQ(clWaitForEvents(1, &gated), CL_SUCCESS);
    EXPECT_EQ(log.entries().size(), 3u) << "each callback fires exactly once";
    release_all({gated, gate});
  }
}

TEST(EventCallback, SeveralCallbacksPerStatusAllFire) {
  Env env;
  cl_event gate = user_event(env.context);
  cl_event gated = marker(env.queue, {gate});
  CallbackLog log;
  for (int i = 0; i < 4; ++i) log.watch(gated, CL_COMPLETE, i);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_TRUE(log.wait_for(4));
  EXPECT_EQ(log.tags(), (std::vector<int>{0, 1, 2, 3})) << "one status's callbacks fire in registration order";
  release_all({gated, gate});
}

TEST(EventCallback, LateRegistrationFiresImmediately) {
  Env env;
  cl_event event = marker(env.queue);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  CallbackLog log;
  int tag = 0;
  for (cl_int trigger : kTriggers) {
    log.watch(event, trigger, ++tag);
    // On the calling thread, before clSetEventCallback returns.
    ASSERT_EQ(log.entries().size(), static_cast<size_t>(tag));
    EXPECT_EQ(log.entries().back().status, trigger);
  }
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(EventCallback, UserEventCallbacks) {
  Env env;
  cl_event event = user_event(env.context);
  CallbackLog log;
  log.watch(event, CL_SUBMITTED, 1);  // a user event is submitted from the start
  ASSERT_EQ(log.entries().size(), 1u);
  EXPECT_EQ(log.entries()[0].status, CL_SUBMITTED);
  log.watch(event, CL_COMPLETE, 3);
  log.watch(event, CL_RUNNING, 2);
  EXPECT_EQ(log.entries().size(), 1u);
  ASSERT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  // Set on this thread: its callbacks have run when the call returns.
  EXPECT_EQ(log.tags(), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(log.statuses(), (std::vector<cl_int>{CL_SUBMITTED, CL_RUNNING, CL_COMPLETE}));
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(EventCallback, ErrorStatusReachesEveryCallback) {
  Env env;
  cl_event gate = user_event(env.context);
  cl_event gated = marker(env.queue, {gate});
  CallbackLog log;
  log.watch(gate, CL_COMPLETE, 0);
  int tag = 0;
  for (cl_int trigger : kTriggers) log.watch(gated, trigger, ++tag);
  ASSERT_EQ(clSetUserEventStatus(gate, -5), CL_SUCCESS);
  ASSERT_TRUE(log.wait_for(4));
  EXPECT_EQ(log.tags(), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(log.statuses(), (std::vector<cl_int>{-5, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                                                 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                                                 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST}));
  // Registered after the failure: fires at once with the error.
  log.watch(gated, CL_RUNNING, 9);
  EXPECT_EQ(log.entries().back().status, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  release_all({gated, gate});
}

TEST(EventCallback, BadArguments) {
  Env env;
  cl_event event = user_event(env.context);
  auto noop = [](cl_event, cl_int, void*) {};
  EXPECT_EQ(clSetEventCallback(event, CL_COMPLETE, nullptr, nullptr), CL_INVALID_VALUE);
  for (cl_int trigger : {CL_QUEUED, -1, 4, 100}) {
    EXPECT_EQ(clSetEventCallback(event, trigger, noop, nullptr), CL_INVALID_VALUE) << trigger;
  }
  EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

namespace {

std::atomic<int> released_in_callback{0};

void CL_CALLBACK release_self(cl_event event, cl_int, void*) {
  if (clReleaseEvent(event) == CL_SUCCESS) ++released_in_callback;
}

}  // namespace

TEST(EventCallback, CallbackMayReleaseTheLastReference) {
  Env env;
  released_in_callback = 0;
  cl_event gate = user_event(env.context);
  constexpr int kCount = 16;
  for (int i = 0; i < kCount; ++i) {
    cl_event event = marker(env.queue, {gate});
    // The application gives its reference to the callback and forgets the event.
    ASSERT_EQ(clSetEventCallback(event, CL_COMPLETE, release_self, nullptr), CL_SUCCESS);
  }
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  // clFinish may return before the last callback did; wait for them.
  for (int spins = 0; released_in_callback.load() < kCount && spins < 20000; ++spins) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(released_in_callback.load(), kCount);
  EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);
}

// Events: clWaitForEvents, event info, profiling info and user events, through the loader.
#include <atomic>
#include <thread>

#include "event_test_helpers.h"

using namespace cucl_test;

namespace {

cl_int profiling(cl_event event, cl_profiling_info param, cl_ulong* value) {
  return clGetEventProfilingInfo(event, param, sizeof *value, value, nullptr);
}

constexpr cl_profiling_info kCounters[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                           CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                           CL_PROFILING_COMMAND_COMPLETE};

void expect_no_profiling(cl_event event) {
  for (cl_profiling_info param : kCounters) {
    cl_ulong value = 0;
    EXPECT_EQ(profiling(event, param, &value), CL_PROFILING_INFO_NOT_AVAILABLE) << "param 0x" << std::hex << param;
  }
}

}  // namespace

TEST(WaitForEvents, ListMustBeGiven) {
  Env env;
  cl_event event = marker(env.queue);
  EXPECT_EQ(clWaitForEvents(0, &event), CL_INVALID_VALUE);
  EXPECT_EQ(clWaitForEvents(1, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clWaitForEvents(0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(WaitForEvents, BadEventsAreInvalid) {
  Env env;
  cl_event good = marker(env.queue);
  cl_event released = marker(env.queue);
  ASSERT_EQ(clWaitForEvents(1, &released), CL_SUCCESS);
  ASSERT_EQ(clReleaseEvent(released), CL_SUCCESS);
  for (cl_event bad : {cl_event{nullptr}, released, reinterpret_cast<cl_event>(env.queue),
                       reinterpret_cast<cl_event>(env.context)}) {
    cl_event first_bad[] = {bad, good};
    cl_event second_bad[] = {good, bad};
    // A NULL first entry is answered by the loader, the rest by cucl.
    EXPECT_EQ(clWaitForEvents(2, first_bad), CL_INVALID_EVENT);
    EXPECT_EQ(clWaitForEvents(2, second_bad), CL_INVALID_EVENT);
  }
  EXPECT_EQ(clReleaseEvent(good), CL_SUCCESS);
}

TEST(WaitForEvents, EventsOfTwoContextsAreInvalid) {
  Env first, second;
  cl_event events[] = {user_event(first.context), user_event(second.context)};
  EXPECT_EQ(clWaitForEvents(2, events), CL_INVALID_CONTEXT);
  for (cl_event event : events) {
    EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
    EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
  }
}

TEST(WaitForEvents, FailedEventIsReported) {
  Env env;
  cl_event ok = user_event(env.context);
  cl_event failed = user_event(env.context);
  ASSERT_EQ(clSetUserEventStatus(ok, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(failed, -5), CL_SUCCESS);
  cl_event both[] = {ok, failed};
  EXPECT_EQ(clWaitForEvents(1, &ok), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(2, both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(clWaitForEvents(1, &failed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  release_all({ok, failed});
}

TEST(WaitForEvents, BlocksUntilAnotherThreadCompletesTheEvent) {
  Env env;
  cl_event gate = user_event(env.context);
  cl_event gated = marker(env.queue, {gate});
  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    EXPECT_EQ(clWaitForEvents(1, &gated), CL_SUCCESS);
    returned = true;
  });
  EXPECT_EQ(event_status(gated), CL_QUEUED);
  EXPECT_FALSE(returned.load()) << "returned while its event could not have completed";
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  waiter.join();
  EXPECT_EQ(event_status(gated), CL_COMPLETE);
  release_all({gated, gate});
}

TEST(EventInfo, CommandEventsReportTheirOrigin) {
  Env env;
  cl_event mark = marker(env.queue);
  cl_event bar = barrier(env.queue);
  ASSERT_EQ(clWaitForEvents(1, &bar), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_command_queue>(clGetEventInfo, mark, CL_EVENT_COMMAND_QUEUE), env.queue);
  EXPECT_EQ(info_value<cl_context>(clGetEventInfo, mark, CL_EVENT_CONTEXT), env.context);
  EXPECT_EQ(event_type(mark), cl_command_type{CL_COMMAND_MARKER});
  EXPECT_EQ(event_type(bar), cl_command_type{CL_COMMAND_BARRIER});
  EXPECT_EQ(info_value<cl_int>(clGetEventInfo, mark, CL_EVENT_COMMAND_EXECUTION_STATUS), CL_COMPLETE);
  EXPECT_EQ(info_value<cl_uint>(clGetEventInfo, mark, CL_EVENT_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainEvent(mark), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(clGetEventInfo, mark, CL_EVENT_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseEvent(mark), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(clGetEventInfo, mark, CL_EVENT_REFERENCE_COUNT), 1u);
  cl_event legacy = nullptr;
  ASSERT_EQ(clEnqueueMarker(env.queue, &legacy), CL_SUCCESS);
  EXPECT_EQ(event_type(legacy), cl_command_type{CL_COMMAND_MARKER});
  for (cl_event event : {mark, bar, legacy}) EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(EventInfo, StatusOfAGatedCommandIsQueued) {
  Env env;
  cl_event gate = user_event(env.context);
  cl_event gated = marker(env.queue, {gate});
  ASSERT_NO_FATAL_FAILURE(expect_held_back_by(gate, gated));
  EXPECT_EQ(event_status(gated), CL_COMPLETE);
  release_all({gated, gate});
}

TEST(EventInfo, BadParamSmallBufferAndBadHandles) {
  Env env;
  cl_event event = marker(env.queue);
  cl_int status = 0;
  EXPECT_EQ(clGetEventInfo(event, 0x11ff, sizeof status, &status, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, 2, &status, nullptr), CL_INVALID_VALUE);
  size_t size = 0;
  EXPECT_EQ(clGetEventInfo(event, CL_EVENT_CONTEXT, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_context));
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  cl_event released = event;
  ASSERT_EQ(clReleaseEvent(event), CL_SUCCESS);
  for (cl_event bad : {released, cl_event{nullptr}, reinterpret_cast<cl_event>(env.queue),
                       reinterpret_cast<cl_event>(env.context)}) {
    EXPECT_EQ(clGetEventInfo(bad, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
              CL_INVALID_EVENT);
    cl_ulong value = 0;
    EXPECT_EQ(profiling(bad, CL_PROFILING_COMMAND_END, &value), CL_INVALID_EVENT);
    EXPECT_EQ(clRetainEvent(bad), CL_INVALID_EVENT);
    EXPECT_EQ(clReleaseEvent(bad), CL_INVALID_EVENT);
    EXPECT_EQ(clSetUserEventStatus(bad, CL_COMPLETE), CL_INVALID_EVENT);
    EXPECT_EQ(clSetEventCallback(bad, CL_COMPLETE, [](cl_event, cl_int, void*) {}, nullptr), CL_INVALID_EVENT);
  }
}

TEST(Profiling, CountersAreOrderedAndNonzero) {
  for (cl_command_queue_properties bits :
       {CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE}) {
    Env env(host_device(), bits);
    std::vector<cl_event> events = {marker(env.queue), barrier(env.queue), marker(env.queue)};
    cl_event legacy = nullptr;
    ASSERT_EQ(clEnqueueMarker(env.queue, &legacy), CL_SUCCESS);
    events.push_back(legacy);
    ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
    for (cl_event event : events) {
      cl_ulong previous = 0;
      for (cl_profiling_info param : kCounters) {
        cl_ulong value = 0;
        size_t size = 0;
        ASSERT_EQ(clGetEventProfilingInfo(event, param, sizeof value, &value, &size), CL_SUCCESS);
        EXPECT_EQ(size, sizeof(cl_ulong));
        EXPECT_NE(value, 0u);
        EXPECT_GE(value, previous) << "param 0x" << std::hex << param;
        previous = value;
      }
      cl_ulong end = 0, complete = 0;
      profiling(event, CL_PROFILING_COMMAND_END, &end);
      profiling(event, CL_PROFILING_COMMAND_COMPLETE, &complete);
      EXPECT_EQ(complete, end) << "no child commands: COMPLETE equals END";
      EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
    }
  }
}

TEST(Profiling, SubmitComesAfterTheDependencyIsMet) {
  Env env(host_device(), CL_QUEUE_PROFILING_ENABLE);
  cl_event gate = user_event(env.context);
  cl_event gated = marker(env.queue, {gate});
  cl_ulong before_gate = 0, host = 0;
  ASSERT_EQ(clGetDeviceAndHostTimer(env.device, &before_gate, &host), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &gated), CL_SUCCESS);
  cl_ulong queued = 0, submit = 0;
  ASSERT_EQ(profiling(gated, CL_PROFILING_COMMAND_QUEUED, &queued), CL_SUCCESS);
  ASSERT_EQ(profiling(gated, CL_PROFILING_COMMAND_SUBMIT, &submit), CL_SUCCESS);
  EXPECT_LE(queued, before_gate) << "queued when enqueued";
  EXPECT_GE(submit, before_gate) << "submitted only once the gate was open";
  release_all({gated, gate});
}

TEST(Profiling, NotAvailableWithoutProfilingForUserAndIncompleteEvents) {
  Env plain;
  cl_event event = marker(plain.queue);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  expect_no_profiling(event);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);

  Env profiled(host_device(), CL_QUEUE_PROFILING_ENABLE);
  cl_event gate = user_event(profiled.context);
  expect_no_profiling(gate);
  cl_event gated = marker(profiled.queue, {gate});
  expect_no_profiling(gated);  // still queued
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  expect_no_profiling(gate);   // complete, but a user event
  ASSERT_EQ(clWaitForEvents(1, &gated), CL_SUCCESS);
  cl_ulong value = 0;
  EXPECT_EQ(profiling(gated, CL_PROFILING_COMMAND_END, &value), CL_SUCCESS);
  release_all({gated, gate});
}

TEST(Profiling, NotAvailableForFailedCommands) {
  Env env(host_device(), CL_QUEUE_PROFILING_ENABLE);
  cl_event gate = user_event(env.context);
  cl_event failed = marker(env.queue, {gate});
  ASSERT_EQ(clSetUserEventStatus(gate, -3), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &failed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  expect_no_profiling(failed);
  release_all({failed, gate});
}

TEST(Profiling, BadParamAndSmallBuffer) {
  Env env(host_device(), CL_QUEUE_PROFILING_ENABLE);
  cl_event event = marker(env.queue);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  cl_ulong value = 0;
  EXPECT_EQ(profiling(event, CL_PROFILING_COMMAND_QUEUED - 1, &value), CL_INVALID_VALUE);
  EXPECT_EQ(profiling(event, CL_PROFILING_COMMAND_COMPLETE + 1, &value), CL_INVALID_VALUE);
  EXPECT_EQ(profiling(event, CL_EVENT_COMMAND_TYPE, &value), CL_INVALID_VALUE);
  EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, 4, &value, nullptr), CL_INVALID_VALUE);
  size_t size = 0;
  EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_ulong));
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(UserEvent, StartsSubmittedWithNoQueue) {
  Env env;
  cl_event event = user_event(env.context);
  EXPECT_EQ(info_value<cl_int>(clGetEventInfo, event, CL_EVENT_COMMAND_EXECUTION_STATUS), CL_SUBMITTED);
  EXPECT_EQ(event_type(event), cl_command_type{CL_COMMAND_USER});
  EXPECT_EQ(info_value<cl_command_queue>(clGetEventInfo, event, CL_EVENT_COMMAND_QUEUE), nullptr);
  EXPECT_EQ(info_value<cl_context>(clGetEventInfo, event, CL_EVENT_CONTEXT), env.context);
  EXPECT_EQ(info_value<cl_uint>(clGetEventInfo, event, CL_EVENT_REFERENCE_COUNT), 1u);
  ASSERT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(event_status(event), CL_COMPLETE);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(UserEvent, StatusCanBeSetOnce) {
  Env env;
  for (cl_int first : {CL_COMPLETE, -1, -1000}) {
    cl_event event = user_event(env.context);
    ASSERT_EQ(clSetUserEventStatus(event, first), CL_SUCCESS);
    EXPECT_EQ(event_status(event), first);
    EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_INVALID_OPERATION);
    EXPECT_EQ(clSetUserEventStatus(event, -2), CL_INVALID_OPERATION);
    EXPECT_EQ(event_status(event), first);
    EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
  }
}

TEST(UserEvent, PositiveStatusIsInvalid) {
  Env env;
  cl_event event = user_event(env.context);
  for (cl_int status : {CL_SUBMITTED, CL_RUNNING, CL_QUEUED, 1, 42}) {
    EXPECT_EQ(clSetUserEventStatus(event, status), CL_INVALID_VALUE) << status;
  }
  EXPECT_EQ(event_status(event), CL_SUBMITTED) << "a rejected call changes nothing";
  EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(UserEvent, CommandEventsAreNotUserEvents) {
  Env env;
  cl_event event = marker(env.queue);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_INVALID_EVENT);
  EXPECT_EQ(clSetUserEventStatus(event, -1), CL_INVALID_EVENT);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(UserEvent, RacingSettersHaveOneWinner) {
  Env env;
  for (int round = 0; round < 100; ++round) {
    cl_event event = user_event(env.context);
    std::atomic<int> winners{0}, losers{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i) {
      threads.emplace_back([&, i] {
        while (!go.load()) std::this_thread::yield();
        cl_int result = clSetUserEventStatus(event, i == 0 ? CL_COMPLETE : -1 - i);
        if (result == CL_SUCCESS) ++winners;
        if (result == CL_INVALID_OPERATION) ++losers;
      });
    }
    go = true;
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(winners.load(), 1);
    EXPECT_EQ(losers.load(), 3);
    EXPECT_LE(event_status(event), CL_COMPLETE);
    EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
  }
}

// Markers, barriers and the 1.x synchronization commands on in-order and out-of-order
// queues, their errors, and how a failed event propagates through them. Every ordering
// claim is shown with user events holding commands back, never with timing.
#include "event_test_helpers.h"

using namespace cucl_test;

namespace {

// A user event that is already complete: a dependency that never holds anything back.
cl_event done_event(cl_context context) {
  cl_event event = user_event(context);
  EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  return event;
}

// Enqueues a marker whose own wait list is already complete and checks that it still waits
// for `gate`: something enqueued before it (a barrier) holds it back until the gate opens.
void expect_later_marker_waits_for(const Env& env, cl_event gate) {
  cl_event ready = done_event(env.context);
  cl_event later = marker(env.queue, {ready});
  ASSERT_NO_FATAL_FAILURE(expect_held_back_by(gate, later, "commands after a barrier wait for it"));
  release_all({ready, later});
}

}  // namespace

TEST(Marker, EmptyWaitListWaitsForEveryEarlierCommand) {
  for (cl_command_queue_properties bits : {cl_command_queue_properties{0}, kOoo}) {
    Env env(host_device(), bits);
    cl_event gate_a = user_event(env.context), gate_b = user_event(env.context);
    cl_event a = marker(env.queue, {gate_a});
    cl_event b = marker(env.queue, {gate_b});
    cl_event all = marker(env.queue);
    ASSERT_EQ(clSetUserEventStatus(gate_a, CL_COMPLETE), CL_SUCCESS);
    if (bits & kOoo) {
      ASSERT_EQ(clWaitForEvents(1, &a), CL_SUCCESS);
    }
    EXPECT_EQ(event_status(all), CL_QUEUED) << "b is still held back";
    ASSERT_EQ(clSetUserEventStatus(gate_b, CL_COMPLETE), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &all), CL_SUCCESS);
    EXPECT_EQ(event_status(a), CL_COMPLETE);
    EXPECT_EQ(event_status(b), CL_COMPLETE);
    release_all({gate_a, gate_b, a, b, all});
  }
}

TEST(Marker, WaitListOnOutOfOrderQueueWaitsOnlyForTheList) {
  Env env(host_device(), kOoo);
  cl_event gate = user_event(env.context);
  cl_event held = marker(env.queue, {gate});
  cl_event ready = done_event(env.context);
  cl_event listed = marker(env.queue, {ready});
  ASSERT_EQ(clWaitForEvents(1, &listed), CL_SUCCESS);
  EXPECT_EQ(event_status(held), CL_QUEUED) << "the marker did not need the held command";
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  release_all({gate, held, ready, listed});
}

TEST(Marker, WaitListOnInOrderQueueStillFollowsEarlierCommands) {
  Env env;
  cl_event gate = user_event(env.context);
  cl_event held = marker(env.queue, {gate});
  cl_event ready = done_event(env.context);
  cl_event listed = marker(env.queue, {ready});
  ASSERT_NO_FATAL_FAILURE(expect_held_back_by(gate, listed, "an in-order queue never reorders"));
  EXPECT_EQ(event_status(held), CL_COMPLETE);
  release_all({gate, held, ready, listed});
}

TEST(Barrier, EmptyWaitListHoldsBackLaterCommands) {
  Env env(host_device(), kOoo);
  cl_event gate = user_event(env.context);
  cl_event held = marker(env.queue, {gate});
  cl_event fence = barrier(env.queue);
  cl_event ready = done_event(env.context);
  cl_event later = marker(env.queue, {ready});
  cl_event later_without_list = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(env.queue, 1, &ready, &later_without_list), CL_SUCCESS);
  EXPECT_EQ(event_status(fence), CL_QUEUED);
  EXPECT_EQ(event_status(later), CL_QUEUED) << "commands after a barrier wait for it";
  EXPECT_EQ(event_status(later_without_list), CL_QUEUED);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  for (cl_event event : {held, fence, later, later_without_list}) EXPECT_EQ(event_status(event), CL_COMPLETE);
  release_all({gate, held, fence, ready, later, later_without_list});
}

TEST(Barrier, WaitListWaitsForTheListAndHoldsBackLaterCommands) {
  Env env(host_device(), kOoo);
  cl_event unrelated_gate = user_event(env.context);
  cl_event unrelated = marker(env.queue, {unrelated_gate});
  cl_event gate = user_event(env.context);
  cl_event fence = barrier(env.queue, {gate});
  ASSERT_NO_FATAL_FAILURE(expect_later_marker_waits_for(env, gate));
  EXPECT_EQ(event_status(fence), CL_COMPLETE);
  EXPECT_EQ(event_status(unrelated), CL_QUEUED) << "the barrier waited only for its list";
  ASSERT_EQ(clSetUserEventStatus(unrelated_gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  release_all({unrelated_gate, unrelated, gate, fence});
}

TEST(Barrier, BarriersChain) {
  Env env(host_device(), kOoo);
  cl_event gate = user_event(env.context);
  cl_event first = barrier(env.queue, {gate});
  cl_event ready = done_event(env.context);
  cl_event second = barrier(env.queue, {ready});  // its own list is ready, but the first barrier is not
  EXPECT_EQ(event_status(second), CL_QUEUED);
  ASSERT_NO_FATAL_FAILURE(expect_later_marker_waits_for(env, gate));
  EXPECT_EQ(event_status(first), CL_COMPLETE);
  EXPECT_EQ(event_status(second), CL_COMPLETE);
  release_all({gate, first, ready, second});
}

TEST(Legacy, EnqueueMarkerWaitsForEverythingEarlier) {
  Env env(host_device(), kOoo);
  cl_event gate = user_event(env.context);
  cl_event held = marker(env.queue, {gate});
  cl_event legacy = nullptr;
  ASSERT_EQ(clEnqueueMarker(env.queue, &legacy), CL_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(expect_held_back_by(gate, legacy));
  EXPECT_EQ(event_status(held), CL_COMPLETE);
  EXPECT_EQ(clEnqueueMarker(env.queue, nullptr), CL_INVALID_VALUE);
  release_all({gate, held, legacy});
}

TEST(Legacy, EnqueueBarrierHoldsBackLaterCommands) {
  Env env(host_device(), kOoo);
  cl_event gate = user_event(env.context);
  cl_event held = marker(env.queue, {gate});
  ASSERT_EQ(clEnqueueBarrier(env.queue), CL_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(expect_later_marker_waits_for(env, gate));
  EXPECT_EQ(event_status(held), CL_COMPLETE);
  release_all({gate, held});
}

TEST(Legacy, EnqueueWaitForEventsHoldsBackLaterCommands) {
  Env env(host_device(), kOoo);
  cl_event gate = user_event(env.context);
  ASSERT_EQ(clEnqueueWaitForEvents(env.queue, 1, &gate), CL_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(expect_later_marker_waits_for(env, gate));
  EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);
}

TEST(Legacy, EnqueueWaitForEventsErrors) {
  Env env, other;
  cl_event mine = done_event(env.context);
  cl_event foreign = done_event(other.context);
  EXPECT_EQ(clEnqueueWaitForEvents(env.queue, 0, &mine), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWaitForEvents(env.queue, 1, nullptr), CL_INVALID_VALUE);
  cl_event with_null[] = {mine, nullptr};
  EXPECT_EQ(clEnqueueWaitForEvents(env.queue, 2, with_null), CL_INVALID_EVENT);
  cl_event with_queue[] = {mine, reinterpret_cast<cl_event>(env.queue)};
  EXPECT_EQ(clEnqueueWaitForEvents(env.queue, 2, with_queue), CL_INVALID_EVENT);
  EXPECT_EQ(clEnqueueWaitForEvents(env.queue, 1, &foreign), CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueWaitForEvents(env.queue, 1, &mine), CL_SUCCESS);
  release_all({mine, foreign});
}

TEST(WaitList, MalformedListsAreRejected) {
  Env env, other;
  cl_event good = done_event(env.context);
  cl_event foreign = done_event(other.context);
  cl_event released = done_event(env.context);
  ASSERT_EQ(clReleaseEvent(released), CL_SUCCESS);
  using Enqueue = cl_int (*)(cl_command_queue, cl_uint, const cl_event*, cl_event*);
  for (Enqueue enqueue : {Enqueue{clEnqueueMarkerWithWaitList}, Enqueue{clEnqueueBarrierWithWaitList}}) {
    cl_event out = nullptr;
    EXPECT_EQ(enqueue(env.queue, 1, nullptr, &out), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_EQ(enqueue(env.queue, 0, &good, &out), CL_INVALID_EVENT_WAIT_LIST);
    for (cl_event bad : {cl_event{nullptr}, released, reinterpret_cast<cl_event>(env.context)}) {
      cl_event list[] = {good, bad};
      EXPECT_EQ(enqueue(env.queue, 2, list, &out), CL_INVALID_EVENT_WAIT_LIST);
    }
    cl_event mixed[] = {good, foreign};
    EXPECT_EQ(enqueue(env.queue, 2, mixed, &out), CL_INVALID_CONTEXT);
    EXPECT_EQ(out, nullptr) << "no event comes back from a failed enqueue";
    // And without an event to return, a valid call still works.
    EXPECT_EQ(enqueue(env.queue, 1, &good, nullptr), CL_SUCCESS);
  }
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  release_all({good, foreign});
}

TEST(WaitList, EventsOfAnotherQueueOfTheContext) {
  Env env;
  cl_command_queue second = make_queue(env.context, env.device, kOoo);
  cl_event gate = user_event(env.context);
  cl_event there = marker(second, {gate});
  cl_event here = marker(env.queue, {there});
  ASSERT_NO_FATAL_FAILURE(expect_held_back_by(gate, here));
  EXPECT_EQ(event_status(there), CL_COMPLETE);
  release_all({gate, there, here});
  EXPECT_EQ(clReleaseCommandQueue(second), CL_SUCCESS);
}

TEST(ErrorPropagation, FailedUserEventFailsTheChain) {
  for (cl_command_queue_properties bits : {cl_command_queue_properties{0}, kOoo}) {
    Env env(host_device(), bits);
    cl_event gate = user_event(env.context);
    cl_event failed_marker = marker(env.queue, {gate});
    cl_event dependent = marker(env.queue, {failed_marker});
    cl_event fence = barrier(env.queue, {dependent});
    CallbackLog log;
    log.watch(failed_marker, CL_COMPLETE, 1);
    log.watch(dependent, CL_COMPLETE, 2);
    log.watch(fence, CL_COMPLETE, 3);
    ASSERT_EQ(clSetUserEventStatus(gate, -5), CL_SUCCESS);
    EXPECT_EQ(clWaitForEvents(1, &fence), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    for (cl_event event : {failed_marker, dependent, fence}) {
      EXPECT_EQ(event_status(event), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    ASSERT_TRUE(log.wait_for(3));
    for (const auto& entry : log.entries()) EXPECT_EQ(entry.status, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_EQ(event_status(gate), -5);
    // The queue itself keeps working for commands that do not depend on the failure.
    cl_event afterwards = marker(env.queue);
    EXPECT_EQ(clWaitForEvents(1, &afterwards), CL_SUCCESS);
    release_all({gate, failed_marker, dependent, fence, afterwards});
  }
}

TEST(ErrorPropagation, OneFailedDependencyAmongManyFailsTheCommand) {
  Env env(host_device(), kOoo);
  cl_event ok = user_event(env.context), bad = user_event(env.context);
  cl_event both = marker(env.queue, {ok, bad});
  ASSERT_EQ(clSetUserEventStatus(ok, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(event_status(both), CL_QUEUED);
  ASSERT_EQ(clSetUserEventStatus(bad, -1), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(event_status(both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  release_all({ok, bad, both});
}

TEST(ErrorPropagation, QueueOrderAloneDoesNotPropagate) {
  // Only wait lists carry failures. Commands that merely come after a failed one (in-order
  // successors, markers and barriers without a list) run normally, whether they were
  // enqueued before or after the failure, so the outcome never depends on timing.
  for (cl_command_queue_properties bits : {cl_command_queue_properties{0}, kOoo}) {
    Env env(host_device(), bits);
    cl_event gate = user_event(env.context);
    cl_event failed = marker(env.queue, {gate});
    cl_event after_marker = marker(env.queue);
    cl_event after_barrier = barrier(env.queue);
    EXPECT_EQ(event_status(after_marker), CL_QUEUED);
    ASSERT_EQ(clSetUserEventStatus(gate, -5), CL_SUCCESS);
    EXPECT_EQ(clWaitForEvents(1, &after_barrier), CL_SUCCESS);
    EXPECT_EQ(event_status(failed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_EQ(event_status(after_marker), CL_COMPLETE);
    EXPECT_EQ(event_status(after_barrier), CL_COMPLETE);
    release_all({gate, failed, after_marker, after_barrier});
  }
}

TEST(ErrorPropagation, LongChainsFailWithoutExhaustingTheStack) {
  for (cl_command_queue_properties bits : {cl_command_queue_properties{0}, kOoo}) {
    Env env(host_device(), bits);
    constexpr int kLength = 50000;
    cl_event gate = user_event(env.context);
    cl_event previous = gate;
    cl_event first = nullptr;
    for (int i = 0; i < kLength; ++i) {
      cl_event next = marker(env.queue, {previous});
      if (previous != gate) {
        EXPECT_EQ(clReleaseEvent(previous), CL_SUCCESS);
      }
      if (!first) {
        first = next;
        EXPECT_EQ(clRetainEvent(first), CL_SUCCESS);
      }
      previous = next;
    }
    ASSERT_EQ(clSetUserEventStatus(gate, -2), CL_SUCCESS);
    // The whole chain has failed when the call that failed its root returns.
    EXPECT_EQ(event_status(first), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_EQ(event_status(previous), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
    release_all({gate, first, previous});
  }
}

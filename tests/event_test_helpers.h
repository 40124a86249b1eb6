// Helpers shared by the context, queue, event and concurrency tests.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "support/test_support.h"

namespace cucl_test {

// How long a test waits for something that must happen (a callback, a thread) before it
// fails instead of hanging. Never an assertion about speed.
constexpr std::chrono::seconds kPatience{20};

constexpr cl_command_queue_properties kOoo = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;

inline void release_all(const std::vector<cl_event>& events) {
  for (cl_event event : events) EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

inline cl_event marker(cl_command_queue queue, std::vector<cl_event> wait = {}) {
  cl_event event = nullptr;
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(),
                                        &event),
            CL_SUCCESS);
  return event;
}

inline cl_event barrier(cl_command_queue queue, std::vector<cl_event> wait = {}) {
  cl_event event = nullptr;
  EXPECT_EQ(clEnqueueBarrierWithWaitList(queue, static_cast<cl_uint>(wait.size()),
                                         wait.empty() ? nullptr : wait.data(), &event),
            CL_SUCCESS);
  return event;
}

// Checks that `event` waits for the user event `gate`: still queued while the gate is
// closed, complete once it opens (opened here).
inline void expect_held_back_by(cl_event gate, cl_event event, const char* why = "") {
  EXPECT_EQ(event_status(event), CL_QUEUED) << why;
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
}

inline cl_command_queue make_queue(cl_context context, cl_device_id device, cl_command_queue_properties properties) {
  cl_int error = 1;
  cl_command_queue queue = clCreateCommandQueue(context, device, properties, &error);
  EXPECT_EQ(error, CL_SUCCESS);
  return queue;
}

// Records what event callbacks report, in the order they fire, from any thread.
class CallbackLog {
 public:
  struct Entry {
    cl_event event;
    cl_int status;
    int tag;
  };

  // Registers a callback for `trigger` on `event` whose entry carries `tag`.
  void watch(cl_event event, cl_int trigger, int tag) {
    auto* context = new Watch{this, tag};
    {
      std::lock_guard lock(mutex_);
      watches_.push_back(context);
    }
    EXPECT_EQ(clSetEventCallback(event, trigger, &CallbackLog::fire, context), CL_SUCCESS);
  }

  // Waits until at least `count` callbacks have fired; false if they did not in time.
  bool wait_for(size_t count) {
    std::unique_lock lock(mutex_);
    return fired_.wait_for(lock, kPatience, [&] { return entries_.size() >= count; });
  }

  std::vector<Entry> entries() {
    std::lock_guard lock(mutex_);
    return entries_;
  }
  std::vector<int> tags() {
    std::vector<int> result;
    for (const Entry& entry : entries()) result.push_back(entry.tag);
    return result;
  }
  std::vector<cl_int> statuses() {
    std::vector<cl_int> result;
    for (const Entry& entry : entries()) result.push_back(entry.status);
    return result;
  }

  ~CallbackLog() {
    for (Watch* watch : watches_) delete watch;
  }

 private:
  struct Watch {
    CallbackLog* log;
    int tag;
  };

  static void CL_CALLBACK fire(cl_event event, cl_int status, void* user_data) {
    auto* watch = static_cast<Watch*>(user_data);
    std::lock_guard lock(watch->log->mutex_);
    watch->log->entries_.push_back({event, status, watch->tag});
    watch->log->fired_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable fired_;
  std::vector<Entry> entries_;
  std::vector<Watch*> watches_;
};

}  // namespace cucl_test

// A cl_command_queue: orders commands (in-order, or out-of-order with barriers) and hands
// ready ones to the device's stream.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "backends/backend.h"
#include "platform/objects/api_ref.h"
#include "platform/queue/command.h"
#include "platform/objects/context.h"
#include "platform/queue/event.h"
#include "platform/queue/unfinished_events.h"

namespace cucl {

// How a command orders itself against earlier commands of its queue. Only the wait list
// carries failures (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST); the queue's own
// ordering just makes a command come later (see Command::follow).
enum class Ordering {
  Normal,   // after its wait list (and, in an in-order queue, the previous command)
  Marker,   // an empty wait list means: after every earlier command
  Barrier,  // like Marker, and every later command waits for it
};

class Queue final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Queue;
  static constexpr cl_int kInvalidHandle = CL_INVALID_COMMAND_QUEUE;

  Queue(Ref<Context> context, Device* device, cl_command_queue_properties properties,
        std::vector<cl_queue_properties> properties_array);

  Context& context() const { return *context_; }
  Device& device() const { return *device_; }
  cl_command_queue_properties properties() const { return properties_; }
  const std::vector<cl_queue_properties>& properties_array() const { return properties_array_; }
  bool in_order() const { return !(properties_ & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }
  bool profiling() const { return properties_ & CL_QUEUE_PROFILING_ENABLE; }
  // An in-order queue whose stream keeps submission order (and, when profiling, times the
  // work on the device: host stamps would count the wait behind earlier commands as run
  // time): each command goes to the stream once the previous one has been submitted, not
  // once it has finished.
  bool pipelined() const { return pipelined_; }
  backend::Stream& stream() { return *stream_; }
  cl_command_queue id() { return reinterpret_cast<cl_command_queue>(handle()); }

  // Validates `wait_list` against this queue's context, then enqueues. The returned event
  // is internal (not yet published to the application).
  Ref<Event> enqueue(CommandSpec spec, const std::vector<Ref<Event>>& wait_list,
                     Ordering ordering = Ordering::Normal);
  // Waits until every command enqueued so far has finished.
  void finish();
  // Called by a command when it is done.
  void command_done(Event* event);
  // Pipelined queues: `command` has been handed to the stream, or finished without it. Returns
  // the command waiting for that (at most once), which the caller resolves.
  Command* submission_done(Command& command);

 private:
  // Registers the dependencies `ordering` implies; called with mutex_ held.
  void order(Command& command, Event* event, const std::vector<Ref<Event>>& wait_list, Ordering ordering);

  void on_api_released() override { context_pin_.reset(); }

  Ref<Context> context_;
  ApiRef<Context> context_pin_;  // CL_QUEUE_CONTEXT is a valid handle while the queue's is
  Device* device_;
  cl_command_queue_properties properties_;
  std::vector<cl_queue_properties> properties_array_;
  std::unique_ptr<backend::Stream> stream_;
  bool pipelined_;

  std::mutex mutex_;
  UnfinishedEvents unfinished_;            // each holds its event
  Event* last_ = nullptr;                  // in-order: the newest unfinished command
  Event* barrier_ = nullptr;               // out-of-order: the newest unfinished barrier
  Command* unsubmitted_ = nullptr;         // pipelined: the newest command not yet submitted
};

}  // namespace cucl

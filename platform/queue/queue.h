// A cl_command_queue: orders commands (in-order, or out-of-order with barriers) and hands
// ready ones to the device's stream.
#pragma once

#include <mutex>
#include <vector>

#include "base/spin_lock.h"
#include "platform/queue/command.h"
#include "platform/queue/event.h"
#include "platform/queue/finished_count.h"
#include "platform/queue/queue_base.h"
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

class Queue final : public QueueBase {
 public:
  Queue(Ref<Context> context, Device* device, cl_command_queue_properties properties,
        std::vector<cl_queue_properties> properties_array)
      : QueueBase(std::move(context), device, properties, std::move(properties_array)) {}

  // Validates `wait_list` against this queue's context, then enqueues. The returned event
  // is internal (not yet published to the application). `blocking`: the calling thread waits
  // for the command's end next.
  Ref<Event> enqueue(CommandSpec&& spec, const std::vector<Ref<Event>>& wait_list,
                     Ordering ordering = Ordering::Normal, bool blocking = false);
  // A command nothing names (no wait list, no event, not blocking) of a pipelined queue goes
  // to the stream at once as a DirectCommand (direct_command.h), unless an earlier command
  // still waits to be submitted. True when it took `spec`; false leaves it as it was, for
  // enqueue().
  bool enqueue_direct(CommandSpec& spec);
  // Waits until every command enqueued so far has finished.
  void finish();
  void command_done(Event* event) override;
  Command* submission_done(Command& command) override;
  void direct_command_done() override { direct_finished_.add_one(); }

 private:
  // Registers the dependencies `ordering` implies; called with mutex_ held.
  void order(Command& command, Event* event, const std::vector<Ref<Event>>& wait_list, Ordering ordering);

  SpinLock mutex_;  // short sections, taken by the enqueuing thread and the finishing one per command
  UnfinishedEvents unfinished_;            // each holds its event
  Event* last_ = nullptr;                  // in-order: the newest unfinished command
  Event* barrier_ = nullptr;               // out-of-order: the newest unfinished barrier
  Command* unsubmitted_ = nullptr;         // pipelined: the newest command not yet submitted
  uint64_t direct_submitted_ = 0;          // direct commands handed to the stream
  FinishedCount direct_finished_;          // and how many of them have finished
};

}  // namespace cucl

// One enqueued command on its way through the backend: it waits for its dependencies,
// is submitted to the queue's stream, and completes its event. It deletes itself when done.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "backends/backend.h"
#include "platform/event.h"

namespace cucl {

class Queue;

// What an enqueue asks for, before ordering is decided.
struct CommandSpec {
  cl_command_type type = 0;
  backend::Operation operation;
  std::vector<Ref<Object>> keep_alive;  // objects the work touches (memory objects)
  // Runs after the work (or instead of it, when a dependency failed) with the final status.
  std::function<void(cl_int)> on_finish;
};

class Command final : public backend::Work, public EventListener {
 public:
  Command(Ref<Queue> queue, Ref<Event> event, CommandSpec spec);

  // Before arm(): one more event to wait for. A wait-list event that fails makes this
  // command fail with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
  void depend_on(Event& event);
  // Before arm(): an event this command must merely come after (the queue's own ordering:
  // the previous command of an in-order queue, a barrier, "every earlier command" of a
  // marker). Its failure does not fail this command, so whether a command fails never
  // depends on how far earlier commands had got when it was enqueued.
  void follow(Event& event);
  // After every dependency is registered: submits the command once they are all done.
  void arm() { dependency_resolved(); }

  const backend::Operation& operation() const override { return spec_.operation; }
  void started() override;
  void finished(cl_int status) override;
  void event_done(cl_int status) override;

 private:
  void dependency_resolved();
  void fail_for_dependency();

  // Hears the events of follow(): counts them down, ignores their status.
  struct OrderListener final : EventListener {
    explicit OrderListener(Command& command) : command(command) {}
    void event_done(cl_int) override { command.dependency_resolved(); }
    Command& command;
  };

  OrderListener order_listener_{*this};
  Ref<Queue> queue_;
  Ref<Event> event_;
  CommandSpec spec_;
  std::atomic<int> unresolved_{1};  // the arm() guard counts as one
  std::atomic<bool> dependency_failed_{false};
};

}  // namespace cucl

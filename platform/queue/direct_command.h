// A command that goes to its queue's stream as it is enqueued. In a pipelined queue (its
// stream keeps submission order) a command that nothing names -- no wait list, no event for
// the application, no blocking call, no memory to make current on another device -- follows
// the previous command without the host's help. It needs none of Command's dependency
// machinery and no Event: one record, handed to the stream by the enqueuing thread, whose end
// the queue counts (clFinish waits for that count, Queue::finish).
#pragma once

#include <cstddef>
#include <string_view>

#include "backends/backend.h"
#include "platform/queue/command.h"
#include "platform/queue/queue_base.h"

namespace cucl {

class DirectCommand final : public backend::Work {
 public:
  // Made on the application's thread and freed on the one that finishes it (command_memory.cpp).
  static void* operator new(std::size_t size);
  static void operator delete(void* memory, std::size_t size);

  DirectCommand(QueueBase& queue, CommandSpec&& spec) : queue_(&queue), spec_(std::move(spec)) {}

  const backend::Operation& operation() const override { return spec_.operation; }
  void started() override {}
  bool observable() const override { return false; }  // no event: clFinish counts it
  // Letting go of the application's own memory is seen too: after clFinish it may free that
  // memory, and commands not yet finished would keep its registration with a driver.
  bool finishes_on_host() const override {
    return static_cast<bool>(spec_.on_finish) || spec_.keep_alive.holds_application_memory();
  }
  bool finishing_may_destroy() const override { return spec_.keep_alive.holds_a_last_hold(); }
  // Runs on_finish, lets go of what the command held, tells the queue and deletes itself.
  void finished(cl_int status) override;
  void report_error(std::string_view message) override;
  // The stream did not take it (Stream::submit threw): on_finish hears the failure, the queue
  // counts nothing, and the command deletes itself.
  void abandon();

 private:
  Ref<QueueBase> queue_;
  CommandSpec spec_;
};

}  // namespace cucl

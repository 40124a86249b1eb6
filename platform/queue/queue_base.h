// What a queue is to its commands and their events: the object they belong to (an event
// reports it and keeps its handle valid), its context, device, properties and stream, and
// the two reports a command makes back when it has been submitted or has finished. Queue
// (queue.h) builds the ordering of commands on this; events and commands know only this
// part, so that they come before the queue instead of calling each other in a circle.
#pragma once

#include <memory>
#include <vector>

#include "backends/backend.h"
#include "platform/objects/api_ref.h"
#include "platform/objects/context.h"
#include "platform/objects/device.h"
#include "platform/objects/object.h"

namespace cucl {

class Command;
class Event;

class QueueBase : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Queue;
  static constexpr cl_int kInvalidHandle = CL_INVALID_COMMAND_QUEUE;

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

  // Called by a command when it is done.
  virtual void command_done(Event* event) = 0;
  // Pipelined queues: `command` has been handed to the stream, or finished without it. Returns
  // the command waiting for that (at most once), which the caller resolves.
  virtual Command* submission_done(Command& command) = 0;
  // A direct command (direct_command.h) has finished; they finish in submission order.
  virtual void direct_command_done() = 0;

 protected:
  QueueBase(Ref<Context> context, Device* device, cl_command_queue_properties properties,
            std::vector<cl_queue_properties> properties_array);
  ~QueueBase() override;

 private:
  void on_api_released() override { context_pin_.reset(); }

  Ref<Context> context_;
  ApiRef<Context> context_pin_;  // CL_QUEUE_CONTEXT is a valid handle while the queue's is
  Device* device_;
  cl_command_queue_properties properties_;
  std::vector<cl_queue_properties> properties_array_;
  std::unique_ptr<backend::Stream> stream_;
  bool pipelined_;
};

}  // namespace cucl

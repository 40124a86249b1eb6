#include "platform/command.h"

#include "platform/queue.h"

namespace cucl {

Command::Command(Ref<Queue> queue, Ref<Event> event, CommandSpec spec)
    : queue_(std::move(queue)), event_(std::move(event)), spec_(std::move(spec)) {}

void Command::depend_on(Event& event) {
  unresolved_.fetch_add(1, std::memory_order_relaxed);
  if (!event.add_listener(this)) event_done(event.status());
}

void Command::event_done(cl_int status) {
  if (status < 0) dependency_failed_.store(true, std::memory_order_relaxed);
  dependency_resolved();
}

void Command::dependency_resolved() {
  if (unresolved_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (dependency_failed_.load(std::memory_order_relaxed)) {
    finished(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  event_->set_status(CL_SUBMITTED);
  queue_->stream().submit(*this);
}

void Command::started() { event_->set_status(CL_RUNNING); }

void Command::finished(cl_int status) {
  if (spec_.on_finish) spec_.on_finish(status);
  spec_ = {};  // a failed command gives back what it held before anyone sees its status
  queue_->command_done(event_.get());
  event_->set_status(status < 0 ? status : CL_COMPLETE);
  delete this;
}

}  // namespace cucl

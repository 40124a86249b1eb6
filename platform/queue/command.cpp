#include "platform/queue/command.h"

#include <algorithm>

#include "base/error.h"
#include "platform/memory/memory.h"
#include "platform/queue/queue_base.h"

namespace cucl {

// The commands whose last dependency resolved on this thread while it was starting another
// one, started one after another by the outermost call. Starting a command can end or
// release others (a failed dependency fails the commands waiting for it, a pipelined
// submission lets the next command go): done recursively, a long chain of dependent
// commands would overflow the stack. Either way, all of them have started (or failed)
// before the call that released the first one returns.
struct ReadyCommands {
  Command* head = nullptr;
  Command* tail = nullptr;

  void push(Command* command) {
    command->next_ready_ = nullptr;
    (tail ? tail->next_ready_ : head) = command;
    tail = command;
  }
  Command* pop() {
    Command* command = head;
    if (command) {
      head = command->next_ready_;
      if (!head) tail = nullptr;
    }
    return command;
  }
};

namespace {

// initial-exec: the loader dlopens libcucl, and a dynamic TLS block there trips
// LeakSanitizer on worker threads; one static TLS pointer fits glibc's reserve for that.
thread_local ReadyCommands* ready_on_this_thread __attribute__((tls_model("initial-exec"))) = nullptr;

}  // namespace

void Command::start_ready(Command* first) {
  ReadyCommands ready;
  struct Listing {
    explicit Listing(ReadyCommands* list) : outer(std::exchange(ready_on_this_thread, list)) {}
    ~Listing() { ready_on_this_thread = outer; }
    ReadyCommands* outer;
  } listing(&ready);
  for (Command* command = first; command; command = ready.pop()) {
    if (command->ready_to_complete_) {
      cl_int status = command->deferred_status_;
      if (status >= 0 && command->dependency_failed_.load(std::memory_order_relaxed)) {
        status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
      }
      // A transfer it followed on the device failed: what it read was not current.
      if (status >= 0) status = std::min(status, command->transfer_status_.load(std::memory_order_relaxed));
      command->complete(status);
    } else {
      command->start();
    }
  }
}

Command::Command(QueueBase& queue, Ref<Event> event, CommandSpec&& spec)
    : queue_(&queue), event_(std::move(event)), spec_(std::move(spec)) {}

void Command::depend_on(Event& event) { add_dependency(event, *this); }

void Command::follow(Event& event) { add_dependency(event, order_listener_); }

void Command::add_dependency(Event& event, SubmissionListener& listener) {
  unresolved_.fetch_add(1, std::memory_order_relaxed);
  if (can_follow_on_device(event)) {
    switch (event.add_submission_listener(&listener)) {
      case Event::Progress::Pending:
        return;
      case Event::Progress::HandedOver:
        // Usually so (an in-order CUDA queue submits as it enqueues): the point marked now
        // may also cover later work of that stream, which only adds order.
        listener.event_handed_over(event);
        return;
      case Event::Progress::Done:
        listener.event_done(event.status());
        return;
    }
  }
  event.listen(listener);
}

bool Command::can_follow_on_device(const Event& event) const {
  // Profiled commands whose stream does not time them on the device keep to the host's
  // ordering (their START would include the wait). Commands that make memory current
  // across devices (contexts of several devices) hand the points they follow to the
  // transfers they start (transfer_waits), which thus come after the work they follow.
  QueueBase* earlier = event.queue();
  return earlier && can_follow_stream(earlier->stream());
}

bool Command::can_follow_stream(const backend::Stream& earlier) const {
  backend::Stream& stream = queue_->stream();
  return (!queue_->profiling() || stream.times_work()) && stream.can_follow_on_device(earlier, spec_.operation);
}

void Command::follow_transfer(std::shared_ptr<backend::StreamPoint> point) {
  unended_ordered_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard lock(device_order_mutex_);
  follows_transfers_ = true;
  if (point) points_.push_back(std::move(point));
}

bool Command::transfer_waits(const backend::Stream& first_step,
                             std::vector<std::shared_ptr<backend::StreamPoint>>& waits) {
  waits = points_;
  backend::Stream& own = queue_->stream();
  // A stream the transfer's cannot follow on the device runs nothing of this command's past
  // that is not over already (its dependencies ended before it started).
  if (drained_ || !first_step.can_follow_on_device(own, backend::op::Copy{})) return true;
  std::shared_ptr<backend::StreamPoint> point;
  bool marked = false;
  try {
    marked = own.mark(first_step, point);
  } catch (...) {
  }
  if (!marked) {
    // Its end, when all earlier work has ended, resumes this command (no stream finishes
    // work inside submit()).
    try {
      own.submit(drain_);
    } catch (...) {
      fail(CL_OUT_OF_RESOURCES);  // the command fails rather than copy too early
    }
    return false;
  }
  if (point) waits.push_back(std::move(point));
  return true;
}

void Command::stream_drained(cl_int status) {
  drained_ = true;
  memory_ready(status);
}

void Command::transfer_settled(cl_int status) {
  if (status < 0) {
    cl_int none = CL_SUCCESS;
    transfer_status_.compare_exchange_strong(none, status, std::memory_order_relaxed);
  }
  ordered_done(CL_SUCCESS, false);
}

void Command::ordered_on_device(Event& event, bool carries_failure) {
  std::shared_ptr<backend::StreamPoint> point;
  bool marked = false;
  try {
    marked = event.queue()->stream().mark(queue_->stream(), point);
  } catch (...) {
  }
  if (!marked) {
    event.listen(carries_failure ? static_cast<EventListener&>(*this) : order_listener_);
    return;
  }
  {
    std::lock_guard lock(device_order_mutex_);
    device_ordered_.push_back({Ref<Event>(&event), carries_failure});
    if (point) points_.push_back(std::move(point));
  }
  dependency_resolved();
}

void Command::follow_submission(Command& predecessor) {
  unresolved_.fetch_add(1, std::memory_order_relaxed);
  predecessor.successor_ = this;
}

void Command::arm() {
  // Its own list, even inside another command's start (an event callback that enqueues): a
  // blocking enqueue there must not wait for a command that only starts after the callback.
  if (resolve_one()) start_ready(this);
}

void Command::event_done(cl_int status) {
  if (status < 0) dependency_failed_.store(true, std::memory_order_relaxed);
  dependency_resolved();
}

void Command::dependency_resolved() {
  if (resolve_one()) schedule();
}

void Command::schedule() {
  if (ReadyCommands* ready = ready_on_this_thread) {
    ready->push(this);
    return;
  }
  start_ready(this);
}

void Command::start() {
  if (dependency_failed_.load(std::memory_order_relaxed)) {
    finished(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  event_->set_status(CL_SUBMITTED);
  if (spec_.accesses.empty()) {
    submit_work();
  } else {
    prepare_memory();
  }
}

void Command::prepare_memory() {
  // Like submission, this runs on whatever thread completed the last dependency or
  // transfer: failures end the command.
  while (next_access_ < spec_.accesses.size()) {
    const MemoryAccess& access = spec_.accesses[next_access_];
    bool ready = false;
    try {
      ready = access.storage->coherence().acquire(access.device, access.begin, access.end, access.access,
                                                  memory_listener_);
    } catch (const Error& error) {
      finished(error.code());
      return;
    } catch (...) {
      finished(CL_OUT_OF_RESOURCES);
      return;
    }
    if (!ready) return;  // memory_ready() goes on from here, perhaps already on another thread
    ++next_access_;
  }
  submit_work();
}

void Command::memory_ready(cl_int status) {
  if (status < 0) {
    finished(status);
    return;
  }
  prepare_memory();
}

void Command::submit_work() {
  if (!queue_->pipelined()) {
    submit_to_stream();  // from here the stream owns the command
    return;
  }
  // The stream may finish the command before submit() returns: it stays allocated (if
  // perhaps finished) until its successor has been let go, and the event keeps the queue.
  Ref<Event> event = event_;
  QueueBase& queue = *queue_;
  lifetime_.fetch_add(1, std::memory_order_relaxed);
  submit_to_stream();
  submission_done(queue);
  release_lifetime();
}

void Command::submit_to_stream() {
  Ref<Event> event = event_;  // the stream may finish the command, which lets go of it
  // This may run inside another event's completion, on any thread: a failure to hand the
  // work over must end this command, not escape into that thread.
  try {
    queue_->stream().submit(*this);
  } catch (...) {
    finished(CL_OUT_OF_RESOURCES);
  }
  event->handed_over();
}

void Command::submission_done(QueueBase& queue) {
  if (Command* next = queue.submission_done(*this)) next->dependency_resolved();
}

void Command::started() { event_->set_status(CL_RUNNING); }

void Command::report_error(std::string_view message) { queue_->context().notify(std::string(message)); }

void Command::finished(cl_int status) {
  if ((!device_ordered_.empty() || follows_transfers_) && wait_for_ordered(status)) return;
  complete(status);
}

bool Command::wait_for_ordered(cl_int status) {
  deferred_status_ = status;
  for (const DeviceOrdered& ordered : device_ordered_) {
    unended_ordered_.fetch_add(1, std::memory_order_relaxed);
    ordered.event->listen(ordered.carries_failure ? after_wait_listener_ : after_order_listener_);
  }
  ordered_done(CL_SUCCESS, false);  // the work's own count
  return true;
}

void Command::ordered_done(cl_int status, bool carries_failure) {
  if (status < 0 && carries_failure) dependency_failed_.store(true, std::memory_order_relaxed);
  if (unended_ordered_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  // A chain of such commands would otherwise complete recursively, one frame per command.
  ready_to_complete_ = true;
  schedule();
}

cl_int end_work(CommandSpec& spec, cl_int status) {
  if (spec.on_finish) {
    try {
      spec.on_finish(status);
    } catch (...) {
      if (status >= 0) status = CL_OUT_OF_RESOURCES;
    }
  }
  spec = {};
  return status;
}

void Command::complete(cl_int status) {
  device_ordered_.clear();
  points_.clear();
  status = end_work(spec_, status);
  QueueBase* queue = queue_;
  Ref<Event> event = std::move(event_);  // holds the queue till the end
  // Pipelined: a command that never reached the stream (a failed dependency or transfer)
  // lets its successor go here; one that did has let it go already, or does so now.
  Command* next = queue->pipelined() ? queue->submission_done(*this) : nullptr;
  release_lifetime();
  // The status is final before the event leaves the queue's unfinished list: clFinish
  // waits only for the events it finds there.
  event->set_status(status < 0 ? status : CL_COMPLETE);
  queue->command_done(event.get());
  if (next) next->dependency_resolved();
}

}  // namespace cucl

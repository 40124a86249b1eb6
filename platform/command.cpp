#include "platform/command.h"

#include "platform/error.h"
#include "platform/memory.h"
#include "platform/queue.h"

namespace cucl {
namespace {

// A failed dependency ends a command at once, on the thread that saw the failure, and
// that ends the commands waiting for it in turn. Done recursively, a long chain of
// dependent commands would overflow the stack; so the outermost failure on a thread
// collects the ones it causes here and ends them one after another. Either way, all of
// them have failed before the call that caused the first failure returns.
// initial-exec: the loader dlopens libcucl, and a dynamic TLS block there trips
// LeakSanitizer on worker threads; one static TLS pointer fits glibc's reserve for that.
thread_local std::vector<Command*>* failing_on_this_thread __attribute__((tls_model("initial-exec"))) = nullptr;

}  // namespace

void Command::fail_for_dependency() {
  if (failing_on_this_thread) {
    failing_on_this_thread->push_back(this);
    return;
  }
  std::vector<Command*> failing{this};
  struct Collecting {
    explicit Collecting(std::vector<Command*>& list) { failing_on_this_thread = &list; }
    ~Collecting() { failing_on_this_thread = nullptr; }
  } collecting(failing);
  while (!failing.empty()) {
    Command* command = failing.back();
    failing.pop_back();
    command->finished(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  }
}

Command::Command(Ref<Queue> queue, Ref<Event> event, CommandSpec spec)
    : queue_(std::move(queue)), event_(std::move(event)), spec_(std::move(spec)) {}

void Command::depend_on(Event& event) {
  unresolved_.fetch_add(1, std::memory_order_relaxed);
  if (!event.add_listener(this)) event_done(event.status());
}

void Command::follow(Event& event) {
  unresolved_.fetch_add(1, std::memory_order_relaxed);
  if (!event.add_listener(&order_listener_)) dependency_resolved();
}

void Command::event_done(cl_int status) {
  if (status < 0) dependency_failed_.store(true, std::memory_order_relaxed);
  dependency_resolved();
}

void Command::dependency_resolved() {
  if (unresolved_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (dependency_failed_.load(std::memory_order_relaxed)) {
    fail_for_dependency();
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
  // This may run inside another event's completion, on any thread: a failure to hand the
  // work over must end this command, not escape into that thread.
  try {
    queue_->stream().submit(*this);
  } catch (...) {
    finished(CL_OUT_OF_RESOURCES);
  }
}

void Command::started() { event_->set_status(CL_RUNNING); }

void Command::finished(cl_int status) {
  if (spec_.on_finish) {
    try {
      spec_.on_finish(status);
    } catch (...) {
      if (status >= 0) status = CL_OUT_OF_RESOURCES;
    }
  }
  spec_ = {};  // a failed command gives back what it held before anyone sees its status
  Ref<Queue> queue = std::move(queue_);
  Ref<Event> event = std::move(event_);
  delete this;
  // The status is final before the event leaves the queue's unfinished list: clFinish
  // waits only for the events it finds there.
  event->set_status(status < 0 ? status : CL_COMPLETE);
  queue->command_done(event.get());
}

}  // namespace cucl

// One enqueued command on its way through the backend: it waits for its dependencies,
// is submitted to the queue's stream, and completes its event. It deletes itself when done.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "backends/backend.h"
#include "platform/queue/event.h"
#include "platform/queue/held_objects.h"
#include "platform/memory/memory_access.h"
#include "platform/memory/memory_coherence.h"

namespace cucl {

class QueueBase;

// What an enqueue asks for, before ordering is decided.
struct CommandSpec {
  cl_command_type type = 0;
  backend::Operation operation;
  HeldObjects keep_alive;  // objects the work touches (memory objects, the kernel)
  // Runs after the work (or instead of it, when a dependency failed) with the final status.
  std::function<void(cl_int)> on_finish;
  // What the work does to memory, in a context with several devices (see note_access):
  // before it runs, its device's copies of those bytes are made current.
  std::vector<MemoryAccess> accesses;
};

// The end of a command's work: runs `spec.on_finish` with `status` and lets go of everything
// the spec holds (a failed command gives back what it held before anyone sees its status).
// Returns the final status: CL_OUT_OF_RESOURCES if on_finish threw on a successful command.
cl_int end_work(CommandSpec& spec, cl_int status);

class Command final : public backend::Work, public SubmissionListener {
 public:
  // Commands are made by the enqueuing thread and freed by the one that finishes them:
  // their blocks are recycled (command_memory.cpp) rather than handed across malloc's arenas.
  static void* operator new(std::size_t size);
  static void operator delete(void* memory, std::size_t size);

  // `event` holds `queue` for as long as the command needs it.
  Command(QueueBase& queue, Ref<Event> event, CommandSpec&& spec);

  // Before arm(): one more event to wait for. A wait-list event that fails makes this
  // command fail with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. Where the device can
  // order this command after the event's (another stream of the same backend, see
  // backend::Stream::can_follow_on_device), it waits only until that one is submitted.
  void depend_on(Event& event);
  // Before arm(): an event this command must merely come after (the queue's own ordering:
  // the previous command of an in-order queue, a barrier, "every earlier command" of a
  // marker). Its failure does not fail this command, so whether a command fails never
  // depends on how far earlier commands had got when it was enqueued.
  void follow(Event& event);
  // Before arm(), under the queue's lock (pipelined queues): this command goes to the stream
  // only after `predecessor` has been submitted to it; the stream keeps them in order.
  void follow_submission(Command& predecessor);
  // Under the queue's lock: the command waiting for this one's submission, once.
  Command* take_successor() { return std::exchange(successor_, nullptr); }
  // Before arm(): the calling thread waits for the command's end right after enqueuing it
  // (a blocking call); where it also submits the command, the stream may know so.
  void waited_by_this_thread() { waiting_thread_ = std::this_thread::get_id(); }
  // After every dependency is registered: submits the command once they are all done.
  void arm();

  const backend::Operation& operation() const override { return spec_.operation; }
  void started() override;
  void finished(cl_int status) override;
  void report_error(std::string_view message) override;
  bool awaited() const override { return event_->observed(); }
  std::span<const std::shared_ptr<backend::StreamPoint>> device_waits() const override { return points_; }
  bool waited_by_submitter() const override { return waiting_thread_ == std::this_thread::get_id(); }
  bool wants_times() const override { return event_->profiled(); }
  void timed(uint64_t start_ns, uint64_t end_ns) override { event_->set_device_times(start_ns, end_ns); }
  void event_done(cl_int status) override;
  void event_handed_over(Event& event) override { ordered_on_device(event, true); }

 private:
  void dependency_resolved();
  // Registers a dependency heard through `listener` (this for the wait list, which carries
  // failures; order_listener_ for the queue's own ordering).
  void add_dependency(Event& event, SubmissionListener& listener);
  bool can_follow_on_device(const Event& event) const;
  // Whether the device can order this command's work after work of `earlier`.
  bool can_follow_stream(const backend::Stream& earlier) const;
  // A transfer that brings this command's bytes has its last step on a stream this one
  // follows from `point`; its end (transfer_settled) is awaited like that of the commands
  // followed on the device.
  void follow_transfer(std::shared_ptr<backend::StreamPoint> point);
  void transfer_settled(cl_int status);
  // What a transfer bringing this command's bytes first waits for: the points it follows,
  // and the work already on its own stream (whose commands may follow other streams' work
  // that writes the bytes). False where that work cannot be marked: drain_ then goes to the
  // stream, and its end resumes the command.
  bool transfer_waits(const backend::Stream& first_step, std::vector<std::shared_ptr<backend::StreamPoint>>& waits);
  void stream_drained(cl_int status);
  // `event`'s command is on its stream: this one may follow it there (or, where the stream
  // cannot mark that point now, waits for its end after all).
  void ordered_on_device(Event& event, bool carries_failure);
  // Commands ordered on the device may not have been seen to end yet when this one has:
  // its event becomes final after theirs (and fails if one of its wait list failed). True
  // when that defers the end; ordered_done() brings it.
  bool wait_for_ordered(cl_int status);
  void ordered_done(cl_int status, bool carries_failure);
  // Puts the command on this thread's list of ready commands (or starts that list).
  void schedule();
  // The end of the command: its status is final and its successors may go.
  void complete(cl_int status);
  // Counts one dependency down; true when it was the last.
  bool resolve_one() { return unresolved_.fetch_sub(1, std::memory_order_acq_rel) == 1; }
  // Every dependency is done: submits the work (or fails the command).
  void start();
  void submit_to_stream();
  // Pipelined queues: lets the successor go once this command is submitted or finished.
  void submission_done(QueueBase& queue);
  // Starts `first`, then every command that becomes ready on this thread meanwhile.
  static void start_ready(Command* first);
  void release_lifetime() {
    if (lifetime_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  // Makes the memory the command uses current on its device (from accesses[next_access_]
  // on), then submits the work. Returns early while a transfer runs; memory_ready resumes.
  void prepare_memory();
  void memory_ready(cl_int status);
  void submit_work();

  // Hears the events of follow(): counts them down, ignores their status.
  struct OrderListener final : SubmissionListener {
    explicit OrderListener(Command& command) : command(command) {}
    void event_done(cl_int) override { command.dependency_resolved(); }
    void event_handed_over(Event& event) override { command.ordered_on_device(event, false); }
    Command& command;
  };

  // Hears the end of the commands this one followed on the device.
  struct AfterListener final : EventListener {
    AfterListener(Command& command, bool carries_failure) : command(command), carries_failure(carries_failure) {}
    void event_done(cl_int status) override { command.ordered_done(status, carries_failure); }
    Command& command;
    bool carries_failure;
  };

  struct DeviceOrdered {
    Ref<Event> event;
    bool carries_failure;
  };

  struct MemoryListener final : MemoryWaiter {
    explicit MemoryListener(Command& command) : command(command) {}
    void memory_ready(cl_int status) override { command.memory_ready(status); }
    const backend::Stream* follower_of(const backend::Stream& stream) const override {
      return command.can_follow_stream(stream) ? &command.queue_->stream() : nullptr;
    }
    void follow(std::shared_ptr<backend::StreamPoint> point) override { command.follow_transfer(std::move(point)); }
    void memory_settled(cl_int status) override { command.transfer_settled(status); }
    bool transfer_waits(const backend::Stream& first_step,
                        std::vector<std::shared_ptr<backend::StreamPoint>>& waits) override {
      return command.transfer_waits(first_step, waits);
    }
    Command& command;
  };

  // Submitted to the command's stream ahead of it where the stream cannot mark its earlier
  // work for a transfer (see transfer_waits): its end says that work has ended.
  struct StreamDrain final : backend::Work {
    explicit StreamDrain(Command& command) : command(command) {}
    // One shared no-op: every command carries a drain, few ever use it.
    const backend::Operation& operation() const override {
      static const backend::Operation nothing = backend::op::Nothing{};
      return nothing;
    }
    void started() override {}
    void finished(cl_int status) override { command.stream_drained(status); }
    Command& command;
  };

  OrderListener order_listener_{*this};
  MemoryListener memory_listener_{*this};
  StreamDrain drain_{*this};
  AfterListener after_wait_listener_{*this, true};
  AfterListener after_order_listener_{*this, false};
  QueueBase* queue_;  // held by event_ (an event holds its queue)
  Ref<Event> event_;
  CommandSpec spec_;
  std::atomic<int> unresolved_{1};  // the arm() guard counts as one
  std::atomic<bool> dependency_failed_{false};
  size_t next_access_ = 0;
  Command* successor_ = nullptr;  // pipelined: waits for this one's submission (queue's lock)
  // finished() holds one; submit_work() holds another while it still needs the command
  // after handing it to the stream (which may finish it at once).
  std::atomic<int> lifetime_{1};
  // Dependencies that resolved when their command was submitted (filled by whichever thread
  // resolves each, read once all have).
  std::mutex device_order_mutex_;
  std::vector<DeviceOrdered> device_ordered_;
  std::vector<std::shared_ptr<backend::StreamPoint>> points_;
  // What finished() still waits for before the end: commands and transfers followed on the
  // device, plus one, dropped by wait_for_ordered(), for the work itself.
  std::atomic<int> unended_ordered_{1};
  bool follows_transfers_ = false;  // under device_order_mutex_ until submission
  bool drained_ = false;            // that work has ended (drain_)
  std::atomic<cl_int> transfer_status_{CL_SUCCESS};  // the first failure of a transfer it followed
  cl_int deferred_status_ = CL_SUCCESS;
  bool ready_to_complete_ = false;  // in a ready list to complete (see ordered_done), not to start
  Command* next_ready_ = nullptr;   // in this thread's list of commands ready to start
  std::thread::id waiting_thread_;  // the application's thread of a blocking call, if any
  friend struct ReadyCommands;
};

}  // namespace cucl

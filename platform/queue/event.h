// A cl_event: the status of one command (or a user event) and everything that waits on it:
// application callbacks, blocked threads and commands that depend on it.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "base/inline_vector.h"
#include "platform/objects/api_ref.h"
#include "platform/objects/context.h"
#include "platform/objects/object.h"
#include "platform/queue/queue_base.h"

namespace cucl {

class Event;

// Something that wants to hear once when an event reaches a final status.
class EventListener {
 public:
  virtual void event_done(cl_int status) = 0;

 protected:
  ~EventListener() = default;
};

// A listener that can also go on once the event's command has been handed to its queue's
// stream (a command on another stream of the same device, ordered there by the device).
class SubmissionListener : public EventListener {
 public:
  // The command was handed to its stream before it ended; event_done follows no more.
  virtual void event_handed_over(Event& event) = 0;

 protected:
  ~SubmissionListener() = default;
};

class Event final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Event;
  static constexpr cl_int kInvalidHandle = CL_INVALID_EVENT;
  using Callback = void(CL_CALLBACK*)(cl_event, cl_int, void*);

  // A command's event: starts CL_QUEUED. Its context is its queue's.
  Event(Ref<QueueBase> queue, cl_command_type type, bool profiled);
  // A user event: starts CL_SUBMITTED. Its context is pinned at once (see pin_handles);
  // throws CL_INVALID_CONTEXT if the context's handle is already dead.
  explicit Event(Ref<Context> context);
  ~Event() override = default;

  Context& context() const { return queue_ ? queue_->context() : *context_; }
  QueueBase* queue() const { return queue_.get(); }
  cl_command_type command_type() const { return type_; }
  bool is_user_event() const { return type_ == CL_COMMAND_USER; }
  cl_int status() const;
  bool is_done() const { return status() <= CL_COMPLETE; }

  // Moves the status forward (QUEUED > SUBMITTED > RUNNING > COMPLETE, or to a negative
  // error) and fires what waits for it. Backward or repeated moves are ignored; returns
  // whether the status moved (clSetUserEventStatus relies on that to reject a second call).
  bool set_status(cl_int status);
  // Blocks until the event is CL_COMPLETE or failed; returns the final status.
  cl_int wait();

  void add_callback(cl_int trigger_status, Callback callback, void* user_data);
  // `listener` hears the final status once: when the event reaches it, or at once (on this
  // thread) when it already has.
  void listen(EventListener& listener);
  enum class Progress { Pending, HandedOver, Done };
  // Registers `listener` to hear once of the command's hand-over to its stream, or of its
  // end if that comes first. When either has happened already nothing is registered, and
  // the answer says which.
  Progress add_submission_listener(SubmissionListener* listener);
  // The command's stream has taken it (called after Stream::submit returned).
  void handed_over();
  // A listener or a callback was ever registered: something waits for the final status.
  bool observed() const { return observed_.load(std::memory_order_acquire); }

  // CL_PROFILING_COMMAND_{QUEUED,SUBMIT,START,END,COMPLETE}, in ns.
  bool profiled() const { return profiled_; }
  cl_ulong timestamp(size_t index) const { return timestamps_[index]; }
  // When the device ran the command (host clock), before its final status: START and END
  // then come from these, kept within [SUBMIT, COMPLETE].
  void set_device_times(cl_ulong start_ns, cl_ulong end_ns);
  cl_event id() { return reinterpret_cast<cl_event>(handle()); }

  // Called before a command's event is handed to the application: while the application
  // holds the event, the queue and context it reports stay valid handles (see ApiRef).
  void pin_handles() noexcept;

 private:
  void on_api_released() override;

  struct PendingCallback {
    cl_int trigger;
    Callback callback;
    void* user_data;
  };

  Ref<Context> context_;  // user events (a command's event reaches it through its queue)
  Ref<QueueBase> queue_;
  ApiRef<Context> context_pin_;
  ApiRef<QueueBase> queue_pin_;
  cl_command_type type_;
  bool profiled_;

  mutable std::mutex mutex_;
  std::condition_variable done_;
  std::atomic<bool> final_{false};  // status_ is final: wait() watches it before it sleeps
  std::atomic<bool> observed_{false};
  unsigned sleepers_ = 0;  // threads asleep on done_ (guarded by mutex_): only then is it notified
  cl_int status_;
  std::vector<PendingCallback> callbacks_;
  // Most events have one listener (the next command of an in-order queue): kept in place,
  // the enqueuing thread allocates nothing that the finishing thread would free.
  using Listeners = InlineVector<EventListener*, 2>;
  Listeners listeners_;
  std::vector<SubmissionListener*> submission_listeners_;
  bool handed_over_ = false;
  std::array<cl_ulong, 5> timestamps_{};
  cl_ulong device_start_ = 0, device_end_ = 0;  // 0: the host's stamps stand

  // Links in its queue's list of unfinished commands (guarded by the queue's mutex).
  friend class UnfinishedEvents;
  Event* unfinished_prev_ = nullptr;
  Event* unfinished_next_ = nullptr;
  bool unfinished_ = false;
};

}  // namespace cucl

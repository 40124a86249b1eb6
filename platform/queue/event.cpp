#include "platform/queue/event.h"

#include <algorithm>

#include "base/clock.h"
#include "platform/queue/stream_wait.h"

namespace cucl {
namespace {

enum Stamp { kQueued, kSubmit, kStart, kEnd, kComplete };

// A callback registered for `trigger` fires once the status reaches it, with `trigger` as
// the status it reports; an error passes every trigger and is reported as itself.
bool reaches(cl_int status, cl_int trigger) { return status <= trigger; }

}  // namespace

Event::Event(Ref<QueueBase> queue, cl_command_type type, bool profiled)
    : Object(ObjectKind::Event),
      queue_(std::move(queue)),
      type_(type),
      profiled_(profiled),
      status_(CL_QUEUED) {
  if (profiled_) timestamps_[kQueued] = now_ns();
}

Event::Event(Ref<Context> context)
    : Object(ObjectKind::Event),
      context_(std::move(context)),
      context_pin_(context_),
      type_(CL_COMMAND_USER),
      profiled_(false),
      status_(CL_SUBMITTED) {}

void Event::pin_handles() noexcept {
  // A handle released by a racing thread stays dead; the event itself is still fine.
  context_pin_ = ApiRef<Context>::if_alive(Ref<Context>(&context()));
  if (queue_) queue_pin_ = ApiRef<QueueBase>::if_alive(queue_);
}

void Event::on_api_released() {
  queue_pin_.reset();
  context_pin_.reset();
}

cl_int Event::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

bool Event::set_status(cl_int status) {
  std::vector<PendingCallback> due;
  Listeners listeners;
  {
    std::lock_guard lock(mutex_);
    if (status_ <= CL_COMPLETE || status >= status_) return false;
    if (profiled_) {
      cl_ulong now = now_ns();
      // A command that skips states (e.g. straight to COMPLETE) still reports ordered stamps.
      if (status <= CL_SUBMITTED && !timestamps_[kSubmit]) timestamps_[kSubmit] = now;
      if (status <= CL_RUNNING && !timestamps_[kStart]) timestamps_[kStart] = now;
      if (status <= CL_COMPLETE) {
        timestamps_[kEnd] = timestamps_[kComplete] = now;
        if (device_end_) {
          timestamps_[kStart] = std::clamp(device_start_, timestamps_[kSubmit], now);
          timestamps_[kEnd] = std::clamp(device_end_, timestamps_[kStart], now);
        }
      }
    }
    status_ = status;
    for (auto it = callbacks_.begin(); it != callbacks_.end();) {
      if (reaches(status, it->trigger)) {
        due.push_back(*it);
        it = callbacks_.erase(it);
      } else {
        ++it;
      }
    }
    if (status <= CL_COMPLETE) {
      listeners = std::move(listeners_);
      for (SubmissionListener* listener : submission_listeners_) listeners.push_back(listener);
      submission_listeners_.clear();
      final_.store(true, std::memory_order_release);
      if (sleepers_ != 0) done_.notify_all();
    }
  }
  // Keep the event alive while callbacks and listeners run: they may release it.
  Ref<Event> self(this);
  // Callbacks fire in status order (SUBMITTED, RUNNING, COMPLETE), each group in
  // registration order.
  for (cl_int trigger : {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE}) {
    for (const auto& entry : due) {
      if (entry.trigger == trigger) entry.callback(id(), status < 0 ? status : trigger, entry.user_data);
    }
  }
  for (EventListener* listener : listeners) listener->event_done(status);
  return true;
}

cl_int Event::wait() {
  if (final_.load(std::memory_order_acquire)) return status();
  StreamWaitNotice notice(queue_ ? &queue_->stream() : nullptr);
  notice.watch([this] { return final_.load(std::memory_order_acquire); });
  std::unique_lock lock(mutex_);
  while (status_ > CL_COMPLETE) {
    ++sleepers_;
    done_.wait(lock);
    --sleepers_;
  }
  return status_;
}

void Event::add_callback(cl_int trigger_status, Callback callback, void* user_data) {
  cl_int current;
  {
    std::lock_guard lock(mutex_);
    current = status_;
    if (!reaches(current, trigger_status)) {
      callbacks_.push_back({trigger_status, callback, user_data});
      observed_.store(true, std::memory_order_release);
      return;
    }
  }
  callback(id(), current < 0 ? current : trigger_status, user_data);
}

void Event::listen(EventListener& listener) {
  cl_int final_status;
  {
    std::lock_guard lock(mutex_);
    if (status_ > CL_COMPLETE) {
      listeners_.push_back(&listener);
      observed_.store(true, std::memory_order_release);
      return;
    }
    final_status = status_;
  }
  listener.event_done(final_status);
}

Event::Progress Event::add_submission_listener(SubmissionListener* listener) {
  std::lock_guard lock(mutex_);
  if (status_ <= CL_COMPLETE) return Progress::Done;
  if (handed_over_) return Progress::HandedOver;
  submission_listeners_.push_back(listener);
  return Progress::Pending;
}

void Event::handed_over() {
  std::vector<SubmissionListener*> listeners;
  {
    std::lock_guard lock(mutex_);
    if (status_ <= CL_COMPLETE) return;  // it ended inside the submission: they heard that
    handed_over_ = true;
    listeners.swap(submission_listeners_);
  }
  for (SubmissionListener* listener : listeners) listener->event_handed_over(*this);
}

void Event::set_device_times(cl_ulong start_ns, cl_ulong end_ns) {
  std::lock_guard lock(mutex_);
  device_start_ = start_ns;
  device_end_ = std::max(end_ns, start_ns);
}

}  // namespace cucl

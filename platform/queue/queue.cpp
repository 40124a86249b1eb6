#include "platform/queue/queue.h"

#include "base/error.h"
#include "platform/queue/direct_command.h"

namespace cucl {

Ref<Event> Queue::enqueue(CommandSpec&& spec, const std::vector<Ref<Event>>& wait_list, Ordering ordering,
                          bool blocking) {
  for (const auto& event : wait_list) check(&event->context() == &context(), CL_INVALID_CONTEXT);

  auto event = make<Event>(Ref<QueueBase>(this), spec.type, profiling());
  auto* command = new Command(*this, event, std::move(spec));
  if (blocking) command->waited_by_this_thread();

  {
    std::lock_guard lock(mutex_);
    order(*command, event.get(), wait_list, ordering);
  }
  // Outside the lock: a command whose dependency failed finishes at once, and that calls
  // command_done().
  command->arm();
  return event;
}

bool Queue::enqueue_direct(CommandSpec& spec) {
  if (!pipelined() || !spec.accesses.empty()) return false;
  DirectCommand* refused = nullptr;
  {
    // Held while the stream takes the command: direct submissions of several threads, and a
    // Command ordered meanwhile (it follows unsubmitted_), reach the stream in the order of
    // this lock, and the stream finishes them in that order.
    std::lock_guard lock(mutex_);
    if (unsubmitted_) return false;  // it must wait for the earlier command's submission
    auto* command = new DirectCommand(*this, std::move(spec));
    try {
      stream().submit(*command);
      ++direct_submitted_;
    } catch (...) {
      refused = command;
    }
  }
  // Outside the lock: on_finish may do anything.
  if (refused) refused->abandon();
  stream().reap();
  return true;
}

void Queue::order(Command& command, Event* event, const std::vector<Ref<Event>>& wait_list, Ordering ordering) {
  // Nothing may throw once listeners point at the command, so the insertion comes first.
  unfinished_.push_back(event);
  event->hold();
  for (const auto& dependency : wait_list) command.depend_on(*dependency);
  if (pipelined()) {
    if (unsubmitted_) command.follow_submission(*unsubmitted_);
    unsubmitted_ = &command;
  } else if (in_order()) {
    if (last_) command.follow(*last_);
    last_ = event;
  } else {
    if (barrier_) command.follow(*barrier_);
    if (ordering != Ordering::Normal && wait_list.empty()) {
      unfinished_.for_each([&](Event* earlier) {
        if (earlier != event) command.follow(*earlier);
      });
    }
    if (ordering == Ordering::Barrier) barrier_ = event;
  }
}

void Queue::command_done(Event* event) {
  {
    std::lock_guard lock(mutex_);
    if (!unfinished_.erase(event)) return;
    if (last_ == event) last_ = nullptr;
    if (barrier_ == event) barrier_ = nullptr;
  }
  event->drop();
}

Command* Queue::submission_done(Command& command) {
  std::lock_guard lock(mutex_);
  if (unsubmitted_ == &command) unsubmitted_ = nullptr;
  return command.take_successor();
}

void Queue::finish() {
  std::vector<Ref<Event>> waiting;
  uint64_t direct;
  uint64_t mark;
  {
    std::lock_guard lock(mutex_);
    direct = direct_submitted_;
    mark = stream().submitted_mark();  // direct commands reach the stream under this lock
    waiting.reserve(unfinished_.size());
    unfinished_.for_each([&](Event* event) { waiting.emplace_back(event); });
  }
  direct_finished_.wait_for(direct, stream(), mark);
  for (auto& event : waiting) event->wait();
}

}  // namespace cucl

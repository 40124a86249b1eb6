// A queue's unfinished commands, oldest first: a list threaded through the events
// themselves, so adding and removing one allocates nothing and touches only its
// neighbours (a hash set cost a node allocation and a cache miss per command).
#pragma once

#include <cstddef>

#include "platform/queue/event.h"

namespace cucl {

class UnfinishedEvents {
 public:
  UnfinishedEvents() = default;
  UnfinishedEvents(const UnfinishedEvents&) = delete;
  UnfinishedEvents& operator=(const UnfinishedEvents&) = delete;

  void push_back(Event* event) {
    event->unfinished_prev_ = tail_;
    event->unfinished_next_ = nullptr;
    event->unfinished_ = true;
    (tail_ ? tail_->unfinished_next_ : head_) = event;
    tail_ = event;
    ++size_;
  }
  // False when `event` is not in the list.
  bool erase(Event* event) {
    if (!event->unfinished_) return false;
    (event->unfinished_prev_ ? event->unfinished_prev_->unfinished_next_ : head_) = event->unfinished_next_;
    (event->unfinished_next_ ? event->unfinished_next_->unfinished_prev_ : tail_) = event->unfinished_prev_;
    event->unfinished_prev_ = event->unfinished_next_ = nullptr;
    event->unfinished_ = false;
    --size_;
    return true;
  }
  size_t size() const { return size_; }
  template <class Visit>
  void for_each(Visit visit) const {
    for (Event* event = head_; event; event = event->unfinished_next_) visit(event);
  }

 private:
  Event* head_ = nullptr;
  Event* tail_ = nullptr;
  size_t size_ = 0;
};

}  // namespace cucl

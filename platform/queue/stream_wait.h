// How a thread waits for work of a command queue's stream (Event::wait, clFinish): the stream
// hears that someone waits (a stream that watches its work lazily then watches closely), and
// the waiter watches for the end itself for a while before it sleeps.
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

#include "backends/backend.h"
#include "base/spin_wait.h"

namespace cucl {

// Tells `stream` (none: a user event) that a thread waits for its work, while in scope.
class StreamWaitNotice {
 public:
  explicit StreamWaitNotice(backend::Stream* stream) : stream_(stream) {
    if (stream_) stream_->wait_began();
  }
  ~StreamWaitNotice() {
    if (stream_) stream_->wait_ended();
  }
  StreamWaitNotice(const StreamWaitNotice&) = delete;
  StreamWaitNotice& operator=(const StreamWaitNotice&) = delete;

  // watch_before_sleeping (below) for `done()`, the waiting thread looking at the stream itself
  // between looks at `done()` (backend::Stream::look), for as long as the stream's work asks
  // (backend::Stream::watch_time). True when done.
  template <class Done>
  bool watch(Done done) const;

 private:
  backend::Stream* stream_;
};

// Watches `done()` for up to 2 ms (or `at_least`) before the caller sleeps. Most waits are short (a small
// command on a GPU ends within microseconds, a large copy within a few hundred): watching
// answers sooner than sleeping and being woken from an idle core, which costs tens of
// microseconds in a virtual machine. Not where watching does not pay (watching_pays). True
// when done.
template <class Done>
bool watch_before_sleeping(Done done, std::chrono::microseconds at_least = std::chrono::microseconds(0)) {
  constexpr auto kWatch = std::chrono::microseconds(2000);
  return watching_pays() ? spin_until(done, std::max(kWatch, at_least)) : done();
}

template <class Done>
bool StreamWaitNotice::watch(Done done) const {
  if (!stream_) return watch_before_sleeping(done);
  return watch_before_sleeping([&] { return done() || (stream_->look(), done()); }, stream_->watch_time());
}

}  // namespace cucl

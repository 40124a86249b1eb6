// Watching for something that usually happens within microseconds (a command's end):
// spinning answers sooner than sleeping and being woken, which costs tens of microseconds in
// a virtual machine. Shared by platform/ (Event::wait) and the CUDA completion thread.
#pragma once

#include <chrono>
#include <thread>

namespace cucl {

// One turn of a busy wait: tells the core this thread only watches (x86 `pause`).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Whether a thread that waits should watch before it sleeps: not on a machine of one or two
// hardware threads, where the watcher would take the core the awaited work needs (with other
// work running, round trips became several times slower).
inline bool watching_pays() {
  static const bool pays = std::thread::hardware_concurrency() > 2;
  return pays;
}

// Spins until `done()` or `limit` has passed: a pause loop for the first 50 us, then the
// core is yielded between looks. True when done.
template <class Done>
bool spin_until(Done done, std::chrono::microseconds limit) {
  constexpr auto kTightSpin = std::chrono::microseconds(50);
  const auto start = std::chrono::steady_clock::now();
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
    cpu_relax();
    if (i % 64 != 0) continue;
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited > limit) return done();
    if (waited > kTightSpin) std::this_thread::yield();
  }
}

}  // namespace cucl

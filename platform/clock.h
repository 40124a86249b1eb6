#pragma once

#include <chrono>
#include <cstdint>

namespace cucl {

// The one clock behind profiling timestamps and the host timer, in nanoseconds.
inline uint64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace cucl

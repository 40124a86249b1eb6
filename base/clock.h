// The one clock behind profiling timestamps and clGetDeviceAndHostTimer, in nanoseconds:
// a backend that times work on its device places those times on it.
#pragma once

#include <chrono>
#include <cstdint>

namespace cucl {

inline uint64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace cucl

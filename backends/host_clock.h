#pragma once

#include <chrono>
#include <cstdint>

namespace cucl::backend {

// The one clock behind profiling timestamps and clGetDeviceAndHostTimer, in nanoseconds:
// a backend that times work on its device places those times on it.
inline uint64_t host_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace cucl::backend

#pragma once

#include <cstdint>

#include "backends/host_clock.h"

namespace cucl {

// Profiling timestamps and the host timer (the backends' host clock).
inline uint64_t now_ns() { return backend::host_clock_ns(); }

}  // namespace cucl

// The one-line notes cucl prints to stderr when CUCL_DEBUG is on (why no GPU is listed,
// which devices CUCL_DEVICES hid, why a GPU command failed).
#pragma once

#include <cstdio>
#include <string>

#include "base/settings.h"

namespace cucl {

inline bool debug_log_enabled() { return settings::enabled(settings::Name::CUCL_DEBUG); }

inline void debug_log(const std::string& message) {
  if (debug_log_enabled()) std::fprintf(stderr, "cucl: %s\n", message.c_str());
}

}  // namespace cucl

// The one-line notes cucl prints to stderr when CUCL_DEBUG=1 is set (why no GPU is
// listed, which devices CUCL_DEVICES hid, why a GPU command failed). Needs no CUDA header.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cucl::backend {

inline bool debug_log_enabled() {
  const char* value = std::getenv("CUCL_DEBUG");
  return value && std::strcmp(value, "0") != 0 && *value != '\0';
}

inline void debug_log(const std::string& message) {
  if (debug_log_enabled()) std::fprintf(stderr, "cucl: %s\n", message.c_str());
}

}  // namespace cucl::backend

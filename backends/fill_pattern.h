// Fills host memory with a repeated pattern (clEnqueueFillBuffer's and clEnqueueSVMMemFill's
// work where the host does it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cucl::backend {

// `size` is a multiple of `pattern_size`.
inline void fill_with_pattern(char* dst, size_t size, const uint8_t* pattern, size_t pattern_size) {
  if (pattern_size == 1) {
    std::memset(dst, pattern[0], size);
    return;
  }
  for (size_t offset = 0; offset < size; offset += pattern_size) std::memcpy(dst + offset, pattern, pattern_size);
}

}  // namespace cucl::backend

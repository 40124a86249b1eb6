// Memory that cucl recycles itself (dead objects' blocks, command blocks) is marked
// unaddressable for AddressSanitizer while it waits, so a use after free still fails in the
// sanitizer build. Nothing in other builds.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define CUCL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUCL_ASAN 1
#endif
#endif

#ifdef CUCL_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace cucl {

inline void poison(void* block, std::size_t bytes) {
#ifdef CUCL_ASAN
  ASAN_POISON_MEMORY_REGION(block, bytes);
#else
  (void)block, (void)bytes;
#endif
}

inline void unpoison(void* block, std::size_t bytes) {
#ifdef CUCL_ASAN
  ASAN_UNPOISON_MEMORY_REGION(block, bytes);
#else
  (void)block, (void)bytes;
#endif
}

}  // namespace cucl

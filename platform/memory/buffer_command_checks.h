// Checks shared by the buffer commands (platform/buffer_*.cpp only).
#pragma once

#include "base/error.h"
#include "platform/memory/memory.h"
#include "platform/queue/queue.h"

namespace cucl::buffer_checks {

// Same context as the queue, and a sub-buffer's origin aligned for the queue's device.
inline void check_usable(Queue& queue, Buffer& buffer) {
  check(&buffer.context() == &queue.context(), CL_INVALID_CONTEXT);
  if (buffer.parent()) {
    size_t align = queue.device().description().mem_base_addr_align_bits / 8;
    check(align == 0 || buffer.origin() % align == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  }
}

inline bool in_bounds(const MemObject& memory, size_t offset, size_t size) {
  return offset <= memory.size() && size <= memory.size() - offset;
}

inline void check_host_reads(const MemObject& memory) {
  check(!(memory.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION);
}

inline void check_host_writes(const MemObject& memory) {
  check(!(memory.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION);
}

// Whether two buffers are views of one store (the same buffer, or a parent and its
// sub-buffers); their offsets then compare after adding origin().
inline bool same_storage(Buffer& a, Buffer& b) { return &a.root() == &b.root(); }

}  // namespace cucl::buffer_checks

// What mapping a buffer and mapping an image share (memory_map.cpp): the map flags and the
// host access they need, and the map command over a range of bytes.
#pragma once

#include "platform/memory/memory.h"
#include "platform/queue/queue.h"

namespace cucl {

void check_map_flags(cl_map_flags flags);                         // CL_INVALID_VALUE
void check_map_access(const MemObject& memory, cl_map_flags flags);  // CL_INVALID_OPERATION

// Maps [offset, offset + size) of `memory` for the queue's device after the caller's checks:
// records the mapping, submits a command of `type` and returns the mapped pointer.
void* enqueue_map_bytes(Queue& queue, MemObject& memory, cl_command_type type, bool blocking, cl_map_flags flags,
                        size_t offset, size_t size, cl_uint num_events, const cl_event* wait_list,
                        cl_event* event_out);

}  // namespace cucl

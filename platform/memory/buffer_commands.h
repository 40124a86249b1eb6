// The buffer commands of the API. Each builder checks every rule of its entry point that
// does not concern the wait list (contexts, bounds, pitches, host access flags, sub-buffer
// alignment on the queue's device) and returns the command for submit().
#pragma once

#include <vector>

#include "platform/queue/command.h"
#include "platform/memory/memory.h"
#include "platform/queue/queue.h"

namespace cucl {

CommandSpec read_buffer(Queue& queue, Buffer& buffer, size_t offset, size_t size, void* ptr);
CommandSpec write_buffer(Queue& queue, Buffer& buffer, size_t offset, size_t size, const void* ptr);
CommandSpec copy_buffer(Queue& queue, Buffer& src, Buffer& dst, size_t src_offset, size_t dst_offset, size_t size);
CommandSpec fill_buffer(Queue& queue, Buffer& buffer, const void* pattern, size_t pattern_size, size_t offset,
                        size_t size);

// One side of a *Rect command as the application gives it: origin (bytes, rows, slices)
// and pitches, where 0 asks for the default.
struct RectSide {
  const size_t* origin;
  size_t row_pitch;
  size_t slice_pitch;
};

CommandSpec read_buffer_rect(Queue& queue, Buffer& buffer, RectSide buffer_side, RectSide host_side,
                             const size_t* region, void* ptr);
CommandSpec write_buffer_rect(Queue& queue, Buffer& buffer, RectSide buffer_side, RectSide host_side,
                              const size_t* region, const void* ptr);
CommandSpec copy_buffer_rect(Queue& queue, Buffer& src, Buffer& dst, RectSide src_side, RectSide dst_side,
                             const size_t* region);

CommandSpec migrate_mem_objects(Queue& queue, cl_uint count, const cl_mem* objects, cl_mem_migration_flags flags);

// Map and unmap change the object's mappings when they are enqueued (CL_MEM_MAP_COUNT
// follows at once), so they submit themselves and undo that if the enqueue fails.
void* enqueue_map_buffer(Queue& queue, Buffer& buffer, bool blocking, cl_map_flags flags, size_t offset, size_t size,
                         cl_uint num_events, const cl_event* wait_list, cl_event* event_out);
void enqueue_unmap(Queue& queue, MemObject& memory, void* mapped, cl_uint num_events, const cl_event* wait_list,
                   cl_event* event_out);

}  // namespace cucl

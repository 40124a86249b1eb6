// The image commands of the API. Each builder checks every rule of its entry point that does
// not concern the wait list (the queue's device takes the image, contexts, origins and
// regions for the image's type, pitches, host access flags, formats) and returns the command
// for submit(). Pixels move as rectangles of bytes (op::CopyRect, op::FillRect): an image is
// linear storage with pitches on every device.
#pragma once

#include "platform/memory/image.h"
#include "platform/queue/command.h"
#include "platform/queue/queue.h"

namespace cucl {

// The host side of a read or write: row and slice pitch as given (0: packed).
struct HostPitches {
  size_t row_pitch;
  size_t slice_pitch;
};

CommandSpec read_image(Queue& queue, Image& image, const size_t* origin, const size_t* region, HostPitches host,
                       void* ptr);
CommandSpec write_image(Queue& queue, Image& image, const size_t* origin, const size_t* region, HostPitches host,
                        const void* ptr);
CommandSpec copy_image(Queue& queue, Image& src, Image& dst, const size_t* src_origin, const size_t* dst_origin,
                       const size_t* region);
CommandSpec fill_image(Queue& queue, Image& image, const void* fill_color, const size_t* origin, const size_t* region);
CommandSpec copy_image_to_buffer(Queue& queue, Image& src, Buffer& dst, const size_t* src_origin,
                                 const size_t* region, size_t dst_offset);
CommandSpec copy_buffer_to_image(Queue& queue, Buffer& src, Image& dst, size_t src_offset, const size_t* dst_origin,
                                 const size_t* region);

// clEnqueueMapImage: submits itself (see enqueue_map_buffer) and returns the mapped pointer,
// with the pitches of the mapped rows and slices.
void* enqueue_map_image(Queue& queue, Image& image, bool blocking, cl_map_flags flags, const size_t* origin,
                        const size_t* region, size_t* row_pitch, size_t* slice_pitch, cl_uint num_events,
                        const cl_event* wait_list, cl_event* event_out);

}  // namespace cucl

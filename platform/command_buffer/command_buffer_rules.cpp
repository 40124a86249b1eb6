#include "platform/command_buffer/command_buffer_rules.h"

#include "base/error.h"
#include "platform/objects/lookup.h"
#include "platform/queue/enqueue.h"

namespace cucl {
namespace {

// The queue properties of a buffer's queue: every one the devices support for command
// buffers, none they require beyond them.
void check_queue_properties(const Queue& queue) {
  check((queue.properties() & ~kCommandBufferQueueProperties) == 0, CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
}

struct BufferProperties {
  cl_command_buffer_flags_khr flags = 0;
  cl_mutable_dispatch_asserts_khr asserts = 0;
};

// CL_COMMAND_BUFFER_FLAGS_KHR and CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR, each once
// (every device lists cl_khr_command_buffer_mutable_dispatch).
BufferProperties parse_properties(const cl_command_buffer_properties_khr* properties) {
  BufferProperties parsed;
  bool seen_flags = false, seen_asserts = false;
  for (const cl_command_buffer_properties_khr* p = properties; p && *p != 0; p += 2) {
    if (p[0] == CL_COMMAND_BUFFER_FLAGS_KHR && !seen_flags) {
      constexpr cl_command_buffer_flags_khr kKnown =
          CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR | CL_COMMAND_BUFFER_MUTABLE_KHR;
      check((p[1] & ~kKnown) == 0, CL_INVALID_VALUE);
      parsed.flags = p[1];
      seen_flags = true;
    } else if (p[0] == CUCL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS && !seen_asserts) {
      check((p[1] & ~cl_command_buffer_properties_khr{CUCL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS}) == 0,
            CL_INVALID_VALUE);
      parsed.asserts = p[1];
      seen_asserts = true;
    } else {
      fail(CL_INVALID_VALUE);
    }
  }
  return parsed;
}

std::vector<cl_command_buffer_properties_khr> properties_as_given(const cl_command_buffer_properties_khr* properties) {
  std::vector<cl_command_buffer_properties_khr> list;
  if (!properties) return list;
  for (const cl_command_buffer_properties_khr* p = properties; *p != 0; p += 2) list.insert(list.end(), {p[0], p[1]});
  list.push_back(0);
  return list;
}

}  // namespace

Ref<CommandBuffer> create_command_buffer(cl_uint num_queues, const cl_command_queue* queues,
                                         const cl_command_buffer_properties_khr* properties) {
  // Without cl_khr_command_buffer_multi_device a buffer has exactly one queue.
  check(queues != nullptr, CL_INVALID_VALUE);
  check(num_queues == 1, CL_INVALID_VALUE);
  Ref<Queue> queue = lookup<Queue>(queues[0]);
  const BufferProperties parsed = parse_properties(properties);
  check_queue_properties(*queue);
  return make<CommandBuffer>(*queue, parsed.flags, parsed.asserts, properties_as_given(properties));
}

Queue& check_record_call(CommandBuffer& buffer, cl_command_queue queue, const cl_properties* properties,
                         cl_uint num_sync_points, const cl_sync_point_khr* sync_points, const void* mutable_handle) {
  check(queue == nullptr, CL_INVALID_COMMAND_QUEUE);
  check(properties == nullptr || properties[0] == 0, CL_INVALID_VALUE);
  check(mutable_handle == nullptr, CL_INVALID_VALUE);
  buffer.check_recording(num_sync_points, sync_points);
  return buffer.queue();
}

void record_command(CommandBuffer& buffer, CommandSpec spec, cl_sync_point_khr* sync_point) {
  const cl_sync_point_khr recorded = buffer.record(std::move(spec));
  if (sync_point) *sync_point = recorded;
}

void enqueue_command_buffer(cl_uint num_queues, const cl_command_queue* queues, CommandBuffer& buffer,
                            cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  check(buffer.state() == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR, CL_INVALID_OPERATION);
  check((queues == nullptr) == (num_queues == 0), CL_INVALID_VALUE);
  check(num_queues == 0 || num_queues == 1, CL_INVALID_VALUE);
  Ref<Queue> queue(&buffer.queue());
  if (queues) {
    // Another queue of the same device and context may stand in for the buffer's.
    queue = lookup<Queue>(queues[0]);
    check_queue_properties(*queue);
    check(&queue->device() == &buffer.queue().device(), CL_INVALID_DEVICE);
    check(&queue->context() == &buffer.context(), CL_INVALID_CONTEXT);
  }
  submit(*queue, buffer.replay(), num_events, wait_list, event);
}

void command_buffer_info(CommandBuffer& buffer, cl_command_buffer_info_khr param, InfoWriter& out) {
  switch (param) {
    case CL_COMMAND_BUFFER_QUEUES_KHR: return out.scalar(buffer.queue().id());
    case CL_COMMAND_BUFFER_NUM_QUEUES_KHR: return out.scalar(cl_uint{1});
    case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR: return out.scalar(buffer.api_ref_count());
    case CL_COMMAND_BUFFER_STATE_KHR: return out.scalar(buffer.state());
    case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR: return out.array(buffer.properties());
    case CL_COMMAND_BUFFER_CONTEXT_KHR: return out.scalar(reinterpret_cast<cl_context>(buffer.context().handle()));
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

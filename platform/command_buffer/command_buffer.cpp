#include "platform/command_buffer/command_buffer.h"

namespace cucl {

CommandBuffer::CommandBuffer(Queue& queue, cl_command_buffer_flags_khr flags,
                             std::vector<cl_command_buffer_properties_khr> properties)
    : Object(kKind),
      queue_(&queue),
      queue_pin_(Ref<Queue>(&queue)),
      flags_(flags),
      properties_(std::move(properties)) {}

cl_command_buffer_state_khr CommandBuffer::state() const {
  std::lock_guard lock(mutex_);
  return finalized_ ? CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR : CL_COMMAND_BUFFER_STATE_RECORDING_KHR;
}

void CommandBuffer::check_recording(cl_uint num_sync_points, const cl_sync_point_khr* sync_points) const {
  std::lock_guard lock(mutex_);
  check(!finalized_, CL_INVALID_OPERATION);
  check((num_sync_points == 0) == (sync_points == nullptr), CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  // Sync points are 1 + the index of their command: 0 is never one.
  for (cl_uint i = 0; i < num_sync_points; ++i) {
    check(sync_points[i] >= 1 && sync_points[i] <= operations_.size(), CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  }
}

cl_sync_point_khr CommandBuffer::record(CommandSpec spec) {
  std::lock_guard lock(mutex_);
  check(!finalized_, CL_INVALID_OPERATION);
  operations_.push_back(std::move(spec.operation));
  accesses_.insert(accesses_.end(), spec.accesses.begin(), spec.accesses.end());
  for (Ref<Object>& object : spec.keep_alive) held_.push_back(std::move(object));
  return static_cast<cl_sync_point_khr>(operations_.size());
}

void CommandBuffer::finalize() {
  std::lock_guard lock(mutex_);
  check(!finalized_, CL_INVALID_OPERATION);
  auto recorded = std::make_shared<backend::op::RecordedOperations>();
  recorded->operations = std::move(operations_);
  recorded_ = std::move(recorded);
  finalized_ = true;
}

CommandSpec CommandBuffer::replay() const {
  std::lock_guard lock(mutex_);
  check(finalized_, CL_INVALID_OPERATION);
  CommandSpec spec;
  spec.type = CL_COMMAND_COMMAND_BUFFER_KHR;
  spec.operation = backend::op::CommandList{recorded_};
  spec.accesses = accesses_;
  // The buffer holds what its commands touch (memory objects, kernels) until it dies.
  spec.keep_alive.push_back(Ref<Object>(const_cast<CommandBuffer*>(this)));
  return spec;
}

}  // namespace cucl

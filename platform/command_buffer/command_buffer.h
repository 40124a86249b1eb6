// A cl_command_buffer_khr: commands recorded once against one queue, and replayed as one
// piece of work (op::CommandList) each time the buffer is enqueued.
//
// Recording runs each command's own builder (the clEnqueue* rules: contexts, bounds,
// arguments captured as they are) and keeps its operation, the memory it touches and the
// objects it needs. Finalizing freezes the list; every replay shares it, so replays need no
// validation and any number of them can be in flight at once. The operations run in the
// order they were recorded, which satisfies every sync point (a sync point names an
// earlier command) and the recording queue's own order.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "platform/command_buffer/command_buffer_khr.h"
#include "platform/objects/api_ref.h"
#include "platform/queue/command.h"
#include "platform/queue/queue.h"

namespace cucl {

class CommandBuffer final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::CommandBuffer;
  static constexpr cl_int kInvalidHandle = CL_INVALID_COMMAND_BUFFER_KHR;

  CommandBuffer(Queue& queue, cl_command_buffer_flags_khr flags,
                std::vector<cl_command_buffer_properties_khr> properties);

  Queue& queue() const { return *queue_; }
  Context& context() const { return queue_->context(); }
  cl_command_buffer_flags_khr flags() const { return flags_; }
  const std::vector<cl_command_buffer_properties_khr>& properties() const { return properties_; }
  cl_command_buffer_state_khr state() const;

  // CL_INVALID_OPERATION once finalized; CL_INVALID_SYNC_POINT_WAIT_LIST_KHR unless the
  // list is well formed and names commands already recorded.
  void check_recording(cl_uint num_sync_points, const cl_sync_point_khr* sync_points) const;
  // Appends the command `spec` describes, after a check_recording of its sync points;
  // returns its sync point.
  cl_sync_point_khr record(CommandSpec spec);
  // CL_INVALID_OPERATION unless recording.
  void finalize();
  // The work of one enqueue: the recorded list, the memory it touches, and this buffer
  // held for as long as the replay runs. CL_INVALID_OPERATION unless executable.
  CommandSpec replay() const;

 private:
  void on_api_released() override { queue_pin_.reset(); }

  Ref<Queue> queue_;
  ApiRef<Queue> queue_pin_;  // CL_COMMAND_BUFFER_QUEUES_KHR is a valid handle while this one is
  const cl_command_buffer_flags_khr flags_;
  const std::vector<cl_command_buffer_properties_khr> properties_;

  mutable std::mutex mutex_;
  bool finalized_ = false;
  std::vector<backend::Operation> operations_;
  std::vector<MemoryAccess> accesses_;
  std::vector<Ref<Object>> held_;
  std::shared_ptr<const backend::op::RecordedOperations> recorded_;  // once finalized
};

}  // namespace cucl

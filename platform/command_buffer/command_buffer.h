// A cl_command_buffer_khr: commands recorded once against one queue, and replayed as one
// piece of work (op::CommandList) each time the buffer is enqueued.
//
// Recording runs each command's own builder (the clEnqueue* rules: contexts, bounds,
// arguments captured as they are) and keeps its operation, the memory it touches and the
// objects it needs. Finalizing freezes the list; every replay shares it, so replays need no
// validation and any number of them can be in flight at once. The operations run in the
// order they were recorded, which satisfies every sync point (a sync point names an
// earlier command) and the recording queue's own order. A mutable buffer's kernel commands
// (mutable_command.h) can be replaced after finalizing: the list is copied with the new
// command, and replays already enqueued keep the list they were given.
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "platform/command_buffer/command_buffer_khr.h"
#include "platform/command_buffer/mutable_command.h"
#include "platform/objects/api_ref.h"
#include "platform/queue/command.h"
#include "platform/queue/queue.h"

namespace cucl {

class CommandBuffer final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::CommandBuffer;
  static constexpr cl_int kInvalidHandle = CL_INVALID_COMMAND_BUFFER_KHR;

  CommandBuffer(Queue& queue, cl_command_buffer_flags_khr flags, cl_mutable_dispatch_asserts_khr asserts,
                std::vector<cl_command_buffer_properties_khr> properties);

  Queue& queue() const { return *queue_; }
  Context& context() const { return queue_->context(); }
  cl_command_buffer_flags_khr flags() const { return flags_; }
  bool is_mutable() const { return flags_ & CL_COMMAND_BUFFER_MUTABLE_KHR; }
  // CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR: what every kernel command promises.
  cl_mutable_dispatch_asserts_khr mutable_dispatch_asserts() const { return asserts_; }
  const std::vector<cl_command_buffer_properties_khr>& properties() const { return properties_; }
  // Recording, then finalized while a mutable command still lacks arguments, then executable.
  cl_command_buffer_state_khr state() const;
  // state() != CL_COMMAND_BUFFER_STATE_RECORDING_KHR, without asking every mutable command.
  bool finalized() const;

  // CL_INVALID_OPERATION once finalized; CL_INVALID_SYNC_POINT_WAIT_LIST_KHR unless the
  // list is well formed and names commands already recorded.
  void check_recording(cl_uint num_sync_points, const cl_sync_point_khr* sync_points) const;
  // Appends the command `spec` describes (after a check_recording of its sync points);
  // returns its sync point, 1 + its index.
  cl_sync_point_khr record(CommandSpec spec);
  // A mutable kernel command at the next index: its work (nothing while its arguments are
  // incomplete), and the handle the application gets, which this buffer owns.
  cl_sync_point_khr record_mutable(CommandSpec spec, Ref<Kernel> kernel, MutableCommand::Config config,
                                   cl_mutable_dispatch_fields_khr updatable,
                                   std::vector<cl_command_properties_khr> properties, cl_mutable_command_khr* handle);
  // Replaces the work of each command `index` for every later replay (one copy of the list
  // for all of them), taking what each `spec` holds.
  struct Replacement {
    size_t index;
    CommandSpec* spec;
    bool same_memory = false;  // the command touches and holds what it did: only its operation changes
  };
  // `into` becomes command `index`'s operation as the next replay would run it.
  void copy_operation(size_t index, backend::Operation& into) const;
  void replace(std::span<const Replacement> replacements);
  // Held by clUpdateMutableCommandsKHR from its checks to its last replacement.
  std::mutex& update_mutex() { return update_mutex_; }
  // CL_INVALID_OPERATION unless recording.
  void finalize();
  // The work of one enqueue: the recorded list, the memory it touches, and this buffer
  // held for as long as the replay runs. CL_INVALID_OPERATION unless executable.
  CommandSpec replay() const;

 private:
  struct Recorded {
    std::vector<MemoryAccess> accesses;
    HeldObjects held;
  };
  // The mutable commands' handles go with the buffer's.
  void on_api_released() override;
  cl_command_buffer_state_khr state_locked() const;
  // What the buffer keeps of a command besides its operation (taken from `spec`).
  static Recorded recorded_of(CommandSpec& spec);
  cl_sync_point_khr append(CommandSpec spec);
  // A copy of list_ as a new version, for an update of a finalized buffer.
  std::shared_ptr<backend::op::RecordedOperations> next_version_locked();

  Ref<Queue> queue_;
  ApiRef<Queue> queue_pin_;  // CL_COMMAND_BUFFER_QUEUES_KHR is a valid handle while this one is
  const cl_command_buffer_flags_khr flags_;
  const cl_mutable_dispatch_asserts_khr asserts_;
  const std::vector<cl_command_buffer_properties_khr> properties_;

  mutable std::mutex mutex_;
  std::mutex update_mutex_;
  bool finalized_ = false;
  std::vector<backend::Operation> operations_;  // while recording
  std::vector<Recorded> recorded_;              // per command
  std::vector<Ref<MutableCommand>> mutable_commands_;
  std::shared_ptr<backend::op::RecordedOperations> list_;  // once finalized
  // The version before list_, kept so that an update once no replay holds it any more makes
  // the next version in its place rather than in new memory.
  std::shared_ptr<backend::op::RecordedOperations> spare_;
};

}  // namespace cucl

#include "platform/command_buffer/command_buffer.h"

#include <algorithm>
#include <atomic>

namespace cucl {

CommandBuffer::CommandBuffer(Queue& queue, cl_command_buffer_flags_khr flags, cl_mutable_dispatch_asserts_khr asserts,
                             std::vector<cl_command_buffer_properties_khr> properties)
    : Object(kKind),
      queue_(&queue),
      queue_pin_(Ref<Queue>(&queue)),
      flags_(flags),
      asserts_(asserts),
      properties_(std::move(properties)) {}

void CommandBuffer::on_api_released() {
  queue_pin_.reset();
  std::lock_guard lock(mutex_);
  for (const Ref<MutableCommand>& command : mutable_commands_) command->release_api();
}

cl_command_buffer_state_khr CommandBuffer::state() const {
  std::lock_guard lock(mutex_);
  return state_locked();
}

bool CommandBuffer::finalized() const {
  std::lock_guard lock(mutex_);
  return finalized_;
}

cl_command_buffer_state_khr CommandBuffer::state_locked() const {
  if (!finalized_) return CL_COMMAND_BUFFER_STATE_RECORDING_KHR;
  const bool complete = std::all_of(mutable_commands_.begin(), mutable_commands_.end(),
                                    [](const Ref<MutableCommand>& command) { return command->complete(); });
  return complete ? CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR : CL_COMMAND_BUFFER_STATE_FINALIZED_KHR;
}

void CommandBuffer::check_recording(cl_uint num_sync_points, const cl_sync_point_khr* sync_points) const {
  std::lock_guard lock(mutex_);
  check(!finalized_, CL_INVALID_OPERATION);
  check((num_sync_points == 0) == (sync_points == nullptr), CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  // Sync points are 1 + the index of their command: 0 is never one.
  for (cl_uint i = 0; i < num_sync_points; ++i) {
    check(sync_points[i] >= 1 && sync_points[i] <= recorded_.size(), CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  }
}

CommandBuffer::Recorded CommandBuffer::recorded_of(CommandSpec& spec) {
  return Recorded{std::move(spec.accesses), std::move(spec.keep_alive)};
}

cl_sync_point_khr CommandBuffer::append(CommandSpec spec) {
  check(!finalized_, CL_INVALID_OPERATION);
  operations_.push_back(std::move(spec.operation));
  recorded_.push_back(recorded_of(spec));
  return static_cast<cl_sync_point_khr>(recorded_.size());
}

cl_sync_point_khr CommandBuffer::record(CommandSpec spec) {
  std::lock_guard lock(mutex_);
  return append(std::move(spec));
}

cl_sync_point_khr CommandBuffer::record_mutable(CommandSpec spec, Ref<Kernel> kernel, MutableCommand::Config config,
                                                cl_mutable_dispatch_fields_khr updatable,
                                                std::vector<cl_command_properties_khr> properties,
                                                cl_mutable_command_khr* handle) {
  std::lock_guard lock(mutex_);
  const size_t index = recorded_.size();
  auto command = make<MutableCommand>(*this, index, std::move(kernel), std::move(config), updatable,
                                      std::move(properties));
  const cl_sync_point_khr sync_point = append(std::move(spec));
  *handle = cucl::publish<cl_mutable_command_khr>(command);
  mutable_commands_.push_back(std::move(command));
  return sync_point;
}

void CommandBuffer::replace(std::span<const Replacement> replacements) {
  std::lock_guard lock(mutex_);
  // Replays already enqueued keep the list they were given.
  std::shared_ptr<backend::op::RecordedOperations> list;
  if (finalized_) list = next_version_locked();
  for (const Replacement& replacement : replacements) {
    CommandSpec& spec = *replacement.spec;
    if (!replacement.same_memory) recorded_.at(replacement.index) = recorded_of(spec);
    auto& operations = list ? list->operations : operations_;
    operations.at(replacement.index) = std::move(spec.operation);
    if (list) list->replaced_in.at(replacement.index) = list->version;
  }
  if (list) {
    spare_ = std::move(list_);
    list_ = std::move(list);
  }
}

std::shared_ptr<backend::op::RecordedOperations> CommandBuffer::next_version_locked() {
  std::shared_ptr<backend::op::RecordedOperations> list;
  if (spare_ && spare_.use_count() == 1) {
    // The last replay that held it has let go (a release): what it read comes before this.
    std::atomic_thread_fence(std::memory_order_acquire);
    list = std::move(spare_);
    list->operations = list_->operations;  // in the memory the spare already has
    list->replaced_in = list_->replaced_in;
  } else {
    list = std::make_shared<backend::op::RecordedOperations>(*list_);
  }
  list->version = ++list->replay_states->last_version;
  return list;
}

void CommandBuffer::copy_operation(size_t index, backend::Operation& into) const {
  std::lock_guard lock(mutex_);
  into = finalized_ ? list_->operations.at(index) : operations_.at(index);
}

void CommandBuffer::finalize() {
  std::lock_guard lock(mutex_);
  check(!finalized_, CL_INVALID_OPERATION);
  auto list = std::make_shared<backend::op::RecordedOperations>();
  list->operations = std::move(operations_);
  list->replaced_in.assign(list->operations.size(), 0);
  list_ = std::move(list);
  finalized_ = true;
}

CommandSpec CommandBuffer::replay() const {
  std::lock_guard lock(mutex_);
  check(state_locked() == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR, CL_INVALID_OPERATION);
  CommandSpec spec;
  spec.type = CL_COMMAND_COMMAND_BUFFER_KHR;
  spec.operation = backend::op::CommandList{list_};
  for (const Recorded& recorded : recorded_) {
    spec.accesses.insert(spec.accesses.end(), recorded.accesses.begin(), recorded.accesses.end());
  }
  // The buffer holds what its commands touch (memory objects, kernels) until it dies.
  spec.keep_alive.push_back(Ref<Object>(const_cast<CommandBuffer*>(this)));
  return spec;
}

}  // namespace cucl

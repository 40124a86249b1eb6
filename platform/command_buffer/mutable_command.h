// A cl_mutable_command_khr (cl_khr_command_buffer_mutable_dispatch): a kernel command of a
// mutable command buffer, with the configuration a replay runs (argument values, range),
// which clUpdateMutableCommandsKHR replaces. Its handle lives as long as its buffer, which
// owns it.
#pragma once

#include <array>
#include <mutex>
#include <vector>

#include "platform/command_buffer/command_buffer_khr.h"
#include "platform/program/kernel.h"

namespace cucl {

class CommandBuffer;

class MutableCommand final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::MutableCommand;
  static constexpr cl_int kInvalidHandle = CL_INVALID_MUTABLE_COMMAND_KHR;

  struct Config {
    cl_uint work_dim = 1;
    std::array<size_t, 3> global_offset{0, 0, 0};
    std::array<size_t, 3> global_size{0, 0, 0};
    std::array<size_t, 3> local_size{0, 0, 0};
    bool local_given = false;  // false: the launch picks the local size
    std::vector<KernelArgValue> args;
    // Every argument has a value (a command recorded before they were all set waits for
    // its update; its buffer cannot be enqueued meanwhile).
    bool complete() const;
  };

  MutableCommand(CommandBuffer& buffer, size_t index, Ref<Kernel> kernel, Config config,
                 cl_mutable_dispatch_fields_khr updatable, std::vector<cl_command_properties_khr> properties);

  CommandBuffer& buffer() const { return buffer_; }
  size_t index() const { return index_; }  // its place in the buffer's list
  Kernel& kernel() const { return *kernel_; }
  cl_mutable_dispatch_fields_khr updatable() const { return updatable_; }
  const std::vector<cl_command_properties_khr>& properties() const { return properties_; }
  Config config() const;
  // The configuration itself, for clUpdateMutableCommandsKHR only: it holds the buffer's
  // update_mutex(), and updates are the only writers.
  const Config& config_while_updating() const { return config_; }
  void set_config(Config config);
  // config().complete(), without the copy (the buffer's state asks on every enqueue).
  bool complete() const;

 private:
  CommandBuffer& buffer_;
  const size_t index_;
  Ref<Kernel> kernel_;
  const cl_mutable_dispatch_fields_khr updatable_;
  const std::vector<cl_command_properties_khr> properties_;
  mutable std::mutex mutex_;
  Config config_;
  bool complete_;
};

}  // namespace cucl

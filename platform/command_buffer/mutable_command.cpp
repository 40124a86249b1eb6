#include "platform/command_buffer/mutable_command.h"

#include <algorithm>

namespace cucl {

bool MutableCommand::Config::complete() const {
  return std::all_of(args.begin(), args.end(), [](const KernelArgValue& arg) { return arg.set; });
}

MutableCommand::MutableCommand(CommandBuffer& buffer, size_t index, Ref<Kernel> kernel, Config config,
                               cl_mutable_dispatch_fields_khr updatable,
                               std::vector<cl_command_properties_khr> properties)
    : Object(kKind),
      buffer_(buffer),
      index_(index),
      kernel_(std::move(kernel)),
      updatable_(updatable),
      properties_(std::move(properties)),
      config_(std::move(config)),
      complete_(config_.complete()) {}

MutableCommand::Config MutableCommand::config() const {
  std::lock_guard lock(mutex_);
  return config_;
}

void MutableCommand::set_config(Config config) {
  std::lock_guard lock(mutex_);
  config_ = std::move(config);
  complete_ = config_.complete();
}

bool MutableCommand::complete() const {
  std::lock_guard lock(mutex_);
  return complete_;
}

}  // namespace cucl

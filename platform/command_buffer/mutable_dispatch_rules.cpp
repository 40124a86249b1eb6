#include "platform/command_buffer/mutable_dispatch_rules.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "base/error.h"
#include "base/inline_vector.h"
#include "platform/memory/svm_rules.h"
#include "platform/objects/lookup.h"
#include "platform/program/ndrange.h"

namespace cucl {
namespace {

struct KernelProperties {
  cl_mutable_dispatch_fields_khr updatable = kMutableDispatchFields;  // the default: what the device offers
  cl_mutable_dispatch_asserts_khr asserts = 0;
  std::vector<cl_command_properties_khr> as_given;
};

constexpr cl_mutable_dispatch_fields_khr kDefinedFields = kMutableDispatchFields | CL_MUTABLE_DISPATCH_EXEC_INFO_KHR;

KernelProperties parse_kernel_properties(const cl_command_properties_khr* properties) {
  KernelProperties parsed;
  bool seen_fields = false, seen_asserts = false;
  for (const cl_command_properties_khr* p = properties; p && *p != 0; p += 2) {
    if (p[0] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR && !seen_fields) {
      check((p[1] & ~kDefinedFields) == 0, CL_INVALID_VALUE);
      // A field the device does not offer (execution info) is valid but not supported.
      check((p[1] & ~kMutableDispatchFields) == 0, CL_INVALID_OPERATION);
      parsed.updatable = p[1];
      seen_fields = true;
    } else if (p[0] == CUCL_MUTABLE_DISPATCH_ASSERTS && !seen_asserts) {
      check((p[1] & ~cl_command_properties_khr{CUCL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS}) == 0,
            CL_INVALID_VALUE);
      parsed.asserts = p[1];
      seen_asserts = true;
    } else {
      fail(CL_INVALID_VALUE);
    }
    parsed.as_given.insert(parsed.as_given.end(), {p[0], p[1]});
  }
  if (!parsed.as_given.empty()) parsed.as_given.push_back(0);
  return parsed;
}

MutableCommand::Config config_of(cl_uint work_dim, const size_t* offset, const size_t* global, const size_t* local) {
  MutableCommand::Config config;
  config.work_dim = work_dim;
  for (cl_uint d = 0; d < std::min<cl_uint>(work_dim, 3); ++d) {
    if (offset) config.global_offset[d] = offset[d];
    if (global) config.global_size[d] = global[d];
    if (local) config.local_size[d] = local[d];
  }
  config.local_given = local != nullptr;
  return config;
}

bool uniform(const MutableCommand::Config& config) {
  for (cl_uint d = 0; d < config.work_dim; ++d) {
    if (config.local_size[d] != 0 && config.global_size[d] % config.local_size[d] != 0) return false;
  }
  return true;
}

// The work a configuration runs, after the range's checks: its launch, or, while arguments
// are missing, nothing (the buffer cannot be enqueued until an update sets them).
CommandSpec work_of(Queue& queue, Kernel& kernel, const MutableCommand::Config& config) {
  const size_t* local = config.local_given ? config.local_size.data() : nullptr;
  const bool complete = config.complete();
  const std::vector<KernelArgValue> none;
  CommandSpec spec = ndrange_kernel_with(queue, kernel, complete ? config.args : none, config.work_dim,
                                         config.global_offset.data(), config.global_size.data(), local);
  if (!complete) {
    spec.operation = backend::op::Nothing{};
    spec.accesses.clear();
  }
  return spec;
}

// `before` with one cl_mutable_dispatch_config_khr applied, after every check it needs (those
// of clEnqueueNDRangeKernel follow in work_of).
MutableCommand::Config changed_config(const MutableCommand& command, const MutableDispatchConfig& change,
                                      const MutableCommand::Config& before) {
  const cl_mutable_dispatch_fields_khr fields = command.updatable();
  MutableCommand::Config next = before;
  check(change.work_dim == 0 || change.work_dim == before.work_dim, CL_INVALID_OPERATION);
  auto take = [&](const size_t* given, cl_mutable_dispatch_fields_khr field, std::array<size_t, 3>& into) {
    if (!given) return;
    check(fields & field, CL_INVALID_OPERATION);
    std::copy(given, given + before.work_dim, into.begin());
  };
  take(change.global_work_offset, CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR, next.global_offset);
  take(change.global_work_size, CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, next.global_size);
  take(change.local_work_size, CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR, next.local_size);
  if (change.local_work_size) next.local_given = true;
  check(uniform(before) == uniform(next), CL_INVALID_OPERATION);
  check((change.arg_list == nullptr) == (change.num_args == 0), CL_INVALID_VALUE);
  check((change.arg_svm_list == nullptr) == (change.num_svm_args == 0), CL_INVALID_VALUE);
  check((change.exec_info_list == nullptr) == (change.num_exec_infos == 0), CL_INVALID_VALUE);
  if (change.num_args || change.num_svm_args) check(fields & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, CL_INVALID_OPERATION);
  if (change.num_exec_infos) check(fields & CL_MUTABLE_DISPATCH_EXEC_INFO_KHR, CL_INVALID_OPERATION);
  for (cl_uint a = 0; a < change.num_args; ++a) {
    const cl_mutable_dispatch_arg_khr& arg = change.arg_list[a];
    // The command's own copy: the kernel object keeps its arguments.
    KernelArgValue value = command.kernel().argument_value(arg.arg_index, arg.arg_size, arg.arg_value);
    next.args[arg.arg_index] = std::move(value);
  }
  for (cl_uint a = 0; a < change.num_svm_args; ++a) {
    const cl_mutable_dispatch_arg_khr& arg = change.arg_svm_list[a];
    next.args[arg.arg_index] = svm_argument_value(command.kernel(), arg.arg_index, arg.arg_value);
  }
  return next;
}

// Whether `change` sets by-value arguments of a complete command and nothing else: then the
// range and the memory the launch touches stay as they were checked, and patch_values puts
// the new bytes into the launch as it is, without building it again.
bool changes_only_values(const MutableCommand& command, const MutableDispatchConfig& change) {
  if (change.global_work_offset || change.global_work_size || change.local_work_size || change.num_svm_args ||
      change.num_exec_infos || !command.config_while_updating().complete()) {
    return false;
  }
  const auto& metadata = command.kernel().metadata().args;
  for (cl_uint a = 0; a < change.num_args; ++a) {
    if (metadata.at(change.arg_list[a].arg_index).kind != compiler::KernelArgMetadata::Kind::Value) return false;
  }
  return true;
}

// `into` becomes the command's launch with `change`'s by-value arguments as `next` has them;
// false where its operation is no launch (an empty range) or lays an argument out otherwise.
bool patch_values(const CommandBuffer& buffer, const MutableCommand& command, const MutableDispatchConfig& change,
                  const MutableCommand::Config& next, backend::Operation& into) {
  buffer.copy_operation(command.index(), into);
  auto* launch = std::get_if<backend::op::LaunchKernel>(&into);
  if (!launch) return false;
  for (cl_uint a = 0; a < change.num_args; ++a) {
    const cl_uint index = change.arg_list[a].arg_index;
    const backend::op::KernelArgument& argument = launch->arguments[index];
    const KernelArgValue& value = next.args[index];
    if (argument.kind != backend::op::KernelArgument::Kind::Bytes || argument.size != value.bytes.size()) return false;
    std::memcpy(launch->bytes.data() + argument.bytes_offset, value.bytes.data(), value.bytes.size());
  }
  return true;
}

}  // namespace

void record_kernel(CommandBuffer& buffer, const cl_command_properties_khr* properties, Kernel& kernel,
                   cl_uint work_dim, const size_t* global_work_offset, const size_t* global_work_size,
                   const size_t* local_work_size, cl_sync_point_khr* sync_point, cl_mutable_command_khr* handle) {
  KernelProperties parsed = parse_kernel_properties(properties);
  // Asserting the number of work-groups stays needs a number of work-groups to start from.
  const bool assert_groups = (parsed.asserts | buffer.mutable_dispatch_asserts()) &
                             CUCL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS;
  check(!assert_groups || local_work_size != nullptr, CL_INVALID_VALUE);
  Queue& queue = buffer.queue();
  cl_sync_point_khr point = 0;
  if (!handle) {
    point = buffer.record(ndrange_kernel(queue, kernel, work_dim, global_work_offset, global_work_size,
                                         local_work_size));
  } else {
    // Any buffer hands out handles; only a mutable one takes updates.
    check(work_dim >= 1 && work_dim <= 3, CL_INVALID_WORK_DIMENSION);
    MutableCommand::Config config = config_of(work_dim, global_work_offset, global_work_size, local_work_size);
    config.args = kernel.with_arguments([](const std::vector<KernelArgValue>& args) { return args; });
    // Arguments may be left for an update only where an update may set them.
    const bool may_defer = buffer.is_mutable() && (parsed.updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR);
    check(config.complete() || may_defer, CL_INVALID_KERNEL_ARGS);
    CommandSpec spec = work_of(queue, kernel, config);
    point = buffer.record_mutable(std::move(spec), Ref<Kernel>(&kernel), std::move(config), parsed.updatable,
                                  std::move(parsed.as_given), handle);
  }
  if (sync_point) *sync_point = point;
}

void update_mutable_commands(CommandBuffer& buffer, cl_uint num_configs, const cl_uint* config_types,
                             const void** configs) {
  check(buffer.finalized(), CL_INVALID_OPERATION);
  check(buffer.is_mutable(), CL_INVALID_OPERATION);
  check((config_types == nullptr) == (num_configs == 0), CL_INVALID_VALUE);
  check((configs == nullptr) == (num_configs == 0), CL_INVALID_VALUE);
  for (cl_uint i = 0; i < num_configs; ++i) {
    check(config_types[i] == CUCL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG, CL_INVALID_VALUE);
    check(configs[i] != nullptr, CL_INVALID_VALUE);
  }
  struct Update {
    Update(Ref<MutableCommand> changed, MutableCommand::Config next)  // work: patched in place
        : command(std::move(changed)), config(std::move(next)), same_memory(true) {}
    Update(Queue& queue, Ref<MutableCommand> changed, MutableCommand::Config next)
        : command(std::move(changed)),
          config(std::move(next)),
          work(work_of(queue, command->kernel(), config)),
          same_memory(false) {}
    Ref<MutableCommand> command;
    MutableCommand::Config config;
    CommandSpec work;
    bool same_memory;  // work holds only the operation; the command touches what it did
  };
  // One update at a time per buffer, so that what is checked is what is replaced.
  const std::lock_guard lock(buffer.update_mutex());
  std::vector<Update> updates;
  updates.reserve(num_configs);
  for (cl_uint i = 0; i < num_configs; ++i) {
    const auto& change = *static_cast<const MutableDispatchConfig*>(configs[i]);
    Ref<MutableCommand> command = lookup<MutableCommand>(change.command);
    check(&command->buffer() == &buffer, CL_INVALID_MUTABLE_COMMAND_KHR);
    // A command named twice takes both changes, in order.
    auto earlier = std::find_if(updates.begin(), updates.end(),
                                [&](const Update& update) { return update.command == command; });
    if (earlier != updates.end()) {
      earlier->config = changed_config(*command, change, earlier->config);
      earlier->work = work_of(buffer.queue(), command->kernel(), earlier->config);
      earlier->same_memory = false;
      continue;
    }
    MutableCommand::Config next = changed_config(*command, change, command->config_while_updating());
    if (changes_only_values(*command, change)) {
      Update& update = updates.emplace_back(command, std::move(next));
      if (patch_values(buffer, *command, change, update.config, update.work.operation)) continue;
      update.work = work_of(buffer.queue(), command->kernel(), update.config);
      update.same_memory = false;
    } else {
      updates.emplace_back(buffer.queue(), std::move(command), std::move(next));
    }
  }
  InlineVector<CommandBuffer::Replacement, 4> replacements;
  replacements.reserve(updates.size());
  for (Update& update : updates) replacements.push_back({update.command->index(), &update.work, update.same_memory});
  buffer.replace({replacements.data(), replacements.size()});
  for (Update& update : updates) update.command->set_config(std::move(update.config));
}

void mutable_command_info(MutableCommand& command, cl_uint param, InfoWriter& out) {
  const MutableCommand::Config config = command.config();
  auto sizes = [&](const std::array<size_t, 3>& values) { out.bytes(values.data(), config.work_dim * sizeof(size_t)); };
  switch (param) {
    case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR: return out.scalar(command.buffer().queue().id());
    case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
      return out.scalar(reinterpret_cast<cl_command_buffer_khr>(command.buffer().handle()));
    case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR: return out.scalar(cl_command_type{CL_COMMAND_NDRANGE_KERNEL});
    case CUCL_MUTABLE_COMMAND_PROPERTIES_ARRAY: return out.array(command.properties());
    case CL_MUTABLE_DISPATCH_KERNEL_KHR: return out.scalar(command.kernel().id());
    case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR: return out.scalar(config.work_dim);
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR: return sizes(config.global_offset);
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR: return sizes(config.global_size);
    case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR: return sizes(config.local_size);
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

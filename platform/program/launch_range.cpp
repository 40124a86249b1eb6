#include "platform/program/launch_range.h"

#include <algorithm>
#include <limits>

#include "base/error.h"

namespace cucl {
namespace {

// The largest divisor of `n` that is at most `limit`.
size_t largest_divisor_at_most(size_t n, size_t limit) {
  for (size_t d = std::min(n, limit); d > 1; --d) {
    if (n % d == 0) return d;
  }
  return 1;
}

}  // namespace

std::array<size_t, 3> choose_local_size(cl_uint work_dim, const std::array<size_t, 3>& global, size_t max_group,
                                        const std::array<size_t, 3>& max_item_sizes, cl_uint compute_units) {
  std::array<size_t, 3> local{1, 1, 1};
  size_t total = 1;
  for (cl_uint d = 0; d < work_dim; ++d) total *= std::max<size_t>(global[d], 1);
  // Enough groups to keep every compute unit busy several times over, else the largest.
  const size_t wanted_groups = static_cast<size_t>(compute_units) * 4;
  size_t budget = std::max<size_t>(1, std::min(max_group, total / std::max<size_t>(wanted_groups, 1)));
  for (cl_uint d = 0; d < work_dim; ++d) {
    local[d] = largest_divisor_at_most(std::max<size_t>(global[d], 1), std::min(budget, max_item_sizes[d]));
    budget = std::max<size_t>(1, budget / local[d]);
  }
  return local;
}

backend::NDRange launch_range(const Kernel& kernel, const Device& device, const backend::KernelCode& code,
                              cl_uint work_dim, const size_t* global_work_offset, const size_t* global_work_size,
                              const size_t* local_work_size) {
  const auto& description = device.description();
  check(work_dim >= 1 && work_dim <= description.max_work_item_dimensions, CL_INVALID_WORK_DIMENSION);
  // OpenCL 2.1 and newer devices: a NULL global size, like a zero one, launches nothing.
  static constexpr size_t kNoWork[3] = {0, 0, 0};
  if (!global_work_size) global_work_size = kNoWork;

  backend::NDRange range;
  range.work_dim = work_dim;
  for (cl_uint d = 0; d < work_dim; ++d) {
    range.global_size[d] = global_work_size[d];
    range.global_offset[d] = global_work_offset ? global_work_offset[d] : 0;
    check(range.global_offset[d] <= std::numeric_limits<size_t>::max() - range.global_size[d],
          CL_INVALID_GLOBAL_OFFSET);
  }

  const auto& reqd = kernel.metadata().reqd_work_group_size;
  const bool has_reqd = reqd[0] != 0;
  // SPIR-V's SubgroupsPerWorkgroup: the work-group must hold exactly that many sub-groups.
  const size_t required_sub_groups = description.sub_group_width ? kernel.metadata().sub_groups_per_work_group : 0;
  const size_t sub_group_width = std::max<size_t>(1, description.sub_group_width);
  const size_t max_group = std::min(code.max_work_group_size(), description.max_work_group_size);
  if (local_work_size) {
    size_t product = 1;
    for (cl_uint d = 0; d < work_dim; ++d) {
      check(local_work_size[d] != 0, CL_INVALID_WORK_GROUP_SIZE);
      check(local_work_size[d] <= description.max_work_item_sizes[d], CL_INVALID_WORK_ITEM_SIZE);
      range.local_size[d] = local_work_size[d];
      product *= local_work_size[d];
    }
    if (has_reqd) {
      for (cl_uint d = 0; d < 3; ++d) check(range.local_size[d] == reqd[d], CL_INVALID_WORK_GROUP_SIZE);
    }
    if (required_sub_groups) {
      check((product + sub_group_width - 1) / sub_group_width == required_sub_groups, CL_INVALID_WORK_GROUP_SIZE);
    }
    check(product <= max_group, CL_INVALID_WORK_GROUP_SIZE);
    if (kernel.uniform_work_groups(device)) {
      for (cl_uint d = 0; d < work_dim; ++d) {
        check(range.global_size[d] % range.local_size[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
      }
    }
  } else if (has_reqd) {
    for (cl_uint d = 0; d < 3; ++d) range.local_size[d] = reqd[d];
    check(reqd[0] * reqd[1] * reqd[2] <= max_group, CL_INVALID_WORK_GROUP_SIZE);
    if (kernel.uniform_work_groups(device)) {
      for (cl_uint d = 0; d < work_dim; ++d) {
        check(range.global_size[d] % range.local_size[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
      }
    }
  } else if (required_sub_groups) {
    // That many whole sub-groups in the first dimension.
    range.local_size[0] = required_sub_groups * sub_group_width;
    check(range.local_size[0] <= std::min(max_group, description.max_work_item_sizes[0]), CL_INVALID_WORK_GROUP_SIZE);
    if (kernel.uniform_work_groups(device)) {
      check(range.global_size[0] % range.local_size[0] == 0, CL_INVALID_WORK_GROUP_SIZE);
    }
  } else {
    size_t group_limit = max_group;
    if (size_t preferred = code.preferred_work_group_size()) group_limit = std::min(group_limit, preferred);
    range.local_size = choose_local_size(work_dim, range.global_size, group_limit, description.max_work_item_sizes,
                                         description.max_compute_units);
  }

  return range;
}

void suggested_local_work_size(Queue& queue, Kernel& kernel, cl_uint work_dim, const size_t* global_work_offset,
                               const size_t* global_work_size, size_t* suggested_local_work_size) {
  Device& device = queue.device();
  check(&kernel.context() == &queue.context(), CL_INVALID_CONTEXT);
  const backend::KernelCode& code = kernel.code(device);  // CL_INVALID_PROGRAM_EXECUTABLE
  kernel.with_arguments([](const std::vector<KernelArgValue>& args) {
    for (const KernelArgValue& arg : args) check(arg.set, CL_INVALID_KERNEL_ARGS);
    return 0;
  });
  check(work_dim >= 1 && work_dim <= device.description().max_work_item_dimensions, CL_INVALID_WORK_DIMENSION);
  // Unlike an enqueue, a query of no work has no answer.
  check(global_work_size != nullptr, CL_INVALID_GLOBAL_WORK_SIZE);
  for (cl_uint d = 0; d < work_dim; ++d) check(global_work_size[d] != 0, CL_INVALID_GLOBAL_WORK_SIZE);
  check(suggested_local_work_size != nullptr, CL_INVALID_VALUE);
  const backend::NDRange range =
      launch_range(kernel, device, code, work_dim, global_work_offset, global_work_size, nullptr);
  std::copy(range.local_size.begin(), range.local_size.begin() + work_dim, suggested_local_work_size);
}

}  // namespace cucl

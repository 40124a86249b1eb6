#include "platform/info/info.h"

#include <algorithm>
#include <array>

#include "platform/program/kernel.h"

namespace cucl {

void kernel_info(Kernel& kernel, cl_kernel_info param, InfoWriter& out) {
  const compiler::KernelMetadata& metadata = kernel.metadata();
  switch (param) {
    case CL_KERNEL_FUNCTION_NAME: return out.string(metadata.name);
    case CL_KERNEL_NUM_ARGS: return out.scalar(static_cast<cl_uint>(metadata.args.size()));
    case CL_KERNEL_REFERENCE_COUNT: return out.scalar(kernel.api_ref_count());
    case CL_KERNEL_CONTEXT: return out.scalar(kernel.context().id());
    case CL_KERNEL_PROGRAM: return out.scalar(kernel.program().id());
    case CL_KERNEL_ATTRIBUTES: {
      // Only kernels compiled from OpenCL C source report their attributes.
      const Program::Origin origin = kernel.program().origin();
      const bool from_source = origin == Program::Origin::Source || origin == Program::Origin::Linked;
      return out.string(from_source ? metadata.attributes : std::string());
    }
    default: fail(CL_INVALID_VALUE);
  }
}

void kernel_arg_info(Kernel& kernel, cl_uint index, cl_kernel_arg_info param, InfoWriter& out) {
  const compiler::KernelMetadata& metadata = kernel.metadata();
  check(index < metadata.args.size(), CL_INVALID_ARG_INDEX);
  const compiler::KernelArgMetadata& arg = metadata.args[index];
  switch (param) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    case CL_KERNEL_ARG_TYPE_NAME:
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
    case CL_KERNEL_ARG_NAME: check(kernel.has_arg_info(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE); break;
    default: fail(CL_INVALID_VALUE);
  }
  switch (param) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: return out.scalar(arg.address);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: return out.scalar(arg.access);
    case CL_KERNEL_ARG_TYPE_NAME: return out.string(arg.type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER: return out.scalar(arg.type_qualifier);
    default: return out.string(arg.name);
  }
}

void kernel_work_group_info(Kernel& kernel, Device* device, cl_kernel_work_group_info param, InfoWriter& out) {
  if (!device) {
    check(kernel.program().devices().size() == 1, CL_INVALID_DEVICE);
    device = kernel.program().devices().front();
  }
  check(kernel.program().has_device(device), CL_INVALID_DEVICE);
  switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE: return out.scalar(kernel.max_work_group_size(*device));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: return out.bytes(kernel.metadata().reqd_work_group_size.data(), 3 * sizeof(size_t));
    case CL_KERNEL_LOCAL_MEM_SIZE: return out.scalar(static_cast<cl_ulong>(kernel.local_memory_size(*device)));
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: {
      const size_t own = kernel.code(*device).preferred_work_group_size_multiple();
      return out.scalar(std::max<size_t>(1, own ? own : device->description().preferred_work_group_size_multiple));
    }
    case CL_KERNEL_PRIVATE_MEM_SIZE: return out.scalar(static_cast<cl_ulong>(kernel.code(*device).private_memory()));
    // Only for custom devices and built-in kernels, which cucl does not have.
    case CL_KERNEL_GLOBAL_WORK_SIZE: fail(CL_INVALID_VALUE);
    default: fail(CL_INVALID_VALUE);
  }
}

namespace {

// The work-items of the local size in a size_t[1..3] input (MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
// SUB_GROUP_COUNT_FOR_NDRANGE).
size_t local_items_of(size_t input_size, const void* input) {
  check(input != nullptr && input_size % sizeof(size_t) == 0 && input_size >= sizeof(size_t) &&
            input_size <= 3 * sizeof(size_t),
        CL_INVALID_VALUE);
  size_t items = 1;
  for (size_t d = 0; d < input_size / sizeof(size_t); ++d) items *= static_cast<const size_t*>(input)[d];
  return items;
}

// CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: a 1-D local size of `count` whole sub-groups (the
// kernel's required size where it has one and that gives `count`), else zeros, in as many
// dimensions as the application's param_value_size holds.
void local_size_for_sub_group_count(Kernel& kernel, const Device& device, size_t width, size_t input_size,
                                    const void* input, InfoWriter& out) {
  check(input != nullptr && input_size == sizeof(size_t), CL_INVALID_VALUE);
  const size_t count = *static_cast<const size_t*>(input);
  const size_t dims = !out.has_value() && out.capacity() == 0 ? 3 : out.capacity() / sizeof(size_t);
  check(dims >= 1 && dims <= 3, CL_INVALID_VALUE);
  std::array<size_t, 3> local{0, 0, 0};
  const std::array<size_t, 3>& required = kernel.metadata().reqd_work_group_size;
  if (required[0] != 0) {
    if ((required[0] * required[1] * required[2] + width - 1) / width == count) local = required;
  } else {
    const size_t largest = std::min(kernel.max_work_group_size(device), device.description().max_work_item_sizes[0]);
    if (count != 0 && count <= largest / width) local = {count * width, 1, 1};
  }
  out.bytes(local.data(), dims * sizeof(size_t));
}

}  // namespace

void kernel_sub_group_info(Kernel& kernel, Device* device, cl_kernel_sub_group_info param, size_t input_size,
                           const void* input, InfoWriter& out) {
  if (!device) {
    check(kernel.program().devices().size() == 1, CL_INVALID_DEVICE);
    device = kernel.program().devices().front();
  }
  check(kernel.program().has_device(device), CL_INVALID_DEVICE);
  const backend::DeviceDescription& description = device->description();
  check(description.max_num_sub_groups != 0, CL_INVALID_OPERATION);
  const size_t width = description.sub_group_width;
  switch (param) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
      return out.scalar(std::min(width, local_items_of(input_size, input)));
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
      return out.scalar((local_items_of(input_size, input) + width - 1) / width);
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
      return local_size_for_sub_group_count(kernel, *device, width, input_size, input, out);
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: return out.scalar((kernel.max_work_group_size(*device) + width - 1) / width);
    // Only SPIR-V's SubgroupsPerWorkgroup sets it (OpenCL C has no attribute for it).
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return out.scalar(kernel.metadata().sub_groups_per_work_group);
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

#include "platform/info/info.h"
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
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      kernel.code(*device);
      return out.scalar(std::max<size_t>(1, device->description().preferred_work_group_size_multiple));
    case CL_KERNEL_PRIVATE_MEM_SIZE: return out.scalar(static_cast<cl_ulong>(kernel.code(*device).private_memory()));
    // Only for custom devices and built-in kernels, which cucl does not have.
    case CL_KERNEL_GLOBAL_WORK_SIZE: fail(CL_INVALID_VALUE);
    default: fail(CL_INVALID_VALUE);
  }
}

void kernel_sub_group_info(Kernel& kernel, Device* device, cl_kernel_sub_group_info, size_t, const void*,
                           InfoWriter&) {
  if (device) check(kernel.program().has_device(device), CL_INVALID_DEVICE);
  fail(CL_INVALID_OPERATION);
}

}  // namespace cucl

// What the compiled IR says about each kernel: names, arguments, attributes. Read once
// from the module and shared by every device of the program.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cucl::compiler {

struct KernelArgMetadata {
  enum class Kind : uint8_t { Value, GlobalPointer, ConstantPointer, LocalPointer, Sampler, Image, Pipe, Queue };
  Kind kind = Kind::Value;
  uint32_t size = 0;       // what clSetKernelArg's arg_size must be (pointers: sizeof(void*))
  uint32_t alignment = 1;  // of a by-value argument
  cl_kernel_arg_address_qualifier address = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  cl_kernel_arg_access_qualifier access = CL_KERNEL_ARG_ACCESS_NONE;
  cl_kernel_arg_type_qualifier type_qualifier = CL_KERNEL_ARG_TYPE_NONE;
  std::string type_name;
  std::string name;
};

struct KernelMetadata {
  std::string name;
  std::vector<KernelArgMetadata> args;
  std::array<size_t, 3> reqd_work_group_size{0, 0, 0};  // all 0 when not given
  std::array<size_t, 3> work_group_size_hint{0, 0, 0};
  size_t sub_groups_per_work_group = 0;  // SPIR-V's SubgroupsPerWorkgroup; 0 when not given
  std::string attributes;  // CL_KERNEL_ATTRIBUTES: the attributes as source spells them
};

// The function metadata that carries a kernel's SubgroupsPerWorkgroup from the SPIR-V reader.
inline constexpr const char* kSubGroupsPerWorkGroupMetadata = "cucl.sub_groups_per_work_group";

struct ProgramMetadata {
  std::vector<KernelMetadata> kernels;  // in the order the module defines them
  size_t global_variable_total_size = 0;  // program-scope __global variables, in bytes
};

// Throws cucl::Error(CL_INVALID_BINARY) when `bitcode` is not a readable module.
ProgramMetadata read_program_metadata(std::string_view bitcode);

}  // namespace cucl::compiler

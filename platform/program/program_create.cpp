#include "platform/program/program_create.h"

#include <algorithm>

#include "platform/compiler/program_binary.h"
#include "platform/compiler/spirv_reader.h"
#include "base/error.h"
#include "platform/objects/lookup.h"

namespace cucl {

Ref<Program> create_program_with_source(Ref<Context> context, cl_uint count, const char** strings,
                                        const size_t* lengths) {
  check(count != 0 && strings != nullptr, CL_INVALID_VALUE);
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    check(strings[i] != nullptr, CL_INVALID_VALUE);
    if (lengths && lengths[i] != 0) {
      source.append(strings[i], lengths[i]);
    } else {
      source.append(strings[i]);
    }
  }
  std::vector<Device*> devices = context->devices();
  return make<Program>(std::move(context), Program::Origin::Source, std::move(devices), std::move(source),
                       std::string());
}

Ref<Program> create_program_with_il(Ref<Context> context, const void* il, size_t length) {
  check(il != nullptr && length != 0, CL_INVALID_VALUE);
  const bool any_il = std::any_of(context->devices().begin(), context->devices().end(),
                                  [](const Device* device) { return !device->description().ils.empty(); });
  check(any_il, CL_INVALID_OPERATION);
  std::string module(static_cast<const char*>(il), length);
  check(compiler::is_readable_spirv(module), CL_INVALID_VALUE);
  std::vector<Device*> devices = context->devices();
  return make<Program>(std::move(context), Program::Origin::IL, std::move(devices), std::string(), std::move(module));
}

Ref<Program> create_program_with_binary(Ref<Context> context, cl_uint num_devices, const cl_device_id* device_list,
                                        const size_t* lengths, const unsigned char** binaries,
                                        cl_int* binary_status) {
  check(num_devices != 0 && device_list != nullptr, CL_INVALID_VALUE);
  std::vector<Device*> devices;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device* device = lookup<Device>(device_list[i]).get();
    check(context->has_device(device), CL_INVALID_DEVICE);
    devices.push_back(device);
  }
  check(lengths != nullptr && binaries != nullptr, CL_INVALID_VALUE);
  std::vector<cl_int> statuses(num_devices, CL_SUCCESS);
  std::vector<ProgramBuild> builds(num_devices);
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (lengths[i] == 0 || binaries[i] == nullptr) {
      statuses[i] = CL_INVALID_VALUE;
      continue;
    }
    try {
      compiler::ProgramBinary binary = compiler::deserialize(binaries[i], lengths[i]);
      check(binary.target == devices[i]->description().compiler.code_target, CL_INVALID_BINARY);
      check(binary.type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || binary.type == CL_PROGRAM_BINARY_TYPE_LIBRARY ||
                binary.type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
            CL_INVALID_BINARY);
      builds[i].binary_type = binary.type;
      builds[i].options = std::move(binary.options);
      builds[i].ir = std::move(binary.ir);
      builds[i].native = std::move(binary.native);
      builds[i].kernel_arg_info = binary.kernel_arg_info;
    } catch (const Error&) {
      statuses[i] = CL_INVALID_BINARY;
    }
  }
  if (binary_status) std::copy(statuses.begin(), statuses.end(), binary_status);
  for (cl_int status : statuses) check(status != CL_INVALID_VALUE, CL_INVALID_VALUE);
  for (cl_int status : statuses) check(status == CL_SUCCESS, CL_INVALID_BINARY);
  auto program = make<Program>(std::move(context), Program::Origin::Binary, devices, std::string(), std::string());
  for (cl_uint i = 0; i < num_devices; ++i) program->set_build(*devices[i], std::move(builds[i]));
  return program;
}

void create_program_with_built_in_kernels(const Context& context, cl_uint num_devices, const cl_device_id* device_list,
                                          const char* kernel_names) {
  check(num_devices != 0 && device_list != nullptr, CL_INVALID_VALUE);
  check(kernel_names != nullptr, CL_INVALID_VALUE);
  for (cl_uint i = 0; i < num_devices; ++i) {
    check(context.has_device(lookup<Device>(device_list[i]).get()), CL_INVALID_DEVICE);
  }
  fail(CL_INVALID_VALUE);
}

}  // namespace cucl

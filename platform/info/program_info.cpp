#include <cstring>

#include "platform/compiler/program_binary.h"
#include "platform/info/info.h"
#include "platform/program/program.h"
#include "platform/program/program_codegen.h"

namespace cucl {
namespace {

// Every device that has an executable shares the same kernels.
std::shared_ptr<const compiler::ProgramMetadata> kernels_of(const Program& program) {
  return program.executable_metadata();  // CL_INVALID_PROGRAM_EXECUTABLE when none
}

std::vector<unsigned char> binary_of(const Program& program, const Device& device) {
  const ProgramBuild build = program.build_of(device);
  if (build.binary_type == CL_PROGRAM_BINARY_TYPE_NONE) return {};
  return compiler::serialize(program_binary(device, build));
}

void program_binaries(Program& program, size_t size, void* value, size_t* size_ret) {
  // An array of pointers the application allocated, one per device; a null entry skips
  // that device.
  const size_t count = program.devices().size();
  if (value) {
    check(size >= count * sizeof(unsigned char*), CL_INVALID_VALUE);
    auto** destinations = static_cast<unsigned char**>(value);
    for (size_t i = 0; i < count; ++i) {
      if (!destinations[i]) continue;
      const std::vector<unsigned char> binary = binary_of(program, *program.devices()[i]);
      if (!binary.empty()) std::memcpy(destinations[i], binary.data(), binary.size());
    }
  }
  if (size_ret) *size_ret = count * sizeof(unsigned char*);
}

}  // namespace

void program_info(Program& program, cl_program_info param, size_t size, void* value, size_t* size_ret) {
  if (param == CL_PROGRAM_BINARIES) return program_binaries(program, size, value, size_ret);
  InfoWriter out(size, value, size_ret);
  switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return out.scalar(program.api_ref_count());
    case CL_PROGRAM_CONTEXT: return out.scalar(program.context().id());
    case CL_PROGRAM_NUM_DEVICES: return out.scalar(static_cast<cl_uint>(program.devices().size()));
    case CL_PROGRAM_DEVICES: {
      std::vector<cl_device_id> ids;
      for (Device* device : program.devices()) ids.push_back(device->id());
      return out.array(ids);
    }
    case CL_PROGRAM_SOURCE: return out.string(program.source());
    case CL_PROGRAM_IL: return out.bytes(program.il().data(), program.il().size());
    case CL_PROGRAM_BINARY_SIZES: {
      std::vector<size_t> sizes;
      for (Device* device : program.devices()) sizes.push_back(binary_of(program, *device).size());
      return out.array(sizes);
    }
    case CL_PROGRAM_NUM_KERNELS: return out.scalar(kernels_of(program)->kernels.size());
    case CL_PROGRAM_KERNEL_NAMES: {
      std::string names;
      for (const auto& kernel : kernels_of(program)->kernels) names += (names.empty() ? "" : ";") + kernel.name;
      return out.string(names);
    }
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
      kernels_of(program);  // only answered once an executable exists
      return out.scalar(cl_bool{CL_FALSE});
    default: fail(CL_INVALID_VALUE);
  }
}

void program_build_info(Program& program, Device& device, cl_program_build_info param, InfoWriter& out) {
  check(program.has_device(&device), CL_INVALID_DEVICE);
  const ProgramBuild build = program.build_of(device);
  switch (param) {
    case CL_PROGRAM_BUILD_STATUS: return out.scalar(build.status);
    case CL_PROGRAM_BUILD_OPTIONS: return out.string(build.options);
    case CL_PROGRAM_BUILD_LOG: return out.string(build.log);
    case CL_PROGRAM_BINARY_TYPE: return out.scalar(build.binary_type);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
      return out.scalar(build.metadata ? build.metadata->global_variable_total_size : size_t{0});
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

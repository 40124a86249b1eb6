#include "platform/program/program_build.h"

#include <algorithm>
#include <cstring>

#include "platform/compiler/compile_cache.h"
#include "platform/compiler/frontend.h"
#include "platform/compiler/ir_linker.h"
#include "platform/compiler/program_binary.h"
#include "platform/compiler/spirv_reader.h"
#include "base/error.h"
#include "platform/objects/lookup.h"
#include "platform/objects/platform.h"
#include "platform/program/program_codegen.h"

namespace cucl {
namespace {

using compiler::BuildOptions;
using compiler::OptionsUse;

// "CL1.2" for CL_MAKE_VERSION(1, 2, 0). Without -cl-std the specification compiles as
// OpenCL C 1.2 (the highest 1.x version), whatever newer versions the device has.
std::string cl_std_name(const BuildOptions& options) {
  const cl_version version = options.cl_std.value_or(CL_MAKE_VERSION(1, 2, 0));
  return "CL" + std::to_string(CL_VERSION_MAJOR(version)) + "." + std::to_string(CL_VERSION_MINOR(version));
}

bool device_accepts(const Device& device, const BuildOptions& options) {
  if (!options.cl_std) return true;
  for (const auto& version : device.description().opencl_c_all_versions) {
    if (CL_VERSION_MAJOR(version.version) == CL_VERSION_MAJOR(*options.cl_std) &&
        CL_VERSION_MINOR(version.version) == CL_VERSION_MINOR(*options.cl_std)) {
      return true;
    }
  }
  return false;
}

bool needs_uniform_work_groups(const BuildOptions& options) {
  return options.uniform_work_group_size || CL_VERSION_MAJOR(options.cl_std.value_or(CL_MAKE_VERSION(1, 2, 0))) < 2;
}

ProgramBuild fresh_build(const BuildOptions& options) {
  ProgramBuild build;
  build.options = options.text;
  build.kernel_arg_info = options.kernel_arg_info;
  build.uniform_work_groups = needs_uniform_work_groups(options);
  return build;
}

bool front_end(Device& device, ProgramBuild& build, std::string_view source, const BuildOptions& options,
               std::vector<compiler::EmbeddedHeader> headers) {
  compiler::FrontendRequest request;
  request.source = source;
  request.headers = std::move(headers);
  request.user_args = options.clang_args;
  request.cl_std = cl_std_name(options);
  request.optimize = !options.opt_disable;
  compiler::FrontendResult result = compiler::compile_opencl_c(request, device.description());
  build.log += result.log;
  if (!result.ok) {
    build.status = CL_BUILD_ERROR;
    return false;
  }
  build.ir = std::move(result.bitcode);
  return true;
}

// A cache entry: the original build's log (its warnings belong to a cached build too), then
// the program binary. The source is kept in neither: the key covers it.
std::string cache_entry(const std::string& log, const std::vector<unsigned char>& binary) {
  const uint64_t log_size = log.size();
  std::string entry(reinterpret_cast<const char*>(&log_size), sizeof log_size);
  entry += log;
  entry.append(reinterpret_cast<const char*>(binary.data()), binary.size());
  return entry;
}

// Throws CL_INVALID_BINARY for a damaged entry.
std::pair<std::string, compiler::ProgramBinary> read_cache_entry(std::string_view entry) {
  uint64_t log_size = 0;
  check(entry.size() >= sizeof log_size, CL_INVALID_BINARY);
  std::memcpy(&log_size, entry.data(), sizeof log_size);
  entry.remove_prefix(sizeof log_size);
  check(log_size <= entry.size(), CL_INVALID_BINARY);
  std::string log(entry.substr(0, log_size));
  entry.remove_prefix(log_size);
  return {std::move(log),
          compiler::deserialize(reinterpret_cast<const unsigned char*>(entry.data()), entry.size())};
}

// One device's clBuildProgram of a source program, through the cache.
bool build_source(Program& program, Device& device, ProgramBuild& build, const BuildOptions& options) {
  const compiler::CompileCache& cache = Platform::instance().compile_cache();
  const std::string key = build_cache_key(device, "source", options.text, program.source());
  if (auto cached = cache.load(key)) {
    try {
      auto [log, binary] = read_cache_entry(*cached);
      build.ir = std::move(binary.ir);
      build.native = std::move(binary.native);
      build.log = log + "note: the compiled program came from the cache\n";
      if (load_executable(device, build)) return true;
    } catch (const Error&) {
    }
    build = fresh_build(options);  // a damaged entry is rebuilt and overwritten
  }
  if (!front_end(device, build, program.source(), options, {})) return false;
  if (!make_executable(device, build, codegen_options(options))) return false;
  cache.store(key, cache_entry(build.log, compiler::serialize(program_binary(device, build))));
  return true;
}

// An IL program's module, with its specialization constants applied, into build.ir.
bool translate_il(const Program& program, ProgramBuild& build, const BuildOptions& options) {
  compiler::FrontendResult translated = compiler::translate_spirv(program.il(), program.specialization_constants());
  build.log += translated.log;
  if (!translated.ok) {
    build.status = CL_BUILD_ERROR;
    return false;
  }
  build.ir = std::move(translated.bitcode);
  build.uniform_work_groups = options.uniform_work_group_size;
  return true;
}

bool build_il(Program& program, Device& device, ProgramBuild& build, const BuildOptions& options) {
  return translate_il(program, build, options) && make_executable(device, build, codegen_options(options));
}

bool build_binary(Device& device, ProgramBuild& build, const ProgramBuild& given, const BuildOptions& options) {
  build.ir = given.ir;
  build.kernel_arg_info = given.kernel_arg_info;
  if (given.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && !given.native.empty()) {
    build.native = given.native;
    if (load_executable(device, build)) return true;
    build.native.clear();
  }
  if (build.ir.empty()) {
    build.log += "error: the binary holds no code this device can use\n";
    build.status = CL_BUILD_ERROR;
    return false;
  }
  return make_executable(device, build, codegen_options(options));
}

// The options of clBuildProgram. A binary program built with NULL options is built with the
// options its binary was made with (where they are build options).
BuildOptions options_for_build(const Program& program, const std::vector<Device*>& devices, const char* text) {
  if (!text && program.origin() == Program::Origin::Binary && !devices.empty()) {
    try {
      return compiler::parse_build_options(program.build_of(*devices[0]).options, OptionsUse::Build);
    } catch (const Error&) {
    }
  }
  return compiler::parse_build_options(text ? text : "", OptionsUse::Build);
}

}  // namespace

std::vector<Device*> listed_devices(const std::vector<Device*>& members, cl_uint num_devices,
                                    const cl_device_id* device_list) {
  if (!device_list) return members;
  std::vector<Device*> devices;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device* device = lookup<Device>(device_list[i]).get();
    check(std::find(members.begin(), members.end(), device) != members.end(), CL_INVALID_DEVICE);
    devices.push_back(device);
  }
  return devices;
}

std::vector<Device*> build_devices(const Program& program, cl_uint num_devices, const cl_device_id* device_list) {
  check((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE);
  return listed_devices(program.devices(), num_devices, device_list);
}

void build_on_devices(Program& program, const std::vector<Device*>& devices, const char* options_text) {
  // Linked programs are executables or libraries already; only these three origins build.
  check(program.origin() != Program::Origin::Linked, CL_INVALID_OPERATION);
  const BuildOptions options = options_for_build(program, devices, options_text);
  for (Device* device : devices) {
    check(device->description().compiler_available || program.origin() == Program::Origin::Binary,
          CL_COMPILER_NOT_AVAILABLE);
    check(device_accepts(*device, options), CL_INVALID_BUILD_OPTIONS);
    if (program.origin() == Program::Origin::Binary) {
      // clBuildProgram takes executable binaries only (compiled objects and libraries link).
      check(program.build_of(*device).binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, CL_INVALID_BINARY);
    }
  }
  program.begin_build();
  bool all_built = true;
  try {
    for (Device* device : devices) {
      const ProgramBuild given = program.build_of(*device);
      ProgramBuild build = fresh_build(options);
      build.status = CL_BUILD_IN_PROGRESS;
      program.set_build(*device, build);
      bool built = false;
      switch (program.origin()) {
        case Program::Origin::Source: built = build_source(program, *device, build, options); break;
        case Program::Origin::IL: built = build_il(program, *device, build, options); break;
        case Program::Origin::Binary:
        case Program::Origin::Linked: built = build_binary(*device, build, given, options); break;
      }
      if (!built) build.status = CL_BUILD_ERROR;
      all_built = all_built && built;
      program.set_build(*device, std::move(build));
    }
  } catch (...) {
    program.end_build();
    throw;
  }
  program.end_build();
  check(all_built, CL_BUILD_PROGRAM_FAILURE);
}

void compile_on_devices(Program& program, const std::vector<Device*>& devices, const char* options_text,
                        const std::vector<std::pair<std::string, Ref<Program>>>& headers) {
  const BuildOptions options = compiler::parse_build_options(options_text ? options_text : "", OptionsUse::Compile);
  const bool from_il = program.origin() == Program::Origin::IL;  // headers are ignored for IL
  check(program.origin() == Program::Origin::Source || from_il, CL_INVALID_OPERATION);
  std::vector<compiler::EmbeddedHeader> embedded;
  for (const auto& [name, header] : headers) embedded.push_back({name, header->source()});
  for (Device* device : devices) {
    check(device->description().compiler_available, CL_COMPILER_NOT_AVAILABLE);
    check(device_accepts(*device, options), CL_INVALID_COMPILER_OPTIONS);
  }
  program.begin_build();
  bool all_compiled = true;
  for (Device* device : devices) {
    ProgramBuild build = fresh_build(options);
    bool compiled = false;
    try {
      compiled = from_il ? translate_il(program, build, options)
                         : front_end(*device, build, program.source(), options, embedded);
    } catch (...) {
      program.end_build();
      throw;
    }
    if (compiled) {
      build.binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
      build.status = CL_BUILD_SUCCESS;
    }
    all_compiled = all_compiled && compiled;
    program.set_build(*device, std::move(build));
  }
  program.end_build();
  check(all_compiled, CL_COMPILE_PROGRAM_FAILURE);
}

namespace {

// The options an input was made with: compile options for a compiled object, link options
// for a library. Text that no longer parses (a foreign binary's) counts as none.
BuildOptions options_of(const ProgramBuild& input) {
  try {
    return compiler::parse_build_options(input.options, input.binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY
                                                            ? OptionsUse::Link
                                                            : OptionsUse::Compile);
  } catch (const Error&) {
    return {};
  }
}

}  // namespace

Ref<Program> link_on_devices(Ref<Context> context, const std::vector<Device*>& devices,
                             const char* options_text, const std::vector<Ref<Program>>& inputs, cl_int& link_error) {
  const BuildOptions options = compiler::parse_build_options(options_text ? options_text : "", OptionsUse::Link);
  // A device links when every input has a compiled object or library for it, and is left
  // without an executable when none has; anything in between is CL_INVALID_OPERATION.
  std::vector<Device*> linking;
  for (Device* device : devices) {
    check(device->description().linker_available, CL_LINKER_NOT_AVAILABLE);
    size_t linkable = 0;
    for (const Ref<Program>& input : inputs) {
      if (!input->has_device(device)) continue;
      const cl_program_binary_type type = input->build_of(*device).binary_type;
      if (type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || type == CL_PROGRAM_BINARY_TYPE_LIBRARY) ++linkable;
    }
    check(linkable == 0 || linkable == inputs.size(), CL_INVALID_OPERATION);
    if (linkable) linking.push_back(device);
  }
  // input_programs must be compiled objects or libraries: for some device at least.
  check(!linking.empty(), CL_INVALID_OPERATION);
  auto program = make<Program>(context, Program::Origin::Linked, devices, std::string(), std::string());
  link_error = CL_SUCCESS;
  for (Device* device : linking) {
    ProgramBuild build = fresh_build(options);
    std::vector<ProgramBuild> objects;
    for (const Ref<Program>& input : inputs) objects.push_back(input->build_of(*device));
    std::vector<std::string_view> bitcodes;
    std::vector<BuildOptions> input_options;
    for (const ProgramBuild& object : objects) {
      bitcodes.push_back(object.ir);
      input_options.push_back(options_of(object));
      build.kernel_arg_info = build.kernel_arg_info || object.kernel_arg_info;
      build.uniform_work_groups = build.uniform_work_groups && object.uniform_work_groups;
    }
    // What the code is generated with: the link options applied to each input (5.8.7), a
    // relaxation where every input has it, a requirement (-cl-opt-disable...) where any has.
    std::vector<const BuildOptions*> input_pointers;
    for (const BuildOptions& input : input_options) input_pointers.push_back(&input);
    const BuildOptions effective = compiler::combine_link_options(input_pointers, options);
    compiler::LinkResult linked = compiler::link_modules(bitcodes);
    build.log += linked.log;
    bool ok = linked.ok;
    if (ok) {
      build.ir = std::move(linked.bitcode);
      if (options.create_library) {
        build.binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
        build.status = CL_BUILD_SUCCESS;
      } else {
        ok = make_executable(*device, build, codegen_options(effective));
      }
    }
    if (!ok) {
      build.status = CL_BUILD_ERROR;
      link_error = CL_LINK_PROGRAM_FAILURE;
    }
    program->set_build(*device, std::move(build));
  }
  return program;
}

}  // namespace cucl

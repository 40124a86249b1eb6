// The last step every executable shares: device-target IR to device code through the
// device's backend, with the on-disk cache in front, and the kernels' metadata.
#pragma once

#include <string>
#include <string_view>

#include "platform/compiler/build_options.h"
#include "platform/compiler/program_binary.h"
#include "platform/program/program.h"

namespace cucl {

backend::CodegenOptions codegen_options(const compiler::BuildOptions& options);

// Fills build.native, build.loaded and build.metadata from build.ir; on failure sets the
// status to CL_BUILD_ERROR and appends to the log. Returns success.
bool make_executable(Device& device, ProgramBuild& build, const backend::CodegenOptions& options);

// Loads an executable's existing device code (from a binary or the cache).
bool load_executable(Device& device, ProgramBuild& build);

// What CL_PROGRAM_BINARIES and the cache keep of one device's build.
compiler::ProgramBinary program_binary(const Device& device, const ProgramBuild& build);

// The cache key of a build: everything its result depends on.
std::string build_cache_key(const Device& device, std::string_view kind, std::string_view options,
                            std::string_view input);

}  // namespace cucl

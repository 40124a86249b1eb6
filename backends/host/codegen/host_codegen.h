// The host device's code generator: bitcode from the front end, with the builtin library
// linked in and the work-group entry points built, compiled to a native object for this
// machine's CPU. The object is what program binaries and the cache keep for the host.
#pragma once

#include <string>
#include <string_view>

#include "backends/kernel_code.h"

namespace cucl::backend::host {

// "x86_64-unknown-linux-gnu/<cpu>/<features>": code for another target is never loaded.
std::string host_code_target();

CodegenResult generate_host_code(std::string_view bitcode, const CodegenOptions& options);

}  // namespace cucl::backend::host

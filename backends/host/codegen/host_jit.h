// Loads host device code (backends/host/native_code.h) into an ORC JIT of its own and
// finds its kernels.
#pragma once

#include <memory>
#include <string_view>

#include "backends/kernel_code.h"

namespace cucl::backend::host {

// Null, with the reason in `error`, when `native` is not host code for this machine or
// cannot be linked.
std::unique_ptr<LoadedProgram> load_host_program(std::string_view native, std::string& error);

}  // namespace cucl::backend::host

// The OpenCL C builtin libraries, compiled at build time and embedded in libcucl.
#pragma once

#include <string_view>

namespace cucl::builtins {

// LLVM bitcode of every builtin for the host device (x86_64, fake address-space map).
std::string_view host_bitcode();

}  // namespace cucl::builtins

// The OpenCL C builtin libraries, compiled at build time and embedded in libcucl.
#pragma once

#include <string_view>

namespace cucl::builtins {

// LLVM bitcode of every builtin for the host device (x86_64, fake address-space map).
std::string_view host_bitcode();

// LLVM bitcode of every builtin for CUDA devices (nvptx64, fake address-space map), with
// the libdevice functions it calls. Empty where the build had no libdevice or no CUDA
// backend (CUCL_HAVE_NVPTX_BUILTINS is 0 then). Calls to the work-item functions,
// barrier, __to_global/__to_local/__to_private and get_fence stay undefined, as does
// libdevice's __nvvm_reflect (the NVVMReflect pass resolves it).
std::string_view nvptx_bitcode();

}  // namespace cucl::builtins

#include "libclc-builtins/builtins.h"

extern "C" const char cucl_host_builtins_begin[];
extern "C" const char cucl_host_builtins_end[];
#if CUCL_HAVE_NVPTX_BUILTINS
extern "C" const char cucl_nvptx_builtins_begin[];
extern "C" const char cucl_nvptx_builtins_end[];
#endif

namespace cucl::builtins {

std::string_view host_bitcode() {
  return {cucl_host_builtins_begin, static_cast<size_t>(cucl_host_builtins_end - cucl_host_builtins_begin)};
}

std::string_view nvptx_bitcode() {
#if CUCL_HAVE_NVPTX_BUILTINS
  return {cucl_nvptx_builtins_begin, static_cast<size_t>(cucl_nvptx_builtins_end - cucl_nvptx_builtins_begin)};
#else
  return {};
#endif
}

}  // namespace cucl::builtins

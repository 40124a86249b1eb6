#include "libclc-builtins/builtins.h"

extern "C" const char cucl_host_builtins_begin[];
extern "C" const char cucl_host_builtins_end[];

namespace cucl::builtins {

std::string_view host_bitcode() {
  return {cucl_host_builtins_begin, static_cast<size_t>(cucl_host_builtins_end - cucl_host_builtins_begin)};
}

}  // namespace cucl::builtins

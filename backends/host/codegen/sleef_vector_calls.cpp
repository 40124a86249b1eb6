#include "backends/host/codegen/sleef_vector_calls.h"

#include <dlfcn.h>

namespace cucl::backend::host {

std::string sleef_vector_name(llvm::StringRef scalar, bool is_float, unsigned lanes) {
  if (!scalar.consume_front("Sleef_") || lanes < 2) return "";
  // <function>[f][_<accuracy>]: Sleef_sinf_u10, Sleef_sin_u10, Sleef_fmodf, Sleef_fmod.
  auto [function, accuracy] = scalar.split('_');
  if (accuracy.contains('_') || (!accuracy.empty() && !accuracy.startswith("u"))) return "";
  if (is_float && !function.consume_back("f")) return "";
  if (function.empty()) return "";
  std::string name = "Sleef_" + function.str() + (is_float ? "f" : "d") + std::to_string(lanes);
  if (!accuracy.empty()) name += "_" + accuracy.str();
  return name;
}

bool host_has_function(const std::string& name) { return dlsym(RTLD_DEFAULT, name.c_str()) != nullptr; }

}  // namespace cucl::backend::host

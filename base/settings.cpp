#include "base/settings.h"

#include <cstdlib>

namespace cucl::settings {

const std::vector<Description>& all() {
  static const std::vector<Description> descriptions = {
#define CUCL_SETTING(name, kind, default_value, documentation) \
  {Name::name, #name, Kind::kind, default_value, documentation},
#include "base/settings.def"
#undef CUCL_SETTING
  };
  return descriptions;
}

const char* variable(Name name) { return all()[static_cast<size_t>(name)].variable; }

const char* environment(const char* variable) { return std::getenv(variable); }

std::string text(Name name) {
  const Description& description = all()[static_cast<size_t>(name)];
  const char* value = environment(description.variable);
  return value && *value ? value : description.default_value;
}

bool flag_value(std::string_view text) {
  std::string lower;
  for (char c : text) lower.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  return !(lower == "0" || lower == "off" || lower == "false" || lower == "no");
}

bool enabled(Name name) { return flag_value(text(name)); }

}  // namespace cucl::settings

// cucl's settings: the CUCL_* environment variables of base/settings.def, read where they
// are needed (a test or an application may set them before any use).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cucl::settings {

enum class Kind { Flag, Text };

enum class Name {
#define CUCL_SETTING(name, kind, default_value, documentation) name,
#include "base/settings.def"
#undef CUCL_SETTING
};

struct Description {
  Name name;
  const char* variable;  // "CUCL_DEVICES"
  Kind kind;
  const char* default_value;
  const char* documentation;
};

// Every setting, in the order of settings.def.
const std::vector<Description>& all();
// Its variable's name, "CUCL_...".
const char* variable(Name name);

// The setting's value: the environment's where set and not empty, else its default.
std::string text(Name name);
// A Flag setting: false for 0, off, false or no (any case), true for any other value.
bool enabled(Name name);
bool flag_value(std::string_view text);

// Any environment variable, for the few that are not cucl's own (HOME, XDG_CACHE_HOME);
// null when unset.
const char* environment(const char* variable);

}  // namespace cucl::settings

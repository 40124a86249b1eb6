#include "platform/info/name_version.h"

#include <algorithm>
#include <cstring>

namespace cucl {

std::vector<cl_name_version> to_cl_name_versions(const NameVersionList& list) {
  std::vector<cl_name_version> out(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    out[i].version = list[i].version;
    // Value-initialised above, so the copy stays NUL-terminated.
    std::strncpy(out[i].name, list[i].name.c_str(), CL_NAME_VERSION_MAX_NAME_SIZE - 1);
  }
  return out;
}

std::string joined_names(const NameVersionList& list, char separator) {
  std::string out;
  for (const auto& entry : list) {
    if (!out.empty()) out += separator;
    out += entry.name;
  }
  return out;
}

std::string il_version_string(const NameVersionList& ils) {
  std::string out;
  for (const auto& il : ils) {
    if (!out.empty()) out += ' ';
    out += il.name + "_" + std::to_string(CL_VERSION_MAJOR(il.version)) + "." +
           std::to_string(CL_VERSION_MINOR(il.version));
  }
  return out;
}

bool contains_name(const NameVersionList& list, std::string_view name) {
  return std::any_of(list.begin(), list.end(), [&](const auto& entry) { return entry.name == name; });
}

}  // namespace cucl

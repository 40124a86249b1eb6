// The (name, version) lists of the OpenCL 3.0 *_WITH_VERSION queries and the plain strings
// they must agree with (extension strings, CL_DEVICE_IL_VERSION, built-in kernel lists).
#pragma once

#include <CL/cl.h>

#include <string>
#include <string_view>
#include <vector>

#include "backends/device_description.h"

namespace cucl {

using NameVersionList = std::vector<backend::NameVersion>;

std::vector<cl_name_version> to_cl_name_versions(const NameVersionList& list);
// The names joined by `separator`: ' ' for extensions, ';' for built-in kernels.
std::string joined_names(const NameVersionList& list, char separator);
// "<name>_<major>.<minor>" per entry, space separated, e.g. "SPIR-V_1.0 SPIR-V_1.2".
std::string il_version_string(const NameVersionList& ils);
bool contains_name(const NameVersionList& list, std::string_view name);

}  // namespace cucl

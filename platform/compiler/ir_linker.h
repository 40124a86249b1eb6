// clLinkProgram's module linking: several compiled objects and libraries of one device
// target become one module.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cucl::compiler {

struct LinkResult {
  bool ok = false;
  std::string log;
  std::string bitcode;
};

LinkResult link_modules(const std::vector<std::string_view>& bitcodes);

}  // namespace cucl::compiler

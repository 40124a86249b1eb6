// The host device's code format: a small header naming the code target, then the
// relocatable object the code generator made.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cucl::backend::host {

std::string wrap_native_code(std::string_view code_target, std::string_view object);
// The object, or nullopt when `native` is not host code for `code_target`.
std::optional<std::string_view> unwrap_native_code(std::string_view native, std::string_view code_target);

}  // namespace cucl::backend::host

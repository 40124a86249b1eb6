#include "backends/host/native_code.h"

#include <cstdint>
#include <cstring>

namespace cucl::backend::host {
namespace {

constexpr std::string_view kMagic{"CUCLHOST1\0", 10};

}  // namespace

std::string wrap_native_code(std::string_view code_target, std::string_view object) {
  std::string native(kMagic);
  const uint32_t length = static_cast<uint32_t>(code_target.size());
  native.append(reinterpret_cast<const char*>(&length), sizeof length);
  native.append(code_target);
  native.append(object);
  return native;
}

std::optional<std::string_view> unwrap_native_code(std::string_view native, std::string_view code_target) {
  if (!native.starts_with(kMagic)) return std::nullopt;
  native.remove_prefix(kMagic.size());
  uint32_t length = 0;
  if (native.size() < sizeof length) return std::nullopt;
  std::memcpy(&length, native.data(), sizeof length);
  native.remove_prefix(sizeof length);
  if (native.size() < length || native.substr(0, length) != code_target) return std::nullopt;
  native.remove_prefix(length);
  if (native.size() < 4 || native.substr(0, 4) != "\x7f" "ELF") return std::nullopt;
  return native;
}

}  // namespace cucl::backend::host

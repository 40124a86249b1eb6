#include "backends/device_selection.h"

#include <algorithm>
#include <charconv>

namespace cucl::backend {
namespace {

std::string_view trimmed(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

// N of `cuda:N`, or -1.
int gpu_ordinal(std::string_view item) {
  constexpr std::string_view kPrefix = "cuda:";
  if (!item.starts_with(kPrefix)) return -1;
  item.remove_prefix(kPrefix.size());
  int ordinal = -1;
  auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), ordinal);
  return error == std::errc{} && end == item.data() + item.size() && ordinal >= 0 ? ordinal : -1;
}

}  // namespace

bool DeviceSelection::wants_gpu(int ordinal) const {
  return every_gpu || std::find(gpu_ordinals.begin(), gpu_ordinals.end(), ordinal) != gpu_ordinals.end();
}

DeviceSelection parse_device_selection(std::string_view text) {
  DeviceSelection selection;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view item = trimmed(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (item.empty()) continue;
    if (item == "all") {
      selection.host = selection.every_gpu = true;
    } else if (item == "host") {
      selection.host = true;
    } else if (item == "cuda") {
      selection.every_gpu = true;
    } else if (int ordinal = gpu_ordinal(item); ordinal >= 0) {
      if (!selection.wants_gpu(ordinal)) selection.gpu_ordinals.push_back(ordinal);
    } else {
      selection.unknown.emplace_back(item);
    }
  }
  if (!selection.host && !selection.wants_any_gpu()) selection.host = selection.every_gpu = true;
  return selection;
}

}  // namespace cucl::backend

#include "options.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>

namespace bench {

namespace {

constexpr const char* kUsage =
    "usage: cucl-bench [--quick] [--csv] [--platform SUBSTRING] [--device SUBSTRING]\n"
    "  Measures every device of every OpenCL platform the ICD loader lists.\n"
    "  --quick        small sizes and counts (a smoke run, not a measurement)\n"
    "  --csv          print the table as CSV\n"
    "  --platform S   only platforms whose name or ICD suffix contains S (case-insensitive)\n"
    "  --device S     only devices whose name or column name contains S (case-insensitive)\n";

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

Settings settings_for(const Options& options) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  if (options.quick) return Settings{2, 1000, 100, 8 * kMiB};
  return Settings{5, 10000, 1000, 256 * kMiB};
}

bool matches(const std::string& text, const std::string& filter) {
  return filter.empty() || lower(text).find(lower(filter)) != std::string::npos;
}

std::optional<Options> parse_options(int argc, char** argv, int& exit_code) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg(argv[i]);
    if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--csv") {
      options.csv = true;
    } else if ((arg == "--platform" || arg == "--device") && i + 1 < argc) {
      (arg == "--platform" ? options.platform_filter : options.device_filter) = argv[++i];
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      exit_code = 0;
      return std::nullopt;
    } else {
      std::fprintf(stderr, "cucl-bench: bad argument '%s'\n%s", argv[i], kUsage);
      exit_code = 2;
      return std::nullopt;
    }
  }
  return options;
}

}  // namespace bench

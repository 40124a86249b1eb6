#include "options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <string_view>

namespace bench {

namespace {

constexpr const char* kUsage =
    "usage: cucl-bench [--quick] [--csv] [--overheads] [--repetitions N] [--platform SUBSTRING]\n"
    "                  [--device SUBSTRING]\n"
    "  Measures every device of every OpenCL platform the ICD loader lists.\n"
    "  --quick        small sizes and counts (a smoke run, not a measurement)\n"
    "  --csv          print the table as CSV\n"
    "  --overheads    only the rows of small writes and empty-kernel launches (back to back,\n"
    "                 and each with clFinish) and of a kernel + blocking 4-byte read: the\n"
    "                 queue's own cost, against the driver's\n"
    "  --repetitions N  timed repetitions per value, of which the median is shown (default 5,\n"
    "                 2 with --quick; 1 to 1000)\n"
    "  --platform S   only platforms whose name or ICD suffix contains S (case-insensitive)\n"
    "  --device S     only devices whose name or column name contains S (case-insensitive)\n";

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// A whole number of repetitions within [1, 1000], and nothing after it.
bool parse_count(const char* text, int& count) {
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 1 || value > 1000) return false;
  count = static_cast<int>(value);
  return true;
}

}  // namespace

Settings settings_for(const Options& options) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  Settings settings = options.quick ? Settings{2, 1000, 100, 8 * kMiB, false} : Settings{5, 10000, 1000, 256 * kMiB, false};
  if (options.repetitions > 0) settings.repetitions = options.repetitions;
  settings.overheads_only = options.overheads_only;
  return settings;
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
    } else if (arg == "--overheads") {
      options.overheads_only = true;
    } else if (arg == "--repetitions" && i + 1 < argc) {
      if (!parse_count(argv[++i], options.repetitions)) {
        std::fprintf(stderr, "cucl-bench: --repetitions wants a whole number from 1 to 1000, not '%s'\n%s", argv[i],
                     kUsage);
        exit_code = 2;
        return std::nullopt;
      }
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

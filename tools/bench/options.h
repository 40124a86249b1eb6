// Command line of cucl-bench.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace bench {

struct Options {
  bool quick = false;
  bool csv = false;
  bool overheads_only = false;  // --overheads
  int repetitions = 0;          // --repetitions N; 0 keeps the default of the mode
  std::string platform_filter;  // case-insensitive substring; empty matches all
  std::string device_filter;
};

// How much work each measurement does; --quick shrinks everything for a smoke run.
struct Settings {
  int repetitions;               // timed repetitions, after one warm-up repetition
  int enqueue_count;             // writes per enqueue-throughput repetition
  int round_trips;               // enqueue+finish pairs per round-trip repetition
  std::size_t max_buffer_bytes;  // upper bound of the bandwidth buffers
  bool overheads_only;           // only the small-write and empty-kernel rows
};

Settings settings_for(const Options& options);

// Parses argv; prints usage and returns nothing on --help or a bad argument
// (`exit_code` is then 0 or 2).
std::optional<Options> parse_options(int argc, char** argv, int& exit_code);

bool matches(const std::string& text, const std::string& filter);

}  // namespace bench

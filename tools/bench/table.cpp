#include "table.h"

#include <algorithm>
#include <optional>

namespace bench {

namespace {

// The index of the reference column, if the cucl host device was measured.
std::optional<std::size_t> reference(const Report& report) {
  for (std::size_t i = 0; i < report.columns.size(); ++i)
    if (report.columns[i].cucl_host) return i;
  return std::nullopt;
}

// Speed relative to the reference: > 1 means faster than cucl, for time and bandwidth rows.
std::optional<double> ratio(const Column& column, const Column& ref, std::size_t row) {
  const auto& value = column.cells[row].value;
  const auto& base = ref.cells[row].value;
  if (!value || !base || *value <= 0 || *base <= 0) return std::nullopt;
  switch (kMetrics[row].better) {
    case Better::Lower: return *base / *value;
    case Better::Higher: return *value / *base;
    case Better::NotCompared: return std::nullopt;
  }
  return std::nullopt;
}

// Three significant digits for the text table; six, unrounded to integers, for CSV.
std::string format(double value, bool csv) {
  char text[32];
  std::snprintf(text, sizeof text, csv ? "%.6g" : value >= 1000 ? "%.0f" : "%.3g", value);
  return text;
}

// Ratios keep their trailing zeros ("1.00", "0.900") so the columns read evenly.
std::string format_ratio(double value, bool csv) {
  char text[32];
  std::snprintf(text, sizeof text, csv ? "%.6g" : "%#.3g", value);
  return text;
}

std::string cell_text(const Cell& cell, bool csv) { return cell.value ? format(*cell.value, csv) : cell.note; }

struct Grid {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// The table as text cells, shared by both output formats.
Grid build_grid(const Report& report, bool csv) {
  auto ref = reference(report);
  Grid grid;
  grid.header.push_back("measurement");
  if (csv) grid.header.push_back("unit");
  for (std::size_t c = 0; c < report.columns.size(); ++c) {
    grid.header.push_back(report.columns[c].name);
    if (ref && c != *ref) grid.header.push_back("x cucl");
    if (ref && c != *ref && csv) grid.header.back() = report.columns[c].name + " x cucl";
  }
  for (std::size_t row = 0; row < kRowCount; ++row) {
    // Rows no device has a value or note for were not asked for (--overheads).
    if (std::none_of(report.columns.begin(), report.columns.end(), [&](const Column& column) {
          return column.cells[row].value || !column.cells[row].note.empty();
        })) {
      continue;
    }
    std::vector<std::string> line;
    line.push_back(csv ? kMetrics[row].name : std::string(kMetrics[row].name) + " [" + kMetrics[row].unit + "]");
    if (csv) line.push_back(kMetrics[row].unit);
    for (std::size_t c = 0; c < report.columns.size(); ++c) {
      const Column& column = report.columns[c];
      line.push_back(cell_text(column.cells[row], csv));
      if (!ref || c == *ref) continue;
      auto r = ratio(column, report.columns[*ref], row);
      line.push_back(r ? format_ratio(*r, csv) : "-");
    }
    grid.rows.push_back(std::move(line));
  }
  return grid;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

void print_legend(const Report& report, std::FILE* out) {
  std::fprintf(out, "cucl-bench%s: each value is the median of %d timed repetitions after 1 warm-up\n",
               report.quick ? " --quick (smoke run, small sizes)" : "", report.settings.repetitions);
  std::fprintf(out, "repetition (std::chrono::steady_clock). Enqueue: N = %d; round trips and kernel launches:\n",
               report.settings.enqueue_count);
  std::fprintf(out, "%d per repetition. Bandwidth: bytes / time / 1e9, copies count read+write bytes.\n",
               report.settings.round_trips);
  std::fprintf(out, "The image and volume resample rows time 1 run after the warm-up on CPU devices.\n");
  std::fprintf(out, "Two-GPU rows: each GPU with the next GPU of its platform (the last with the first);\n");
  std::fprintf(out, "cuda/gpu0 with CUDA device 1. Migration counts the buffer's bytes once.\n");
  if (reference(report)) {
    std::fprintf(out, "x cucl = speed relative to the cucl host device in this run: > 1 faster than cucl,\n");
    std::fprintf(out, "< 1 slower. [us] rows: cucl time / device time; [GB/s] rows: device GB/s / cucl GB/s.\n");
  } else {
    std::fprintf(out, "(the cucl host device was not measured, so there are no x cucl columns)\n");
  }
  std::fprintf(out, "\nDevices:\n");
  for (const Column& column : report.columns)
    std::fprintf(out, "  %-12s %s\n", column.name.c_str(), column.description.c_str());
  std::fprintf(out, "\n");
}

}  // namespace

void print_table(const Report& report, std::FILE* out) {
  print_legend(report, out);
  Grid grid = build_grid(report, false);
  std::vector<std::size_t> widths(grid.header.size());
  for (std::size_t i = 0; i < widths.size(); ++i) {
    widths[i] = grid.header[i].size();
    for (const auto& line : grid.rows) widths[i] = std::max(widths[i], line[i].size());
  }
  auto print_line = [&](const std::vector<std::string>& line) {
    // The measurement names are left-aligned, the numbers right-aligned.
    std::fprintf(out, "%-*s", static_cast<int>(widths[0]), line[0].c_str());
    for (std::size_t i = 1; i < line.size(); ++i)
      std::fprintf(out, "  %*s", static_cast<int>(widths[i]), line[i].c_str());
    std::fprintf(out, "\n");
  };
  print_line(grid.header);
  std::size_t total = widths[0];
  for (std::size_t i = 1; i < widths.size(); ++i) total += 2 + widths[i];
  std::fprintf(out, "%s\n", std::string(total, '-').c_str());
  for (const auto& line : grid.rows) print_line(line);
}

void print_csv(const Report& report, std::FILE* out) {
  Grid grid = build_grid(report, true);
  auto print_line = [&](const std::vector<std::string>& line) {
    for (std::size_t i = 0; i < line.size(); ++i)
      std::fprintf(out, "%s%s", i ? "," : "", csv_field(line[i]).c_str());
    std::fprintf(out, "\n");
  };
  print_line(grid.header);
  for (const auto& line : grid.rows) print_line(line);
}

}  // namespace bench

// cucl-bench: measures queue overheads, transfer bandwidths and kernel launches on every
// device of every OpenCL platform the ICD loader lists, and compares each device with
// cucl's host device. See README.md, "Benchmarks".
#include "measurements.h"
#include "options.h"
#include "table.h"
#if CUCL_BENCH_CUDA_REFERENCE
#include "cuda_driver_reference.h"
#endif

#include <CL/cl_ext.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <new>

namespace {

using namespace bench;

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The short platform name: its ICD suffix ("pocl"), else the first word of its name.
std::string platform_short_name(cl_platform_id platform, const std::string& name) {
  std::string suffix;
  try {
    suffix = platform_string(platform, CL_PLATFORM_ICD_SUFFIX_KHR);
  } catch (const ClError&) {
  }
  if (suffix.empty()) suffix = name.substr(0, name.find(' '));
  return lower(suffix);
}

const char* type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "gpu";
  if (type & CL_DEVICE_TYPE_CPU) return "cpu";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "acc";
  return "dev";
}

// The devices to measure, named "platform/typeN" (N counts devices of that type).
std::vector<Column> select_devices(const Options& options) {
  std::vector<Column> columns;
  for (cl_platform_id platform : platforms()) {
    std::string platform_name = platform_string(platform, CL_PLATFORM_NAME);
    std::string short_name = platform_short_name(platform, platform_name);
    if (!matches(platform_name, options.platform_filter) && !matches(short_name, options.platform_filter))
      continue;
    std::map<std::string, int> per_type;
    for (cl_device_id device : devices(platform)) {
      auto type = device_value<cl_device_type>(device, CL_DEVICE_TYPE);
      std::string kind = type_name(type);
      Column column;
      column.name = short_name + "/" + kind + std::to_string(per_type[kind]++);
      std::string device_name = device_string(device, CL_DEVICE_NAME);
      column.description = platform_name + ": " + device_name + " (" + device_string(device, CL_DEVICE_VERSION) + ")";
      column.cucl_host = platform_name == "cucl" && (type & CL_DEVICE_TYPE_CPU);
      if (!matches(device_name, options.device_filter) && !matches(column.name, options.device_filter)) continue;
      column.device = device;
      columns.push_back(std::move(column));
    }
  }
  return columns;
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  auto options = parse_options(argc, argv, exit_code);
  if (!options) return exit_code;

  Report report{{}, settings_for(*options), options->quick};
  try {
    report.columns = select_devices(*options);
  } catch (const ClError& error) {
    std::fprintf(stderr, "cucl-bench: %s\n", error.what());
    return 1;
  }
  // The reference device first, then the others in the loader's order.
  std::stable_partition(report.columns.begin(), report.columns.end(),
                        [](const Column& column) { return column.cucl_host; });
  if (report.columns.empty()) {
    std::fprintf(stderr, "cucl-bench: no OpenCL device matches\n");
    return 1;
  }

  bool failed = false;
  for (Column& column : report.columns) {
    std::fprintf(stderr, "cucl-bench: measuring %s ...\n", column.name.c_str());
    try {
      measure_device(column.device, report.settings, column.cells);
    } catch (const std::exception& error) {  // ClError, or std::bad_alloc for the host copy
      std::fprintf(stderr, "cucl-bench: %s: %s\n", column.name.c_str(), error.what());
      for (Cell& cell : column.cells)
        if (!cell.value && cell.note.empty()) cell.note = "error";
      failed = true;
    }
  }

#if CUCL_BENCH_CUDA_REFERENCE
  if (matches("CUDA driver", options->platform_filter) && matches("cuda/gpu0", options->device_filter)) {
    std::fprintf(stderr, "cucl-bench: measuring cuda/gpu0 (the CUDA driver API) ...\n");
    if (auto column = cuda_driver_reference(report.settings, report.settings.max_buffer_bytes)) {
      report.columns.push_back(std::move(*column));
    }
  }
#endif

  if (options->csv)
    print_csv(report, stdout);
  else
    print_table(report, stdout);
  return failed ? 1 : 0;
}

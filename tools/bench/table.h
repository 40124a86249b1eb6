// cucl-bench's output: one row per measurement, one column per device, and for every
// device other than the cucl host device a column comparing it with that device.
#pragma once

#include "measurements.h"

#include <cstdio>
#include <string>
#include <vector>

namespace bench {

struct Column {
  std::string name;         // "platform/device", short
  std::string description;  // full platform and device names
  bool cucl_host = false;   // the reference of the "x cucl" columns
  cl_device_id device = nullptr;
  Cells cells;
};

struct Report {
  std::vector<Column> columns;
  Settings settings;
  bool quick = false;
};

void print_table(const Report& report, std::FILE* out);
void print_csv(const Report& report, std::FILE* out);

}  // namespace bench

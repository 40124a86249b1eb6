#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "backends/host/host_device.h"

namespace cucl::backend::host {
namespace {

std::string cpuinfo_field(const std::string& key) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    return value;
  }
  return {};
}

cl_ulong physical_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<cl_ulong>(pages) * page_size : 1ull << 30;
}

cl_ulong cache_bytes(int name, cl_ulong fallback) {
  long value = sysconf(name);
  return value > 0 ? static_cast<cl_ulong>(value) : fallback;
}

// PCI vendor ids of the CPU makers we can name; other CPUs report 0.
cl_uint vendor_id_of(const std::string& cpu_vendor) {
  if (cpu_vendor == "GenuineIntel") return 0x8086;
  if (cpu_vendor == "AuthenticAMD") return 0x1022;
  return 0;
}

}  // namespace

DeviceDescription describe_host_device(unsigned concurrency) {
  DeviceDescription d;
  d.type = CL_DEVICE_TYPE_CPU;
  d.name = cpuinfo_field("model name");
  if (d.name.empty()) d.name = "cucl host CPU";
  std::string cpu_vendor = cpuinfo_field("vendor_id");
  d.vendor = cpu_vendor.empty() ? "unknown" : cpu_vendor;
  d.vendor_id = vendor_id_of(cpu_vendor);
  d.driver_version = "0.1.0";
  d.max_compute_units = std::max(1u, concurrency);
  std::string mhz = cpuinfo_field("cpu MHz");
  d.max_clock_frequency_mhz = mhz.empty() ? 0 : static_cast<cl_uint>(std::stod(mhz));

  d.global_mem_size = physical_memory_bytes();
  d.max_mem_alloc_size = std::max<cl_ulong>(d.global_mem_size / 4, 128ull << 20);
  d.global_mem_cacheline_size = static_cast<cl_uint>(cache_bytes(_SC_LEVEL1_DCACHE_LINESIZE, 64));
  d.global_mem_cache_size = cache_bytes(_SC_LEVEL2_CACHE_SIZE, 1 << 20);
  d.max_work_item_sizes = {4096, 4096, 4096};
  d.max_work_group_size = 4096;
  d.profiling_timer_resolution_ns = 1;
  d.execution_capabilities = CL_EXEC_KERNEL;
  return d;
}

}  // namespace cucl::backend::host

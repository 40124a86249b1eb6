// What the host device is, read from the machine it runs on. Limits that belong to the
// implementation rather than the machine (work-group size, local memory) are chosen here.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>

#include "backends/compiler_description.h"
#include "backends/host/codegen/host_codegen.h"
#include "libclc-builtins/builtins.h"
#include "backends/host/host_device.h"
#include "backends/host/work_group_abi.h"
#include "base/settings.h"

namespace cucl::backend::host {
namespace {

std::string trimmed(std::string value) {
  value.erase(0, value.find_first_not_of(" \t"));
  value.erase(value.find_last_not_of(" \t\n") + 1);
  return value;
}

std::string cpuinfo_field(const std::string& key) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    return trimmed(line.substr(colon + 1));
  }
  return {};
}

// The first number in `path`, or 0 when it is missing or not a number ("max").
cl_ulong number_in_file(const char* path) {
  std::ifstream file(path);
  cl_ulong value = 0;
  return file >> value ? value : 0;
}

cl_ulong physical_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  cl_ulong physical = pages > 0 && page_size > 0 ? static_cast<cl_ulong>(pages) * page_size : 1ull << 30;
  // A container's memory limit (cgroup v2, then v1) caps what the device can really use.
  for (const char* limit_file : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    cl_ulong limit = number_in_file(limit_file);
    if (limit > 0 && limit < physical) return limit;
  }
  return physical;
}

cl_ulong sysconf_bytes(int name) {
  long value = sysconf(name);
  return value > 0 ? static_cast<cl_ulong>(value) : 0;
}

// The last-level data cache is what global memory accesses hit.
cl_ulong last_level_cache_bytes() {
  for (int level : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL1_DCACHE_SIZE}) {
    if (cl_ulong bytes = sysconf_bytes(level)) return bytes;
  }
  return 0;
}

cl_uint max_clock_mhz() {
  // cpufreq reports kHz; virtual machines often lack it, /proc/cpuinfo then has the current clock.
  if (cl_ulong khz = number_in_file("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")) {
    return static_cast<cl_uint>(khz / 1000);
  }
  return static_cast<cl_uint>(std::strtod(cpuinfo_field("cpu MHz").c_str(), nullptr));
}

struct CpuVendor {
  const char* cpuinfo_id;  // /proc/cpuinfo "vendor_id" or "CPU implementer"
  const char* name;
  cl_uint pci_vendor_id;
};
constexpr CpuVendor kCpuVendors[] = {
    {"GenuineIntel", "Intel(R) Corporation", 0x8086},
    {"AuthenticAMD", "Advanced Micro Devices, Inc.", 0x1022},
    {"0x41", "ARM", 0x13B5},
};

// Widest SIMD register, in bytes, that the JIT may use on this CPU.
cl_uint simd_bytes() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx512f")) return 64;
  if (__builtin_cpu_supports("avx2")) return 32;
  return 16;  // SSE2 is part of x86-64
#else
  return 16;  // NEON / ASIMD
#endif
}

bool has_hardware_fma() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("fma");
#elif defined(__aarch64__)
  return true;
#else
  return false;
#endif
}

// The device timer is the host's monotonic clock (see HostDevice::device_timer_ns).
size_t monotonic_clock_resolution_ns() {
  timespec resolution{};
  if (clock_getres(CLOCK_MONOTONIC, &resolution) != 0) return 1;
  return std::max<size_t>(1, resolution.tv_sec * 1000000000ull + resolution.tv_nsec);
}

// The machine's identity (systemd's /etc/machine-id, else the boot's), so that the host
// device of one machine has one UUID across processes; the device's name tells it apart
// from the machine id itself.
std::array<cl_uchar, CL_UUID_SIZE_KHR> host_device_uuid() {
  std::array<cl_uchar, CL_UUID_SIZE_KHR> uuid{};
  std::string id;
  for (const char* path : {"/etc/machine-id", "/var/lib/dbus/machine-id", "/proc/sys/kernel/random/boot_id"}) {
    std::ifstream file(path);
    if (std::getline(file, id) && !id.empty()) break;
  }
  id.erase(std::remove(id.begin(), id.end(), '-'), id.end());
  const char tag[] = "cucl-host-device";  // 16 bytes
  for (size_t i = 0; i < uuid.size(); ++i) {
    const unsigned byte = i * 2 + 1 < id.size() ? std::stoul(id.substr(i * 2, 2), nullptr, 16) : 0;
    uuid[i] = static_cast<cl_uchar>(byte ^ static_cast<unsigned char>(tag[i]));
  }
  return uuid;
}

// Equal for every host device of this version of cucl.
std::array<cl_uchar, CL_UUID_SIZE_KHR> host_driver_uuid() {
  std::array<cl_uchar, CL_UUID_SIZE_KHR> uuid{};
  const char tag[] = "cucl-host-drv";  // 13 bytes, then the version 0.1.0
  std::copy(tag, tag + sizeof tag - 1, uuid.begin());
  uuid[13] = 0, uuid[14] = 1, uuid[15] = 0;
  return uuid;
}

cl_uint clamp_to_cl_uint(cl_ulong value) { return static_cast<cl_uint>(std::min<cl_ulong>(value, ~cl_uint{0})); }

}  // namespace

void describe_host_compiler(DeviceDescription& d) {
  // -Wno-psabi: wide vectors passed to printf would otherwise warn about the x86-64 ABI.
  // -faddress-space-map-mangling=yes: builtins taking pointers are named as SPIR names
  // them (PU3AS1 for __global, not x86's PU8CLglobal), so that calls in modules translated
  // from SPIR-V find them. libclc-builtins/CMakeLists.txt compiles the library the same way.
  describe_opencl_c_compiler(d, {"x86_64-unknown-linux-gnu",
                                 {"-ffake-address-space-map", "-faddress-space-map-mangling=yes", "-Wno-psabi"},
                                 host_code_target(), builtins::host_bitcode(), "builtins",
                                 /*all_devices_scope=*/true});
  d.extensions.insert(d.extensions.begin(), {CL_MAKE_VERSION(1, 0, 0), "cl_khr_extended_versioning"});
  // The same source builds to different code without the vectoriser: not one cache entry.
  if (!settings::enabled(settings::Name::CUCL_HOST_VECTORIZE)) d.compiler.compiler_identity += "/scalar";
}

DeviceDescription describe_host_device(unsigned concurrency) {
  DeviceDescription d;
  d.type = CL_DEVICE_TYPE_CPU;
  d.name = cpuinfo_field("model name");
  if (d.name.empty()) d.name = "cucl host CPU";
  std::string cpu_vendor = cpuinfo_field("vendor_id");
  if (cpu_vendor.empty()) cpu_vendor = cpuinfo_field("CPU implementer");
  d.vendor = cpu_vendor.empty() ? "unknown" : cpu_vendor;
  for (const CpuVendor& known : kCpuVendors) {
    if (cpu_vendor == known.cpuinfo_id) {
      d.vendor = known.name;
      d.vendor_id = known.pci_vendor_id;
    }
  }
  d.driver_version = "0.1.0";
  d.max_compute_units = std::max(1u, concurrency);
  d.max_clock_frequency_mhz = max_clock_mhz();
  d.address_bits = sizeof(void*) * 8;
  d.endian_little = std::endian::native == std::endian::little ? CL_TRUE : CL_FALSE;

  d.global_mem_size = physical_memory_bytes();
  d.max_mem_alloc_size = std::min(d.global_mem_size, std::max<cl_ulong>(d.global_mem_size / 4, 128ull << 20));
  d.global_mem_cache_type = CL_READ_WRITE_CACHE;
  if (cl_ulong line = sysconf_bytes(_SC_LEVEL1_DCACHE_LINESIZE)) d.global_mem_cacheline_size = clamp_to_cl_uint(line);
  d.global_mem_cache_size = last_level_cache_bytes();
  // __constant data is ordinary host memory; 1 MiB keeps allocation-heavy conformance
  // tests quick while leaving room far above the 64 KiB minimum.
  d.max_constant_buffer_size = 1024 * 1024;
  d.local_mem_type = CL_GLOBAL;  // __local lives in a per-work-group arena in host memory
  d.host_unified_memory = CL_TRUE;
  // Kernels run on host threads: any host memory is shared, at once, with atomics of every
  // scope (memory_scope_all_svm_devices included, describe_host_compiler).
  d.svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                       CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS;

  d.max_work_item_sizes = {kMaxWorkGroupSize, kMaxWorkGroupSize, kMaxWorkGroupSize};
  d.max_work_group_size = kMaxWorkGroupSize;
  // __local memory is a heap arena per running work-group, sized by the kernel: the limit
  // only keeps requests sane. It holds one value of the widest type (long16, double16: 128
  // bytes) per work-item of the largest group, which programs sized for GPUs assume (the
  // CTS's half suite keeps a double16 per work-item of an eighth of the largest group).
  d.local_mem_size = d.max_work_group_size * 128;

  // Native widths fill one SIMD register; half stays 0 without fp16.
  cl_uint simd = simd_bytes();
  d.native_vector_width = {simd, simd / 2, simd / 4, simd / 8, simd / 4, simd / 8, 0};
  // Work-groups of whole SIMD registers of floats vectorise without a remainder loop.
  d.preferred_work_group_size_multiple = std::max(1u, simd / 4);
  d.preferred_vector_width = d.native_vector_width;

  // x86-64 and AArch64 keep denormals and IEEE rounding unless a kernel asks otherwise.
  d.single_fp_config = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
  if (has_hardware_fma()) d.single_fp_config |= CL_FP_FMA;
  d.double_fp_config = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                       CL_FP_INF_NAN | CL_FP_DENORM;

  d.profiling_timer_resolution_ns = monotonic_clock_resolution_ns();
  d.uuid = host_device_uuid();
  d.driver_uuid = host_driver_uuid();
  d.execution_capabilities = CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL;
  d.queue_on_host_properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  describe_host_compiler(d);
  describe_half_precision(d, simd / 2, has_hardware_fma());
  describe_half_atomics(d);
  d.extensions.push_back({CL_MAKE_VERSION(1, 0, 0), "cl_khr_device_uuid"});
  // A sub-group is one work-item (libclc-builtins/src/sub_group_host.cl says why). Work-items
  // of a group take turns on one thread, so one that waits for another's progress without a
  // barrier never sees it: no independent forward progress.
  describe_sub_groups(d, 1, /*independent_forward_progress=*/false);
  describe_software_images(d);
  report_opencl_3_1_where_complete(d);
  return d;
}

}  // namespace cucl::backend::host

#include <CL/cl_ext.h>
#include <time.h>

#include <algorithm>

#include "platform/info/info.h"
#include "platform/info/name_version.h"
#include "platform/objects/platform.h"

namespace cucl {
namespace {

constexpr cl_version kNumericVersion = CL_MAKE_VERSION(3, 1, 0);  // the "3.1" of Platform::kVersion

// cl_khr_icd, plus every extension that all devices support: the spec requires the
// platform to report exactly those.
NameVersionList platform_extensions(const Platform& platform) {
  NameVersionList list{{CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"}};
  const auto& devices = platform.devices();
  if (devices.empty()) return list;
  for (const auto& extension : devices.front()->description().extensions) {
    bool everywhere = std::all_of(devices.begin(), devices.end(), [&](const Device* device) {
      return contains_name(device->description().extensions, extension.name);
    });
    if (everywhere && !contains_name(list, extension.name)) list.push_back(extension);
  }
  return list;
}

// The resolution of now_ns(), which is std::chrono::steady_clock: CLOCK_MONOTONIC here.
cl_ulong host_timer_resolution_ns() {
  timespec resolution{};
  if (clock_getres(CLOCK_MONOTONIC, &resolution) != 0) return 1;
  return std::max<cl_ulong>(1, resolution.tv_sec * 1000000000ull + resolution.tv_nsec);
}

}  // namespace

void platform_info(Platform& platform, cl_platform_info param, InfoWriter& out) {
  switch (param) {
    case CL_PLATFORM_PROFILE: return out.string("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return out.string(Platform::kVersion);
    case CL_PLATFORM_NUMERIC_VERSION: return out.scalar(kNumericVersion);
    case CL_PLATFORM_NAME: return out.string(Platform::kName);
    case CL_PLATFORM_VENDOR: return out.string(Platform::kVendor);
    case CL_PLATFORM_EXTENSIONS: return out.string(joined_names(platform_extensions(platform), ' '));
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: return out.array(to_cl_name_versions(platform_extensions(platform)));
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return out.scalar(host_timer_resolution_ns());
    case CL_PLATFORM_ICD_SUFFIX_KHR: return out.string(Platform::kIcdSuffix);
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

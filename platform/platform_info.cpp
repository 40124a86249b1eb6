#include <CL/cl_ext.h>

#include "platform/clock.h"
#include "platform/info.h"
#include "platform/platform.h"

namespace cucl {

void platform_info(Platform& platform, cl_platform_info param, InfoWriter& out) {
  switch (param) {
    case CL_PLATFORM_PROFILE: return out.string("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return out.string(Platform::kVersion);
    case CL_PLATFORM_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: return out.string(Platform::kName);
    case CL_PLATFORM_VENDOR: return out.string(Platform::kVendor);
    case CL_PLATFORM_EXTENSIONS: return out.string("cl_khr_icd");
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
      cl_name_version icd{CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"};
      return out.scalar(icd);
    }
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return out.scalar<cl_ulong>(1);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return out.string(Platform::kIcdSuffix);
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl

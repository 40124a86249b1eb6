#include "platform/info/device_info_versions.h"

#include <CL/cl_ext.h>

#include "platform/objects/device.h"
#include "platform/info/name_version.h"

namespace cucl {

bool device_version_info(const Device& device, cl_device_info param, InfoWriter& out) {
  const auto& d = device.description();
  switch (param) {
    case CL_DEVICE_NAME: out.string(d.name); break;
    case CL_DEVICE_VENDOR: out.string(d.vendor); break;
    case CL_DRIVER_VERSION: out.string(d.driver_version); break;
    case CL_DEVICE_PROFILE: out.string(d.profile); break;
    case CL_DEVICE_VERSION: out.string(d.version); break;
    case CL_DEVICE_NUMERIC_VERSION: out.scalar(d.numeric_version); break;
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: out.string(d.latest_conformance_version_passed); break;

    case CL_DEVICE_OPENCL_C_VERSION: out.string(d.opencl_c_version); break;
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR:  // only while cl_khr_extended_versioning is listed
      check(contains_name(d.extensions, "cl_khr_extended_versioning"), CL_INVALID_VALUE);
      out.scalar(d.opencl_c_numeric_version);
      break;
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: out.array(to_cl_name_versions(d.opencl_c_all_versions)); break;
    case CL_DEVICE_OPENCL_C_FEATURES: out.array(to_cl_name_versions(d.opencl_c_features)); break;

    case CL_DEVICE_EXTENSIONS: out.string(joined_names(d.extensions, ' ')); break;
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: out.array(to_cl_name_versions(d.extensions)); break;
    case CL_DEVICE_IL_VERSION: out.string(il_version_string(d.ils)); break;
    case CL_DEVICE_ILS_WITH_VERSION: out.array(to_cl_name_versions(d.ils)); break;
    case CL_DEVICE_BUILT_IN_KERNELS: out.string(joined_names(d.built_in_kernels, ';')); break;
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: out.array(to_cl_name_versions(d.built_in_kernels)); break;

    default: return false;
  }
  return true;
}

}  // namespace cucl

#include "platform/info/device_info_versions.h"

#include <CL/cl_ext.h>

#include <array>

#include "platform/objects/device.h"
#include "platform/info/name_version.h"

namespace cucl {
namespace {

// Queries that exist only while the device lists the extension that defines them.
struct ExtensionQuery {
  cl_device_info param;
  const char* extension;
};
constexpr ExtensionQuery kExtensionQueries[] = {
    {CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, "cl_khr_extended_versioning"},
    {CL_DEVICE_UUID_KHR, "cl_khr_device_uuid"},
    {CL_DRIVER_UUID_KHR, "cl_khr_device_uuid"},
    {CL_DEVICE_LUID_VALID_KHR, "cl_khr_device_uuid"},
    {CL_DEVICE_LUID_KHR, "cl_khr_device_uuid"},
    {CL_DEVICE_NODE_MASK_KHR, "cl_khr_device_uuid"},
    {CL_DEVICE_PCI_BUS_INFO_KHR, "cl_khr_pci_bus_info"},
};

void require_extension_of(const backend::DeviceDescription& d, cl_device_info param) {
  for (const auto& query : kExtensionQueries) {
    if (query.param == param) check(contains_name(d.extensions, query.extension), CL_INVALID_VALUE);
  }
}

template <class T, size_t N>
void fixed_array(InfoWriter& out, const std::array<T, N>& values) {
  out.bytes(values.data(), sizeof(T) * N);
}

}  // namespace

bool device_version_info(const Device& device, cl_device_info param, InfoWriter& out) {
  const auto& d = device.description();
  require_extension_of(d, param);
  switch (param) {
    case CL_DEVICE_NAME: out.string(d.name); break;
    case CL_DEVICE_VENDOR: out.string(d.vendor); break;
    case CL_DRIVER_VERSION: out.string(d.driver_version); break;
    case CL_DEVICE_PROFILE: out.string(d.profile); break;
    case CL_DEVICE_VERSION: out.string(d.version); break;
    case CL_DEVICE_NUMERIC_VERSION: out.scalar(d.numeric_version); break;
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: out.string(d.latest_conformance_version_passed); break;

    case CL_DEVICE_OPENCL_C_VERSION: out.string(d.opencl_c_version); break;
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR: out.scalar(d.opencl_c_numeric_version); break;
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: out.array(to_cl_name_versions(d.opencl_c_all_versions)); break;
    case CL_DEVICE_OPENCL_C_FEATURES: out.array(to_cl_name_versions(d.opencl_c_features)); break;

    case CL_DEVICE_EXTENSIONS: out.string(joined_names(d.extensions, ' ')); break;
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: out.array(to_cl_name_versions(d.extensions)); break;
    case CL_DEVICE_IL_VERSION: out.string(il_version_string(d.ils)); break;
    case CL_DEVICE_ILS_WITH_VERSION: out.array(to_cl_name_versions(d.ils)); break;
    case CL_DEVICE_BUILT_IN_KERNELS: out.string(joined_names(d.built_in_kernels, ';')); break;
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: out.array(to_cl_name_versions(d.built_in_kernels)); break;

    case CL_DEVICE_UUID_KHR: fixed_array(out, d.uuid); break;
    case CL_DRIVER_UUID_KHR: fixed_array(out, d.driver_uuid); break;
    // No cucl device has a Windows LUID; the node mask is undefined while the LUID is invalid.
    case CL_DEVICE_LUID_VALID_KHR: out.scalar<cl_bool>(CL_FALSE); break;
    case CL_DEVICE_LUID_KHR: fixed_array(out, std::array<cl_uchar, CL_LUID_SIZE_KHR>{}); break;
    case CL_DEVICE_NODE_MASK_KHR: out.scalar<cl_uint>(0); break;
    case CL_DEVICE_PCI_BUS_INFO_KHR: out.scalar(d.pci_bus_info); break;
    default: return false;
  }
  return true;
}

}  // namespace cucl

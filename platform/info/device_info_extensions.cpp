#include "platform/info/device_info_extensions.h"

#include <CL/cl_ext.h>

#include <array>

#include "backends/float_atomics_ext.h"
#include "platform/command_buffer/command_buffer_rules.h"
#include "platform/command_buffer/mutable_dispatch_rules.h"
#include "platform/info/name_version.h"
#include "platform/info/spirv_capabilities.h"
#include "platform/objects/device.h"

// cl_khr_spirv_queries (2025): not in the Debian headers.
#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

namespace cucl {
namespace {

struct ExtensionQuery {
  cl_device_info param;
  const char* extension;
};
constexpr ExtensionQuery kExtensionQueries[] = {
    {CL_DEVICE_UUID_KHR, "cl_khr_device_uuid"},
    {CL_DRIVER_UUID_KHR, "cl_khr_device_uuid"},
    {CL_DEVICE_LUID_VALID_KHR, "cl_khr_device_uuid"},
    {CL_DEVICE_LUID_KHR, "cl_khr_device_uuid"},
    {CL_DEVICE_NODE_MASK_KHR, "cl_khr_device_uuid"},
    {CL_DEVICE_PCI_BUS_INFO_KHR, "cl_khr_pci_bus_info"},
    {CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, "cl_khr_integer_dot_product"},
    {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR, "cl_khr_integer_dot_product"},
    {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR, "cl_khr_integer_dot_product"},
    {CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, "cl_khr_spirv_queries"},
    {CL_DEVICE_SPIRV_EXTENSIONS_KHR, "cl_khr_spirv_queries"},
    {CL_DEVICE_SPIRV_CAPABILITIES_KHR, "cl_khr_spirv_queries"},
    {CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, "cl_khr_command_buffer"},
    {CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR, "cl_khr_command_buffer"},
    {CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR, "cl_khr_command_buffer"},
    {CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR, "cl_khr_command_buffer_mutable_dispatch"},
    {CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT, "cl_ext_float_atomics"},
    {CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT, "cl_ext_float_atomics"},
    {CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT, "cl_ext_float_atomics"},
};

template <class T, size_t N>
void fixed_array(InfoWriter& out, const std::array<T, N>& values) {
  out.bytes(values.data(), sizeof(T) * N);
}

}  // namespace

bool device_extension_info(const Device& device, cl_device_info param, InfoWriter& out) {
  const auto& d = device.description();
  const ExtensionQuery* query = nullptr;
  for (const ExtensionQuery& known : kExtensionQueries) {
    if (known.param == param) query = &known;
  }
  if (!query) return false;
  check(contains_name(d.extensions, query->extension), CL_INVALID_VALUE);
  switch (param) {
    case CL_DEVICE_UUID_KHR: fixed_array(out, d.uuid); break;
    case CL_DRIVER_UUID_KHR: fixed_array(out, d.driver_uuid); break;
    // No cucl device has a Windows LUID; the node mask is undefined while the LUID is invalid.
    case CL_DEVICE_LUID_VALID_KHR: out.scalar<cl_bool>(CL_FALSE); break;
    case CL_DEVICE_LUID_KHR: fixed_array(out, std::array<cl_uchar, CL_LUID_SIZE_KHR>{}); break;
    case CL_DEVICE_NODE_MASK_KHR: out.scalar<cl_uint>(0); break;
    case CL_DEVICE_PCI_BUS_INFO_KHR: out.scalar(d.pci_bus_info); break;
    case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR: out.scalar(d.integer_dot_product_capabilities); break;
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR: out.scalar(d.integer_dot_product_8bit); break;
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR:
      out.scalar(d.integer_dot_product_4x8bit_packed);
      break;
    // The names point at strings that live as long as the process (string literals).
    case CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR: out.array(spirv_support(d).extended_instruction_sets); break;
    case CL_DEVICE_SPIRV_EXTENSIONS_KHR: out.array(spirv_support(d).extensions); break;
    case CL_DEVICE_SPIRV_CAPABILITIES_KHR: out.array(spirv_support(d).capabilities); break;
    case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR: out.scalar(kCommandBufferCapabilities); break;
    case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR: out.scalar(kCommandBufferQueueProperties); break;
    case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR: out.scalar(cl_command_queue_properties{0}); break;
    case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR: out.scalar(kMutableDispatchFields); break;
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT: out.scalar(d.single_fp_atomic_capabilities); break;
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT: out.scalar(d.double_fp_atomic_capabilities); break;
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT: out.scalar(d.half_fp_atomic_capabilities); break;
    default: return false;
  }
  return true;
}

}  // namespace cucl

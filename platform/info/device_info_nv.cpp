#include "platform/info/device_info_nv.h"

#include <CL/cl_ext.h>

#include "platform/info/name_version.h"
#include "platform/objects/device.h"

namespace cucl {

bool nv_device_attribute_info(const Device& device, cl_device_info param, InfoWriter& out) {
  if (param < CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV || param > kDevicePciDomainIdNv) return false;
  const auto& d = device.description();
  check(contains_name(d.extensions, "cl_nv_device_attribute_query"), CL_INVALID_VALUE);
  switch (param) {
    case CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV: out.scalar(d.nv.compute_capability_major); break;
    case CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV: out.scalar(d.nv.compute_capability_minor); break;
    case CL_DEVICE_REGISTERS_PER_BLOCK_NV: out.scalar(d.nv.registers_per_block); break;
    case CL_DEVICE_WARP_SIZE_NV: out.scalar(d.nv.warp_size); break;
    case CL_DEVICE_GPU_OVERLAP_NV: out.scalar(d.nv.gpu_overlap); break;
    case CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV: out.scalar(d.nv.kernel_exec_timeout); break;
    case CL_DEVICE_INTEGRATED_MEMORY_NV: out.scalar(d.nv.integrated_memory); break;
    case kDeviceAsyncEngineCountNv: out.scalar(d.nv.async_engine_count); break;
    case kDevicePciBusIdNv: out.scalar(d.pci_bus_info.pci_bus); break;
    case kDevicePciSlotIdNv: out.scalar(d.pci_bus_info.pci_device); break;  // its PCI device number
    case kDevicePciDomainIdNv: out.scalar(d.pci_bus_info.pci_domain); break;
    default: fail(CL_INVALID_VALUE);
  }
  return true;
}

}  // namespace cucl

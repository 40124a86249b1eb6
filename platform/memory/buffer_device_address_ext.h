// cl_ext_buffer_device_address 1.0.2, which Debian's (2023) headers lack: its names, type and
// entry point, written from the extension's specification and the Khronos registry
// (xml/cl.xml). Newer headers that have them keep theirs.
#pragma once

#include <CL/cl_ext.h>

#ifndef cl_ext_buffer_device_address
#define cl_ext_buffer_device_address 1
#define CL_EXT_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME "cl_ext_buffer_device_address"
typedef cl_ulong cl_mem_device_address_ext;
#define CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT 0x5000    // cl_mem_properties
#define CL_MEM_DEVICE_ADDRESS_EXT 0x5001            // cl_mem_info
#define CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT 0x5002  // cl_kernel_exec_info

extern "C" CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgDevicePointerEXT(cl_kernel kernel, cl_uint arg_index,
                                                                          cl_mem_device_address_ext arg_value);
#endif

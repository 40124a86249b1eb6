// cl_ext_buffer_device_address 1.0.2 as an application reaches it: the names Debian's (2023)
// headers lack, and clSetKernelArgDevicePointerEXT through
// clGetExtensionFunctionAddressForPlatform.
#pragma once

#include <CL/cl.h>

#include "support/test_support.h"

namespace cucl_test {

using cl_mem_device_address_ext = cl_ulong;
constexpr cl_mem_properties kMemDevicePrivateAddress = 0x5000;  // CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT
constexpr cl_mem_info kMemDeviceAddress = 0x5001;               // CL_MEM_DEVICE_ADDRESS_EXT
constexpr cl_kernel_exec_info kExecInfoDevicePtrs = 0x5002;     // CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT

using SetKernelArgDevicePointer = cl_int(CL_API_CALL*)(cl_kernel, cl_uint, cl_mem_device_address_ext);

inline SetKernelArgDevicePointer set_kernel_arg_device_pointer() {
  return reinterpret_cast<SetKernelArgDevicePointer>(
      clGetExtensionFunctionAddressForPlatform(cucl_platform(), "clSetKernelArgDevicePointerEXT"));
}

// A buffer with device addresses, released on destruction (null, with the status kept, on failure).
class AddressedBuffer {
 public:
  AddressedBuffer(cl_context context, size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE, void* host_ptr = nullptr) {
    const cl_mem_properties properties[] = {kMemDevicePrivateAddress, CL_TRUE, 0};
    memory_ = clCreateBufferWithProperties(context, properties, flags, bytes, host_ptr, &status_);
  }
  ~AddressedBuffer() {
    if (memory_) clReleaseMemObject(memory_);
  }
  AddressedBuffer(const AddressedBuffer&) = delete;
  AddressedBuffer& operator=(const AddressedBuffer&) = delete;
  cl_mem get() const { return memory_; }
  const cl_mem* address() const { return &memory_; }
  cl_int status() const { return status_; }

 private:
  cl_int status_ = CL_SUCCESS;
  cl_mem memory_ = nullptr;
};

// CL_MEM_DEVICE_ADDRESS_EXT: one address per device of the buffer's context.
inline std::vector<cl_mem_device_address_ext> device_addresses(cl_mem buffer) {
  size_t size = 0;
  EXPECT_EQ(clGetMemObjectInfo(buffer, kMemDeviceAddress, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_mem_device_address_ext> addresses(size / sizeof(cl_mem_device_address_ext));
  EXPECT_EQ(clGetMemObjectInfo(buffer, kMemDeviceAddress, size, addresses.data(), nullptr), CL_SUCCESS);
  return addresses;
}

}  // namespace cucl_test

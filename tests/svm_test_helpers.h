// Shared by the SVM tests (test_svm*.cpp, test_cuda_svm.cpp): capabilities, and an SVM
// allocation that frees itself.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include "support/kernel_support.h"

namespace svm_test {

inline cl_device_svm_capabilities svm_capabilities(cl_device_id device) {
  cl_device_svm_capabilities capabilities = 0;
  EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof capabilities, &capabilities, nullptr),
            CL_SUCCESS);
  return capabilities;
}

// clSVMAlloc's pointer, clSVMFree'd on destruction.
class SvmPointer {
 public:
  SvmPointer(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment = 0)
      : context_(context), pointer_(clSVMAlloc(context, flags, size, alignment)) {}
  ~SvmPointer() { clSVMFree(context_, pointer_); }
  SvmPointer(const SvmPointer&) = delete;
  SvmPointer& operator=(const SvmPointer&) = delete;
  void* get() const { return pointer_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(pointer_);
  }

 private:
  cl_context context_;
  void* pointer_;
};

// A kernel test on every device with SVM (a GPU without managed memory skips).
class SvmDeviceTest : public cucl_test::DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    capabilities = svm_capabilities(env.device);
    if (!capabilities) GTEST_SKIP() << "the device has no SVM";
  }
  bool has(cl_device_svm_capabilities kind) const { return (capabilities & kind) == kind; }
  cl_device_svm_capabilities capabilities = 0;
};

}  // namespace svm_test

// Helpers for tests that build and run kernels. Tests that run kernels are parametrised
// over every cucl device (DeviceTest), so the same body runs on the host device and, where
// present, on each GPU.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace cucl_test {

// CL_PROGRAM_BUILD_LOG of `device`.
std::string build_log(cl_program program, cl_device_id device);

// Creates and builds `source` for `device`; fails the test (with the build log) and returns
// null when anything goes wrong.
cl_program build_program(cl_context context, cl_device_id device, const std::string& source,
                         const std::string& options = "");

// OpenCL C that defines WIDEST_SCOPE: memory_scope_all_svm_devices where the device offers
// that scope (__opencl_c_atomic_scope_all_devices), memory_scope_device otherwise.
inline constexpr const char* kWidestAtomicScope = R"(
    #ifdef __opencl_c_atomic_scope_all_devices
    #define WIDEST_SCOPE memory_scope_all_svm_devices
    #else
    #define WIDEST_SCOPE memory_scope_device
    #endif
)";

// Owns a program and any number of kernels made from it.
class BuiltProgram {
 public:
  BuiltProgram(const Env& env, const std::string& source, const std::string& options = "");
  // A program built from SPIR-V `il` (defined in spirv_tools.cpp; null, with a test failure
  // and the build log, where it fails).
  static BuiltProgram from_il(const Env& env, const std::string& il);
  ~BuiltProgram();
  BuiltProgram(const BuiltProgram&) = delete;
  BuiltProgram& operator=(const BuiltProgram&) = delete;

  cl_program program() const { return program_; }
  explicit operator bool() const { return program_ != nullptr; }
  // A kernel that lives as long as this object (null, with a test failure, if absent).
  cl_kernel kernel(const std::string& name);

 private:
  explicit BuiltProgram(cl_program program) : program_(program) {}

  cl_program program_ = nullptr;
  std::vector<cl_kernel> kernels_;
};

// CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE of a small OpenCL C 3.0 kernel in groups of 1024
// (or the device's largest): the width of env's device's full sub-groups.
size_t max_sub_group_size(const Env& env);

// Sets every argument of `kernel` in order (each a value the kernel takes by value or a cl_mem).
template <class... Args>
void set_args(cl_kernel kernel, const Args&... args) {
  cl_uint index = 0;
  auto set = [&](size_t size, const void* value) {
    EXPECT_EQ(clSetKernelArg(kernel, index, size, value), CL_SUCCESS) << "argument " << index;
    ++index;
  };
  (set(sizeof(Args), &args), ...);
}

// A buffer of `count` values of T, optionally initialised from `data`; released on destruction.
class DeviceBuffer {
 public:
  DeviceBuffer(cl_context context, size_t bytes, const void* data = nullptr);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  cl_mem get() const { return memory_; }
  const cl_mem* address() const { return &memory_; }

 private:
  cl_mem memory_ = nullptr;
};

template <class T>
std::vector<T> read_buffer(cl_command_queue queue, cl_mem buffer, size_t count) {
  std::vector<T> values(count);
  EXPECT_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, count * sizeof(T), values.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  return values;
}

// Runs `kernel` over `global` work-items (1 dimension) with an optional local size and waits.
void run_1d(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local = 0);

// Every cucl device, for INSTANTIATE_TEST_SUITE_P(..., DeviceTest, ::testing::ValuesIn(all_devices()), device_name).
std::vector<cl_device_id> all_devices();
std::string device_name(const ::testing::TestParamInfo<cl_device_id>& info);

// Skips (with the reason) on a device that reports no compiler: kernel tests need one.
// Subclasses that override SetUp call DeviceTest::SetUp() first and return if it skipped.
class DeviceTest : public ::testing::TestWithParam<cl_device_id> {
 protected:
  DeviceTest() : env(GetParam()) {}
  void SetUp() override;
  Env env;
};

}  // namespace cucl_test

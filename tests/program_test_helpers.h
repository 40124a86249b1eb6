// Helpers shared by the program and kernel API test programs (test_program_*.cpp,
// test_compile_link.cpp, test_kernel_*.cpp, test_ndrange.cpp): owning handles and the
// few calls every one of them repeats.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/kernel_support.h"

namespace program_test {

// Releases any OpenCL handle at scope exit.
template <class Handle>
class Owned {
 public:
  Owned() = default;
  explicit Owned(Handle handle) : handle_(handle) {}
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Owned& operator=(Owned&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~Owned() {
    if (handle_) cucl_test::release_object(handle_);
  }
  operator Handle() const { return handle_; }
  Handle get() const { return handle_; }
  const Handle* address() const { return &handle_; }
  Handle release() { return std::exchange(handle_, nullptr); }

 private:
  Handle handle_ = nullptr;
};

using Program = Owned<cl_program>;
using Kernel = Owned<cl_kernel>;

// A program made from `source`, not yet built.
inline Program source_program(cl_context context, const std::string& source) {
  const char* text = source.c_str();
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  return Program(program);
}

inline cl_int build(cl_program program, cl_device_id device, const char* options = nullptr) {
  return clBuildProgram(program, 1, &device, options, nullptr, nullptr);
}

inline cl_int compile(cl_program program, cl_device_id device, const char* options = nullptr) {
  return clCompileProgram(program, 1, &device, options, 0, nullptr, nullptr, nullptr, nullptr);
}

inline Kernel make_kernel(cl_program program, const char* name) {
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_kernel kernel = clCreateKernel(program, name, &status);
  EXPECT_EQ(status, CL_SUCCESS) << name;
  return Kernel(kernel);
}

// A char[] query of clGetProgramInfo, without the terminating NUL.
inline std::string program_string(cl_program program, cl_program_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetProgramInfo(program, param, 0, nullptr, &size), CL_SUCCESS);
  std::string value(size, '\0');
  EXPECT_EQ(clGetProgramInfo(program, param, size, value.data(), nullptr), CL_SUCCESS);
  if (!value.empty()) {
    EXPECT_EQ(value.back(), '\0');
    value.pop_back();
  }
  return value;
}

inline std::string build_options(cl_program program, cl_device_id device) {
  size_t size = 0;
  EXPECT_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size), CL_SUCCESS);
  std::string value(size, '\0');
  EXPECT_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_OPTIONS, size, value.data(), nullptr),
            CL_SUCCESS);
  return value.c_str();
}

template <class T>
T build_info(cl_program program, cl_device_id device, cl_program_build_info param) {
  T value{};
  size_t size = 0;
  EXPECT_EQ(clGetProgramBuildInfo(program, device, param, sizeof value, &value, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof value);
  return value;
}

inline cl_build_status build_status(cl_program program, cl_device_id device) {
  return build_info<cl_build_status>(program, device, CL_PROGRAM_BUILD_STATUS);
}

inline cl_program_binary_type binary_type(cl_program program, cl_device_id device) {
  return build_info<cl_program_binary_type>(program, device, CL_PROGRAM_BINARY_TYPE);
}

// The program's binary for its only device (CL_PROGRAM_BINARIES).
inline std::vector<unsigned char> program_binary(cl_program program) {
  size_t size = 0;
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char* destination = binary.data();
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof destination, &destination, nullptr), CL_SUCCESS);
  return binary;
}

// A program made from one binary for `device`; `status` gets the call's error and
// `binary_status` the per-device status.
inline Program binary_program(cl_context context, cl_device_id device, const std::vector<unsigned char>& binary,
                              cl_int* status, cl_int* binary_status = nullptr) {
  const size_t length = binary.size();
  const unsigned char* data = binary.data();
  return Program(clCreateProgramWithBinary(context, 1, &device, &length, &data, binary_status, status));
}

// Runs `kernel` with one int buffer of `count` elements as argument 0 over `count` items and
// returns the buffer.
inline std::vector<int> run_on_ints(const cucl_test::Env& env, cl_kernel kernel, size_t count) {
  std::vector<int> zeros(count, 0);
  cucl_test::DeviceBuffer out(env.context, count * sizeof(int), zeros.data());
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  cucl_test::run_1d(env.queue, kernel, count);
  return cucl_test::read_buffer<int>(env.queue, out.get(), count);
}

// The first value a one-int-output kernel named `name` in `program` writes.
inline int first_int(const cucl_test::Env& env, cl_program program, const char* name) {
  Kernel kernel = make_kernel(program, name);
  if (!kernel) return -1;
  return run_on_ints(env, kernel, 1).at(0);
}

}  // namespace program_test

// Shared helpers for the API tests: find the cucl platform through the loader and build
// the usual objects. Every test reaches cucl only through the OpenCL API.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cucl_test {

// The cucl platform as the loader lists it (fails the test if absent).
cl_platform_id cucl_platform();
// Every cucl device of `type`.
std::vector<cl_device_id> cucl_devices(cl_device_type type = CL_DEVICE_TYPE_ALL);
cl_device_id host_device();

std::string platform_string(cl_platform_id platform, cl_platform_info param);
std::string device_string(cl_device_id device, cl_device_info param);

template <class T>
T device_value(cl_device_id device, cl_device_info param) {
  T value{};
  EXPECT_EQ(clGetDeviceInfo(device, param, sizeof value, &value, nullptr), CL_SUCCESS) << "param 0x" << std::hex << param;
  return value;
}

// A context and an in-order queue on one device, released on destruction.
struct Env {
  explicit Env(cl_device_id device = host_device(), cl_command_queue_properties properties = 0);
  ~Env();
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  cl_device_id device;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

// The API reference count of any object kind.
cl_uint ref_count(cl_context context);
cl_uint ref_count(cl_command_queue queue);
cl_uint ref_count(cl_mem memory);
cl_uint ref_count(cl_event event);

}  // namespace cucl_test

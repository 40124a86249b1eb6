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
// Whether the device lists `name` in CL_DEVICE_EXTENSIONS / CL_DEVICE_OPENCL_C_FEATURES.
bool lists_extension(cl_device_id device, const std::string& name);
bool lists_feature(cl_device_id device, const std::string& name);
// A cl_name_version list the device reports (CL_DEVICE_EXTENSIONS_WITH_VERSION, ...).
std::vector<cl_name_version> name_versions(cl_device_id device, cl_device_info param);
// The version CL_DEVICE_EXTENSIONS_WITH_VERSION gives `name`; 0 where it is not listed.
cl_version extension_version(cl_device_id device, const std::string& name);

// A fixed-size info value: `getter` is any clGet*Info function (clGetDeviceInfo,
// clGetMemObjectInfo, ...). The query must succeed and report exactly sizeof(T) bytes.
template <class T, class Handle, class Param, class Getter>
T info_value(Getter getter, const Handle& handle, Param param) {
  T value{};
  size_t size = 0;
  EXPECT_EQ(getter(handle, param, sizeof value, &value, &size), CL_SUCCESS) << "param 0x" << std::hex << param;
  EXPECT_EQ(size, sizeof value) << "param 0x" << std::hex << param;
  return value;
}

// CL_EVENT_COMMAND_EXECUTION_STATUS: CL_QUEUED ... CL_COMPLETE, or a negative error.
inline cl_int event_status(cl_event event) {
  return info_value<cl_int>(clGetEventInfo, event, CL_EVENT_COMMAND_EXECUTION_STATUS);
}

inline cl_command_type event_type(cl_event event) {
  return info_value<cl_command_type>(clGetEventInfo, event, CL_EVENT_COMMAND_TYPE);
}

inline cl_event user_event(cl_context context) {
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_event event = clCreateUserEvent(context, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  return event;
}

// Releases an object of any kind, for helpers that must not leak whatever they got back.
inline cl_int release_object(cl_context object) { return clReleaseContext(object); }
inline cl_int release_object(cl_command_queue object) { return clReleaseCommandQueue(object); }
inline cl_int release_object(cl_mem object) { return clReleaseMemObject(object); }
inline cl_int release_object(cl_event object) { return clReleaseEvent(object); }
inline cl_int release_object(cl_program object) { return clReleaseProgram(object); }
inline cl_int release_object(cl_kernel object) { return clReleaseKernel(object); }
inline cl_int release_object(cl_sampler object) { return clReleaseSampler(object); }

// Calls a create-style function with an errcode_ret (`create(&status)`), checks that it
// made nothing, and returns the error it reported.
template <class Create>
cl_int create_error(Create create) {
  cl_int status = CL_SUCCESS;
  auto object = create(&status);
  EXPECT_EQ(object, nullptr);
  if (object) release_object(object);
  return status;
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

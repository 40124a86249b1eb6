// Helpers shared by the image test programs (test_image*.cpp): a device with images, image
// descriptors, and images released at scope exit.
#pragma once

#include <vector>

#include "buffer_test_helpers.h"

namespace image_test {

using buffer_test::Mem;

inline bool supports_images(cl_device_id device) {
  return cucl_test::info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
}

// The cucl devices that report CL_DEVICE_IMAGE_SUPPORT.
inline std::vector<cl_device_id> image_devices() {
  std::vector<cl_device_id> devices;
  for (cl_device_id device : cucl_test::cucl_devices()) {
    if (supports_images(device)) devices.push_back(device);
  }
  return devices;
}

// The first cucl device without images (null when every device has them).
inline cl_device_id device_without_images() {
  for (cl_device_id device : cucl_test::cucl_devices()) {
    if (!supports_images(device)) return device;
  }
  return nullptr;
}

inline cl_image_desc image_desc(cl_mem_object_type type, size_t width, size_t height = 1, size_t depth = 1,
                                size_t array_size = 1, cl_mem buffer = nullptr) {
  cl_image_desc desc{};
  desc.image_type = type;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_depth = depth;
  desc.image_array_size = array_size;
  desc.mem_object = buffer;
  return desc;
}

inline Mem make_image(cl_context context, cl_mem_flags flags, cl_image_format format, const cl_image_desc& desc,
                      void* host_ptr = nullptr) {
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_mem image = clCreateImage(context, flags, &format, &desc, host_ptr, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  EXPECT_NE(image, nullptr);
  return Mem(image);
}

// The error clCreateImage reports for these arguments (and that it returns no object).
inline cl_int image_error(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                          const cl_image_desc* desc, void* host_ptr = nullptr) {
  return cucl_test::create_error(
      [&](cl_int* status) { return clCreateImage(context, flags, format, desc, host_ptr, status); });
}

}  // namespace image_test

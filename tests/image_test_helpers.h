// Helpers shared by the image test programs (test_image*.cpp, test_cuda_image*.cpp): a device
// with images, image descriptors, images and samplers released at scope exit, and sampled reads
// at a list of coordinates.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "buffer_test_helpers.h"
#include "support/kernel_support.h"

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

// The pixel a sampler's addressing mode picks on one axis of `size` pixels for the pixel
// coordinate u (u times the size for normalized coordinates): -1 or `size` is the border of
// CL_ADDRESS_CLAMP.
inline int addressed_pixel(float u, int size, cl_addressing_mode addressing) {
  int i = static_cast<int>(std::floor(u));
  if (addressing == CL_ADDRESS_REPEAT) i = ((i % size) + size) % size;
  if (addressing == CL_ADDRESS_MIRRORED_REPEAT) {
    const int period = ((i % (2 * size)) + 2 * size) % (2 * size);
    i = period < size ? period : 2 * size - 1 - period;
  }
  if (addressing == CL_ADDRESS_CLAMP_TO_EDGE || addressing == CL_ADDRESS_NONE) i = std::clamp(i, 0, size - 1);
  if (addressing == CL_ADDRESS_CLAMP) i = std::clamp(i, -1, size);
  return i;
}

// Calls body(normalized, addressing, filter) for every sampler state whose results OpenCL
// defines (REPEAT and MIRRORED_REPEAT take normalized coordinates only), inside a trace that
// names the state; stops at the first fatal failure.
template <class Body>
void for_each_defined_sampler_state(Body&& body) {
  for (cl_bool normalized : {CL_FALSE, CL_TRUE}) {
    for (cl_addressing_mode addressing : {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                          CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT}) {
      if ((addressing == CL_ADDRESS_REPEAT || addressing == CL_ADDRESS_MIRRORED_REPEAT) && !normalized) continue;
      for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        SCOPED_TRACE(testing::Message() << "normalized " << normalized << " addressing 0x" << std::hex << addressing
                                        << " filter 0x" << filter);
        body(normalized, addressing, filter);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// A sampler, released at scope exit.
class Sampler {
 public:
  Sampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
    cl_int status = CL_OUT_OF_RESOURCES;
    sampler_ = clCreateSampler(context, normalized, addressing, filter, &status);
    EXPECT_EQ(status, CL_SUCCESS);
  }
  ~Sampler() {
    if (sampler_) clReleaseSampler(sampler_);
  }
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;
  cl_sampler get() const { return sampler_; }

 private:
  cl_sampler sampler_ = nullptr;
};

// Kernels that read a 2D image through a sampler at each coordinate of a list (sample_at).
inline const std::string kSampleAtCoordinatesSource = R"(
    kernel void sample_f(read_only image2d_t image, sampler_t s, global const float2* coords, global float4* out) {
      size_t i = get_global_id(0);
      out[i] = read_imagef(image, s, coords[i]);
    }
    kernel void sample_ui(read_only image2d_t image, sampler_t s, global const float2* coords, global uint4* out) {
      size_t i = get_global_id(0);
      out[i] = read_imageui(image, s, coords[i]);
    }
    kernel void sample_i(read_only image2d_t image, sampler_t s, global const float2* coords, global int4* out) {
      size_t i = get_global_id(0);
      out[i] = read_imagei(image, s, coords[i]);
    })";

// What `kernel` (one of kSampleAtCoordinatesSource's) reads from `image` at each (s, t) of
// `coords` through `sampler`: 4 values each.
template <class T>
std::vector<T> sample_at(cl_context context, cl_command_queue queue, cl_kernel kernel, cl_mem image,
                         cl_sampler sampler, const std::vector<float>& coords) {
  const size_t n = coords.size() / 2;
  cucl_test::DeviceBuffer coord_buffer(context, coords.size() * sizeof(float), coords.data());
  cucl_test::DeviceBuffer out(context, n * 4 * sizeof(T));
  cucl_test::set_args(kernel, image, sampler, coord_buffer.get(), out.get());
  cucl_test::run_1d(queue, kernel, n);
  return cucl_test::read_buffer<T>(queue, out.get(), n * 4);
}

}  // namespace image_test

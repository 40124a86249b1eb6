// 2D images made without host memory in a context with a GPU get rows padded to the pitch at
// which its texture units read (ImageLimits::texture_row_alignment), unseen by the API:
// CL_IMAGE_ROW_PITCH reports the packed pitch, as the specification asks of such images, and
// transfers, maps and kernels see every pixel where it belongs.
#include <algorithm>
#include <cstring>
#include <vector>

#include "image_test_helpers.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;
using namespace image_test;

namespace {

class CudaImagePitch : public GpuTest {};

TEST_F(CudaImagePitch, RowsArePaddedForTexturesWhereTheApiSeesPackedRows) {
  const size_t width = 1001, height = 37, packed = width * 4;  // 4004 bytes: not a multiple of 32
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  Mem image = make_image(context(), CL_MEM_READ_WRITE, format, image_desc(CL_MEM_OBJECT_IMAGE2D, width, height));
  size_t reported = 0;
  ASSERT_EQ(clGetImageInfo(image.get(), CL_IMAGE_ROW_PITCH, sizeof reported, &reported, nullptr), CL_SUCCESS);
  EXPECT_EQ(reported, packed);

  std::vector<uint8_t> pixels(packed * height);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<uint8_t>(i * 7 + i / packed);
  const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  ASSERT_EQ(clEnqueueWriteImage(queue(), image.get(), CL_TRUE, origin, region, 0, 0, pixels.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);

  size_t row_pitch = 0;
  cl_int status = CL_SUCCESS;
  auto* mapped = static_cast<uint8_t*>(clEnqueueMapImage(queue(), image.get(), CL_TRUE, CL_MAP_READ, origin, region,
                                                         &row_pitch, nullptr, 0, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_GE(row_pitch, packed);
  for (size_t y = 0; y < height; ++y) {
    ASSERT_EQ(std::memcmp(mapped + y * row_pitch, pixels.data() + y * packed, packed), 0) << "row " << y;
  }
  ASSERT_EQ(clEnqueueUnmapMemObject(queue(), image.get(), mapped, 0, nullptr, nullptr), CL_SUCCESS);

  BuiltProgram program(*env, R"(
      kernel void fetch(read_only image2d_t image, global float4* out) {
        const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
        int x = get_global_id(0), y = get_global_id(1);
        out[y * get_image_width(image) + x] = read_imagef(image, s, (float2)(x + 0.5f, y + 0.5f));
      })");
  cl_kernel kernel = program.kernel("fetch");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer out(context(), width * height * sizeof(cl_float4));
  set_args(kernel, image.get(), out.get());
  const size_t global[2] = {width, height};
  ASSERT_EQ(clEnqueueNDRangeKernel(queue(), kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<cl_float4> read(width * height);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), out.get(), CL_TRUE, 0, read.size() * sizeof(cl_float4), read.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  for (size_t p = 0; p < width * height; ++p) {
    for (int c = 0; c < 4; ++c) {
      ASSERT_FLOAT_EQ(read[p].s[c], pixels[p * 4 + c] / 255.0f) << "pixel " << p << " channel " << c;
    }
  }

  std::vector<uint8_t> back(pixels.size());
  ASSERT_EQ(clEnqueueReadImage(queue(), image.get(), CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr,
                               nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(back == pixels);

  // Another image over the same pixels takes the pitch the API reported.
  cl_image_desc view_desc = image_desc(CL_MEM_OBJECT_IMAGE2D, width, height, 1, 1, image.get());
  view_desc.image_row_pitch = packed;
  Mem view = make_image(context(), CL_MEM_READ_ONLY, format, view_desc);
  ASSERT_EQ(clGetImageInfo(view.get(), CL_IMAGE_ROW_PITCH, sizeof reported, &reported, nullptr), CL_SUCCESS);
  EXPECT_EQ(reported, packed);
  std::vector<uint8_t> through_view(pixels.size());
  ASSERT_EQ(clEnqueueReadImage(queue(), view.get(), CL_TRUE, origin, region, 0, 0, through_view.data(), 0, nullptr,
                               nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(through_view == pixels);
}

// CL_MEM_COPY_HOST_PTR images get padded rows too: the application's rows, at the pitch it
// gives (reported as given) or packed, land in them.
TEST_F(CudaImagePitch, CopiedHostRowsLandInPaddedRows) {
  const size_t width = 1001, height = 19, packed = width * 4;
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT8};
  BuiltProgram program(*env, R"(
      kernel void fetch(read_only image2d_t image, global uint4* out) {
        const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
        int x = get_global_id(0), y = get_global_id(1);
        out[y * get_image_width(image) + x] = read_imageui(image, s, (int2)(x, y));
      })");
  cl_kernel kernel = program.kernel("fetch");
  ASSERT_NE(kernel, nullptr);
  for (size_t given : {size_t{0}, size_t{4020}}) {
    const size_t host_pitch = given ? given : packed;
    std::vector<uint8_t> host(host_pitch * height, 0xee);
    for (size_t y = 0; y < height; ++y) {
      for (size_t i = 0; i < packed; ++i) host[y * host_pitch + i] = static_cast<uint8_t>(i * 3 + y * 11);
    }
    cl_image_desc desc = image_desc(CL_MEM_OBJECT_IMAGE2D, width, height);
    desc.image_row_pitch = given;
    Mem image = make_image(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, format, desc, host.data());
    size_t reported = 0;
    ASSERT_EQ(clGetImageInfo(image.get(), CL_IMAGE_ROW_PITCH, sizeof reported, &reported, nullptr), CL_SUCCESS);
    EXPECT_EQ(reported, host_pitch);
    std::fill(host.begin(), host.end(), 0);  // the image holds its own copy
    DeviceBuffer out(context(), width * height * sizeof(cl_uint4));
    set_args(kernel, image.get(), out.get());
    const size_t global[2] = {width, height};
    ASSERT_EQ(clEnqueueNDRangeKernel(queue(), kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<cl_uint4> read(width * height);
    ASSERT_EQ(clEnqueueReadBuffer(queue(), out.get(), CL_TRUE, 0, read.size() * sizeof(cl_uint4), read.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    for (size_t y = 0; y < height; ++y) {
      for (size_t x = 0; x < width; ++x) {
        for (size_t c = 0; c < 4; ++c) {
          const size_t i = x * 4 + c;
          ASSERT_EQ(read[y * width + x].s[c], static_cast<uint8_t>(i * 3 + y * 11))
              << "pitch " << given << " pixel " << x << "," << y << " channel " << c;
        }
      }
    }
  }
}

}  // namespace

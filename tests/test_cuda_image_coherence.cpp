// Images in a context of the host device and a GPU: whichever device wrote an image last
// (kernel, write, fill, copy), the other device's kernels, reads and maps see those pixels.
#include <cstring>

#include "image_test_helpers.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;
using namespace image_test;

namespace {

constexpr size_t kWidth = 37, kHeight = 23;  // odd sizes: no row happens to line up
constexpr cl_image_format kRgba8{CL_RGBA, CL_UNSIGNED_INT8};

const char* kSource = R"(
    kernel void produce(write_only image2d_t image, uint salt) {
      int2 at = (int2)(get_global_id(0), get_global_id(1));
      write_imageui(image, at, (uint4)(at.x, at.y, salt, at.x ^ at.y ^ salt) & 255u);
    }
    kernel void consume(read_only image2d_t image, global uint4* out) {
      int2 at = (int2)(get_global_id(0), get_global_id(1));
      out[at.y * get_image_width(image) + at.x] = read_imageui(image, at);
    })";

// The pixels `produce` writes with `salt`, as the kernel's uint4 and as the image's bytes.
std::vector<cl_uint4> produced(cl_uint salt) {
  std::vector<cl_uint4> pixels(kWidth * kHeight);
  for (cl_uint y = 0; y < kHeight; ++y) {
    for (cl_uint x = 0; x < kWidth; ++x) {
      pixels[y * kWidth + x] = {{x & 255u, y & 255u, salt & 255u, (x ^ y ^ salt) & 255u}};
    }
  }
  return pixels;
}

std::vector<uint8_t> as_bytes(const std::vector<cl_uint4>& pixels) {
  std::vector<uint8_t> bytes;
  for (const cl_uint4& p : pixels) {
    for (int c = 0; c < 4; ++c) bytes.push_back(static_cast<uint8_t>(p.s[c]));
  }
  return bytes;
}

size_t mismatches(const std::vector<cl_uint4>& got, const std::vector<cl_uint4>& expected) {
  size_t wrong = 0;
  for (size_t i = 0; i < expected.size(); ++i) wrong += std::memcmp(&got[i], &expected[i], sizeof(cl_uint4)) != 0;
  return wrong;
}

class MixedImages : public MixedContextTest {
 protected:
  void SetUp() override {
    MixedContextTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    for (cl_device_id device : devices) {
      if (!supports_images(device)) GTEST_SKIP() << "a device of the context has no images";
    }
    cl_int status = CL_SUCCESS;
    program_ = clCreateProgramWithSource(context, 1, &kSource, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(program_, 2, devices.data(), "", nullptr, nullptr), CL_SUCCESS)
        << build_log(program_, devices[0]) << build_log(program_, devices[1]);
    produce_ = clCreateKernel(program_, "produce", &status);
    ASSERT_EQ(status, CL_SUCCESS);
    consume_ = clCreateKernel(program_, "consume", &status);
    ASSERT_EQ(status, CL_SUCCESS);
  }
  void TearDown() override {
    if (consume_) clReleaseKernel(consume_);
    if (produce_) clReleaseKernel(produce_);
    if (program_) clReleaseProgram(program_);
    MixedContextTest::TearDown();
  }

  Mem image() { return make_image(context, CL_MEM_READ_WRITE, kRgba8, image_desc(CL_MEM_OBJECT_IMAGE2D, kWidth, kHeight)); }

  void run(cl_kernel kernel, cl_command_queue queue) {
    const size_t global[2] = {kWidth, kHeight};
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  }
  void produce(cl_command_queue queue, cl_mem target, cl_uint salt) {
    ASSERT_EQ(clSetKernelArg(produce_, 0, sizeof target, &target), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(produce_, 1, sizeof salt, &salt), CL_SUCCESS);
    run(produce_, queue);
  }
  // What a kernel on `queue` reads of every pixel.
  std::vector<cl_uint4> consume(cl_command_queue queue, cl_mem source) {
    std::vector<cl_uint4> pixels(kWidth * kHeight);
    Mem out = buffer_test::make_buffer(context, CL_MEM_WRITE_ONLY, pixels.size() * sizeof(cl_uint4));
    EXPECT_EQ(clSetKernelArg(consume_, 0, sizeof source, &source), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(consume_, 1, sizeof(cl_mem), out.address()), CL_SUCCESS);
    run(consume_, queue);
    EXPECT_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, pixels.size() * sizeof(cl_uint4), pixels.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return pixels;
  }
  std::vector<uint8_t> read_image(cl_command_queue queue, cl_mem source) {
    std::vector<uint8_t> bytes(kWidth * kHeight * 4);
    const size_t origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, 1};
    EXPECT_EQ(clEnqueueReadImage(queue, source, CL_TRUE, origin, region, 0, 0, bytes.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    return bytes;
  }

  cl_program program_ = nullptr;
  cl_kernel produce_ = nullptr;
  cl_kernel consume_ = nullptr;
};

TEST_F(MixedImages, KernelsOnEachDeviceReadWhatTheOtherWrote) {
  Mem shared = image();
  produce(host_queue(), shared, 1);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
  EXPECT_EQ(mismatches(consume(gpu_queue(), shared), produced(1)), 0u) << "GPU reading the host device's pixels";
  produce(gpu_queue(), shared, 2);
  ASSERT_EQ(clFinish(gpu_queue()), CL_SUCCESS);
  EXPECT_EQ(mismatches(consume(host_queue(), shared), produced(2)), 0u) << "host device reading the GPU's pixels";
}

TEST_F(MixedImages, EventsOrderAKernelOnOneDeviceAfterAWriteOnTheOther) {
  Mem shared = image();
  auto bytes = as_bytes(produced(7));
  const size_t origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, 1};
  cl_event written = nullptr;
  ASSERT_EQ(clEnqueueWriteImage(gpu_queue(), shared, CL_FALSE, origin, region, 0, 0, bytes.data(), 0, nullptr,
                                &written),
            CL_SUCCESS);
  std::vector<cl_uint4> pixels(kWidth * kHeight);
  Mem out = buffer_test::make_buffer(context, CL_MEM_WRITE_ONLY, pixels.size() * sizeof(cl_uint4));
  cl_mem source = shared;
  ASSERT_EQ(clSetKernelArg(consume_, 0, sizeof source, &source), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(consume_, 1, sizeof(cl_mem), out.address()), CL_SUCCESS);
  const size_t global[2] = {kWidth, kHeight};
  ASSERT_EQ(clEnqueueNDRangeKernel(host_queue(), consume_, 2, nullptr, global, nullptr, 1, &written, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(host_queue(), out, CL_TRUE, 0, pixels.size() * sizeof(cl_uint4), pixels.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(mismatches(pixels, produced(7)), 0u);
  clReleaseEvent(written);
}

TEST_F(MixedImages, CopyAndFillOnOneDeviceAreReadOnTheOther) {
  Mem first = image();
  Mem second = image();
  produce(host_queue(), first, 3);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
  const size_t origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, 1};
  ASSERT_EQ(clEnqueueCopyImage(gpu_queue(), first, second, origin, origin, region, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(gpu_queue()), CL_SUCCESS);
  EXPECT_EQ(read_image(host_queue(), second), as_bytes(produced(3))) << "a GPU copy of the host device's pixels";

  const cl_uint4 colour = {{9, 8, 7, 6}};
  const size_t corner[3] = {5, 4, 0}, block[3] = {10, 6, 1};
  ASSERT_EQ(clEnqueueFillImage(host_queue(), second, &colour, corner, block, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
  auto expected = produced(3);
  for (size_t y = corner[1]; y < corner[1] + block[1]; ++y) {
    for (size_t x = corner[0]; x < corner[0] + block[0]; ++x) expected[y * kWidth + x] = colour;
  }
  EXPECT_EQ(mismatches(consume(gpu_queue(), second), expected), 0u) << "a host-device fill read on the GPU";
}

TEST_F(MixedImages, MapOnTheHostDeviceShowsTheGpusKernelAndItsWritesReachTheGpu) {
  Mem shared = image();
  produce(gpu_queue(), shared, 4);
  ASSERT_EQ(clFinish(gpu_queue()), CL_SUCCESS);
  const size_t origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, 1};
  size_t row_pitch = 0;
  cl_int status = CL_SUCCESS;
  auto* mapped = static_cast<uint8_t*>(clEnqueueMapImage(host_queue(), shared, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                         origin, region, &row_pitch, nullptr, 0, nullptr, nullptr,
                                                         &status));
  ASSERT_EQ(status, CL_SUCCESS);
  auto expected = produced(4);
  const auto expected_bytes = as_bytes(expected);
  size_t wrong = 0;
  for (size_t y = 0; y < kHeight; ++y) {
    wrong += std::memcmp(mapped + y * row_pitch, expected_bytes.data() + y * kWidth * 4, kWidth * 4) != 0;
  }
  EXPECT_EQ(wrong, 0u) << "rows of the GPU's pixels wrong in the host device's map";
  mapped[3 * row_pitch + 2 * 4 + 1] = 200;  // pixel (2, 3), green
  expected[3 * kWidth + 2].s[1] = 200;
  ASSERT_EQ(clEnqueueUnmapMemObject(host_queue(), shared, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
  EXPECT_EQ(mismatches(consume(gpu_queue(), shared), expected), 0u) << "the map's write read on the GPU";
}

}  // namespace

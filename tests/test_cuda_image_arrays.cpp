// Sampled reads of 3D images and 2D arrays on the GPU go through the texture unit, which reads
// them from a CUDA array that copies the image's pixels (backends/cuda/cuda_image_arrays.h): each
// launch sampling the image brings the copy up to date with the writes before it. The texture
// path is recognised by the texture unit's linear filter, whose weights have 8 fractional bits,
// where the software filter's are exact; the other tests check that no kind of write leaves the
// copy behind.
#include <random>

#include "image_test_helpers.h"
#include "support/command_buffer_api.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;
using namespace image_test;

namespace {

const char* kSource = R"(
    kernel void sample_3d(read_only image3d_t image, sampler_t s, global const float4* coords, global float4* out) {
      size_t i = get_global_id(0);
      out[i] = read_imagef(image, s, coords[i]);
    }
    kernel void sample_2d_array(read_only image2d_array_t image, sampler_t s, global const float4* coords,
                                global float4* out) {
      size_t i = get_global_id(0);
      out[i] = read_imagef(image, s, coords[i]);
    }
    kernel void write_3d(write_only image3d_t image, int4 at, float4 value) { write_imagef(image, at, value); }
    kernel void write_2d_array(write_only image2d_array_t image, int4 at, float4 value) {
      write_imagef(image, at, value);
    })";

constexpr size_t kWidth = 64, kHeight = 4, kDepth = 4;  // rows of 1 KiB (RGBA float)
constexpr cl_image_format kFloat4 = {CL_RGBA, CL_FLOAT};

// Unnormalized x between the centres of pixels 0 and 1 whose weight is not a multiple of 1/256.
constexpr float kBetweenCentres = 0.5f + 0.3f + 1.0f / 1024;
constexpr float kExactWeight = 0.3f + 1.0f / 1024;

class CudaImageArrays : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!supports_images(gpu)) GTEST_SKIP() << "the GPU reports no images";
    program = std::make_unique<BuiltProgram>(*env, kSource, "-cl-std=CL3.0");
    ASSERT_TRUE(*program);
  }

  static cl_mem_object_type type_of(bool layered) {
    return layered ? CL_MEM_OBJECT_IMAGE2D_ARRAY : CL_MEM_OBJECT_IMAGE3D;
  }
  static cl_image_desc desc_of(bool layered) {
    return layered ? image_desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, kWidth, kHeight, 1, kDepth)
                   : image_desc(CL_MEM_OBJECT_IMAGE3D, kWidth, kHeight, kDepth);
  }
  // An RGBA float image whose pixel (x, y, z) holds `pixels(x, y, z)` in every channel.
  template <class Value>
  Mem image_of(bool layered, Value pixels, cl_mem_flags flags = CL_MEM_READ_ONLY) {
    std::vector<float> values(kWidth * kHeight * kDepth * 4);
    for (size_t z = 0; z < kDepth; ++z) {
      for (size_t y = 0; y < kHeight; ++y) {
        for (size_t x = 0; x < kWidth; ++x) {
          for (size_t c = 0; c < 4; ++c) values[((z * kHeight + y) * kWidth + x) * 4 + c] = pixels(x, y, z);
        }
      }
    }
    return make_image(context(), flags | CL_MEM_COPY_HOST_PTR, kFloat4, desc_of(layered), values.data());
  }
  // What the sampling kernel reads at each (u, v, w, 0) of `coords` on `queue`: 4 values each.
  std::vector<float> sample(cl_command_queue on, bool layered, cl_mem image, const Sampler& s,
                            const std::vector<float>& coords) {
    const size_t n = coords.size() / 4;
    DeviceBuffer coord_buffer(context(), coords.size() * sizeof(float), coords.data());
    DeviceBuffer out(context(), n * 4 * sizeof(float));
    cl_kernel kernel = program->kernel(layered ? "sample_2d_array" : "sample_3d");
    set_args(kernel, image, s.get(), coord_buffer.get(), out.get());
    run_1d(on, kernel, n);
    return read_buffer<float>(on, out.get(), n * 4);
  }
  // The first channel of pixel (x, y, z), read through the nearest filter.
  float pixel(bool layered, cl_mem image, size_t x, size_t y, size_t z, cl_command_queue on = nullptr) {
    Sampler nearest(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
    return sample(on ? on : queue(), layered, image, nearest, {x + 0.5f, y + 0.5f, layered ? float(z) : z + 0.5f, 0})[0];
  }

  std::unique_ptr<BuiltProgram> program;
};

class EachType : public CudaImageArrays, public ::testing::WithParamInterface<bool> {};

TEST_P(EachType, LinearReadsTakeTheTextureUnitsWeights) {
  const bool layered = GetParam();
  std::vector<cl_uchar> bytes(kWidth * kHeight * kDepth * 4, 0);
  for (size_t row = 0; row < kHeight * kDepth; ++row) std::fill_n(&bytes[(row * kWidth + 1) * 4], 4, 255);
  Mem image = make_image(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, {CL_RGBA, CL_UNORM_INT8},
                         desc_of(layered), bytes.data());
  Sampler linear(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  const float w = layered ? 2.0f : 2.5f;  // a layer; a slice's centre
  const std::vector<float> got = sample(queue(), layered, image.get(), linear, {kBetweenCentres, 1.5f, w, 0});
  // The texture unit's UNORM8 result is its 8-bit weight within a few 1e-6 (H100: 4.6e-6 over).
  EXPECT_NEAR(got[0], std::round(kExactWeight * 256) / 256, 2e-5f)
      << "not the texture unit's 8-bit weight (exact: " << kExactWeight << ")";
}

// Float formats: a 2D array's layer filters through the texture unit as 2D images do; a 3D
// image's 8 pixels are filtered in software, exactly (the texture unit's weights are coarser
// than the CTS allows there: cuda_image_arrays.cpp).
TEST_P(EachType, FloatLinearReadsOf3DImagesAreExact) {
  const bool layered = GetParam();
  Mem image = image_of(layered, [](size_t x, size_t, size_t) { return x == 1 ? 1.0f : 0.0f; });
  Sampler linear(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  const float w = layered ? 2.0f : 2.5f;
  const std::vector<float> got = sample(queue(), layered, image.get(), linear, {kBetweenCentres, 1.5f, w, 0});
  EXPECT_NEAR(got[0], layered ? std::round(kExactWeight * 256) / 256 : kExactWeight, 1e-6f);
}

// Nearest reads in every defined sampler state, across the image and past it: the pixel (and a
// 2D array's layer, rounded and clamped as OpenCL says) or the border colour.
TEST_P(EachType, NearestReadsPickThePixelOpenCLSays) {
  const bool layered = GetParam();
  auto value = [](long x, long y, long z) { return static_cast<float>((z * 16 + y) * 64 + x) / 4096.0f; };
  Mem image = image_of(layered, [&](size_t x, size_t y, size_t z) { return value(x, y, z); });
  for_each_defined_sampler_state([&](cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
    if (filter != CL_FILTER_NEAREST) return;
    // Pixel coordinates k + 0.3 or k + 0.6, inside the image for CL_ADDRESS_NONE, past it for
    // the others; a 2D array's layer coordinate w from -1.5 to 4.5 in every mode.
    const bool inside = addressing == CL_ADDRESS_NONE;
    std::vector<float> coords, pixel_coords;
    for (int k = inside ? 1 : -5; k < (inside ? 60 : 70); k += 7) {
      const float u = k + 0.3f;
      const float v = inside ? (k % 4) + 0.6f : (k % 7) - 1.4f;
      const float w = layered ? (k % 7) - 1.5f : inside ? (k % 4) + 0.3f : (k % 6) - 0.7f;
      pixel_coords.insert(pixel_coords.end(), {u, v, w});
      coords.insert(coords.end(), {normalized ? u / kWidth : u, normalized ? v / kHeight : v,
                                   normalized && !layered ? w / kDepth : w, 0});
    }
    Sampler s(context(), normalized, addressing, filter);
    const std::vector<float> got = sample(queue(), layered, image.get(), s, coords);
    for (size_t k = 0; k < pixel_coords.size() / 3; ++k) {
      const float u = pixel_coords[3 * k], v = pixel_coords[3 * k + 1], w = pixel_coords[3 * k + 2];
      const int x = addressed_pixel(u, kWidth, addressing), y = addressed_pixel(v, kHeight, addressing);
      int z;
      if (layered) {
        z = static_cast<int>(std::clamp(std::nearbyint(w), 0.0f, float(kDepth - 1)));
      } else {
        z = addressed_pixel(w, kDepth, addressing);
      }
      const bool border = x < 0 || y < 0 || z < 0 || x >= int(kWidth) || y >= int(kHeight) || z >= int(kDepth);
      const float expected = border ? 0.0f : value(x, y, z);
      ASSERT_NEAR(got[4 * k], expected, 1e-6f) << "normalized " << normalized << " addressing " << std::hex
                                               << addressing << std::dec << " at (" << u << ", " << v << ", " << w
                                               << ")";
    }
  });
}

// After each kind of write, a launch sampling the image reads what was written.
TEST_P(EachType, SampledReadsFollowEveryKindOfWrite) {
  const bool layered = GetParam();
  Mem image = image_of(layered, [](size_t, size_t, size_t) { return 0.0f; }, CL_MEM_READ_WRITE);
  ASSERT_EQ(pixel(layered, image.get(), 3, 2, 1), 0.0f);

  const size_t at[3] = {3, 2, 1}, one[3] = {1, 1, 1};
  const cl_float4 written = {{1.0f, 1.0f, 1.0f, 1.0f}};
  ASSERT_EQ(clEnqueueWriteImage(queue(), image.get(), CL_FALSE, at, one, 0, 0, &written, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(pixel(layered, image.get(), 3, 2, 1), 1.0f) << "clEnqueueWriteImage";

  const cl_float4 filled = {{2.0f, 2.0f, 2.0f, 2.0f}};
  const size_t box[3] = {4, 2, 2};
  ASSERT_EQ(clEnqueueFillImage(queue(), image.get(), &filled, at, box, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(pixel(layered, image.get(), 3, 2, 1), 2.0f) << "clEnqueueFillImage";
  EXPECT_EQ(pixel(layered, image.get(), 6, 3, 2), 2.0f) << "clEnqueueFillImage";

  Mem other = image_of(layered, [](size_t, size_t, size_t) { return 3.0f; });
  ASSERT_EQ(clEnqueueCopyImage(queue(), other.get(), image.get(), at, at, one, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(pixel(layered, image.get(), 3, 2, 1), 3.0f) << "clEnqueueCopyImage";

  const std::vector<float> four(4, 4.0f);
  DeviceBuffer buffer(context(), four.size() * sizeof(float), four.data());
  ASSERT_EQ(clEnqueueCopyBufferToImage(queue(), buffer.get(), image.get(), 0, at, one, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(pixel(layered, image.get(), 3, 2, 1), 4.0f) << "clEnqueueCopyBufferToImage";

  size_t row_pitch = 0, slice_pitch = 0;
  cl_int status = CL_OUT_OF_RESOURCES;
  auto* mapped = static_cast<float*>(clEnqueueMapImage(queue(), image.get(), CL_TRUE, CL_MAP_WRITE, at, one,
                                                        &row_pitch, &slice_pitch, 0, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  std::fill(mapped, mapped + 4, 5.0f);
  ASSERT_EQ(clEnqueueUnmapMemObject(queue(), image.get(), mapped, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(pixel(layered, image.get(), 3, 2, 1), 5.0f) << "map and unmap";

  cl_kernel write = program->kernel(layered ? "write_2d_array" : "write_3d");
  const cl_int4 where = {{3, 2, 1, 0}};
  const cl_float4 six = {{6.0f, 6.0f, 6.0f, 6.0f}};
  set_args(write, image.get(), where, six);
  run_1d(queue(), write, 1);
  EXPECT_EQ(pixel(layered, image.get(), 3, 2, 1), 6.0f) << "a kernel's write_imagef";
}

// A launch on one queue copies the pixels into the array; a launch on another queue that runs
// after a write made there copies again, and one that only reads waits for the other's copy.
TEST_P(EachType, LaunchesOnTwoQueuesReadTheLatestWrite) {
  const bool layered = GetParam();
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_command_queue second = clCreateCommandQueueWithProperties(context(), gpu, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  Mem image = image_of(layered, [](size_t x, size_t, size_t) { return float(x); }, CL_MEM_READ_WRITE);
  EXPECT_EQ(pixel(layered, image.get(), 7, 1, 2, queue()), 7.0f);
  EXPECT_EQ(pixel(layered, image.get(), 7, 1, 2, second), 7.0f);
  const size_t at[3] = {7, 1, 2}, one[3] = {1, 1, 1};
  const cl_float4 written = {{9.0f, 9.0f, 9.0f, 9.0f}};
  ASSERT_EQ(clEnqueueWriteImage(second, image.get(), CL_TRUE, at, one, 0, 0, &written, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(pixel(layered, image.get(), 7, 1, 2, queue()), 9.0f);
  EXPECT_EQ(pixel(layered, image.get(), 7, 1, 2, second), 9.0f);
  clReleaseCommandQueue(second);
}

// A command buffer whose kernel samples the image and whose next command writes it: the write
// counts after the sampling launch's copy, so a later launch reads what was written, and so
// does the buffer's own launch when it is enqueued again.
TEST_P(EachType, ACommandBufferThatSamplesThenWritesLeavesNoStaleCopy) {
  const bool layered = GetParam();
  if (!lists_extension(gpu, "cl_khr_command_buffer")) GTEST_SKIP() << "no cl_khr_command_buffer";
  const CommandBufferApi api = CommandBufferApi::load();
  Mem image = image_of(layered, [](size_t, size_t, size_t) { return 1.0f; }, CL_MEM_READ_WRITE);
  Mem source = image_of(layered, [](size_t, size_t, size_t) { return 8.0f; });
  Sampler nearest(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
  const std::vector<float> coords = {3.5f, 2.5f, layered ? 1.0f : 1.5f, 0};
  DeviceBuffer coord_buffer(context(), coords.size() * sizeof(float), coords.data());
  DeviceBuffer out(context(), 4 * sizeof(float));
  cl_kernel kernel = program->kernel(layered ? "sample_2d_array" : "sample_3d");
  set_args(kernel, image.get(), nearest.get(), coord_buffer.get(), out.get());

  cl_int status = CL_OUT_OF_RESOURCES;
  cl_command_queue q = queue();
  cl_command_buffer_khr buffer = api.create(1, &q, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const size_t global = 1, origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, kDepth};
  ASSERT_EQ(api.ndrange(buffer, nullptr, nullptr, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(api.copy_image(buffer, nullptr, nullptr, source.get(), image.get(), origin, origin, region, 0, nullptr,
                           nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);

  ASSERT_EQ(api.enqueue(1, &q, buffer, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<float>(queue(), out.get(), 4)[0], 1.0f) << "the buffer's launch, before its copy";
  EXPECT_EQ(pixel(layered, image.get(), 3, 2, 1), 8.0f) << "a launch after the buffer";

  const cl_float4 two = {{2.0f, 2.0f, 2.0f, 2.0f}};
  ASSERT_EQ(clEnqueueFillImage(queue(), image.get(), &two, origin, region, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(api.enqueue(1, &q, buffer, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<float>(queue(), out.get(), 4)[0], 2.0f) << "the buffer's launch, enqueued again";
  EXPECT_EQ(pixel(layered, image.get(), 3, 2, 1), 8.0f);
  api.release(buffer);
}

// In a context of the host device and the GPU, the host device's kernel writes the image and
// the GPU's kernel samples it, twice: the pixels the GPU receives count as writes, so its
// second launch copies them into the array again.
class MixedEachType : public MixedContextTest, public ::testing::WithParamInterface<bool> {};

TEST_P(MixedEachType, TheGpuSamplesWhatTheHostDevicesKernelWrote) {
  if (!supports_images(devices[0]) || !supports_images(devices[1])) GTEST_SKIP() << "a device has no images";
  const bool layered = GetParam();
  cl_int status = CL_OUT_OF_RESOURCES;
  const char* source = kSource;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  ASSERT_EQ(clBuildProgram(program, 2, devices.data(), "-cl-std=CL3.0", nullptr, nullptr), CL_SUCCESS);
  cl_kernel write = clCreateKernel(program, layered ? "write_2d_array" : "write_3d", &status);
  cl_kernel sample = clCreateKernel(program, layered ? "sample_2d_array" : "sample_3d", &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const cl_image_desc desc = layered ? image_desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, kWidth, kHeight, 1, kDepth)
                                     : image_desc(CL_MEM_OBJECT_IMAGE3D, kWidth, kHeight, kDepth);
  Mem image = make_image(context, CL_MEM_READ_WRITE, kFloat4, desc);
  Sampler nearest(context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
  const std::vector<float> coords = {3.5f, 2.5f, layered ? 1.0f : 1.5f, 0};
  DeviceBuffer coord_buffer(context, coords.size() * sizeof(float), coords.data());
  DeviceBuffer out(context, 4 * sizeof(float));
  set_args(sample, image.get(), nearest.get(), coord_buffer.get(), out.get());
  const cl_int4 where = {{3, 2, 1, 0}};
  for (float value : {7.0f, 11.0f}) {
    const cl_float4 pixel = {{value, value, value, value}};
    set_args(write, image.get(), where, pixel);
    run_1d(host_queue(), write, 1);
    run_1d(gpu_queue(), sample, 1);
    EXPECT_EQ(read_buffer<float>(gpu_queue(), out.get(), 4)[0], value);
  }
  clReleaseKernel(write);
  clReleaseKernel(sample);
  clReleaseProgram(program);
}

// The parameter's name in test names: whether the image is a 2D array (else 3D).
std::string image_kind_name(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "Image2DArray" : "Image3D";
}

INSTANTIATE_TEST_SUITE_P(ThreeDAndTwoDArray, MixedEachType, ::testing::Bool(), image_kind_name);

INSTANTIATE_TEST_SUITE_P(ThreeDAndTwoDArray, EachType, ::testing::Bool(), image_kind_name);

}  // namespace

// Sampled reads of 2D images on the GPU go through the texture unit (backends/cuda/
// cuda_image_sampling.cpp) where the image's format, pitch and the sampler state allow, and
// through the software sampler otherwise; both give OpenCL's results. The texture path is
// recognised by the texture unit's linear filter, whose weights have 8 fractional bits (CUDA
// programming guide, "Texture Fetching"), where the software filter's are exact.
#include <cmath>
#include <cstdlib>
#include <deque>
#include <random>

#include "image_test_helpers.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;
using namespace image_test;

namespace {

// Sets CUCL_GPU_TEXTURES for as long as it lives (read when a kernel first uses an image).
class TextureSetting {
 public:
  explicit TextureSetting(const char* value) { setenv("CUCL_GPU_TEXTURES", value, 1); }
  ~TextureSetting() { unsetenv("CUCL_GPU_TEXTURES"); }
  TextureSetting(const TextureSetting&) = delete;
  TextureSetting& operator=(const TextureSetting&) = delete;
};

const char* kSampleTwoSource = R"(
    kernel void sample_two(read_only image2d_t a, read_only image2d_t b, sampler_t s, float2 at, global float4* out) {
      out[0] = read_imagef(a, s, at);
      out[1] = read_imagef(b, s, at);
    })";

constexpr size_t kWidth = 64, kHeight = 16;  // rows of 256 bytes and more: a texture's pitch

class CudaImageTextures : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!supports_images(gpu)) GTEST_SKIP() << "the GPU reports no images";
    program = std::make_unique<BuiltProgram>(*env, kSampleAtCoordinatesSource + kSampleTwoSource);
    ASSERT_TRUE(*program);
  }
  // What `kernel` reads from `image` at each (s, t) of `coords` through `s`, 4 values each.
  template <class T>
  std::vector<T> sample(const char* kernel_name, cl_mem image, const Sampler& s, const std::vector<float>& coords) {
    return sample_at<T>(context(), queue(), program->kernel(kernel_name), image, s.get(), coords);
  }
  std::vector<float> sample_f(cl_mem image, const Sampler& s, const std::vector<float>& coords) {
    return sample<float>("sample_f", image, s, coords);
  }
  // A 2-pixel-wide float image whose rows go from 0 to 1: the linear filter's value between
  // the two pixel centres is its weight.
  Mem ramp(size_t width) {
    std::vector<float> pixels(width * kHeight * 4, 0.0f);
    for (size_t y = 0; y < kHeight; ++y) {
      for (size_t c = 0; c < 4; ++c) pixels[(y * width + 1) * 4 + c] = 1.0f;
    }
    return make_image(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, {CL_RGBA, CL_FLOAT},
                      image_desc(CL_MEM_OBJECT_IMAGE2D, width, kHeight), pixels.data());
  }
  // The same on the application's memory (CL_MEM_USE_HOST_PTR), kept by the fixture: rows at
  // the application's pitch, which a texture cannot read when it is not a texture pitch.
  Mem ramp_in_application_memory(size_t width) {
    std::vector<float>& pixels = application_memory.emplace_back(width * kHeight * 4, 0.0f);
    for (size_t y = 0; y < kHeight; ++y) {
      for (size_t c = 0; c < 4; ++c) pixels[(y * width + 1) * 4 + c] = 1.0f;
    }
    return make_image(context(), CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, {CL_RGBA, CL_FLOAT},
                      image_desc(CL_MEM_OBJECT_IMAGE2D, width, kHeight), pixels.data());
  }

  std::deque<std::vector<float>> application_memory;

  std::unique_ptr<BuiltProgram> program;
};

// Unnormalized x between the centres of pixels 0 and 1 whose weight is not a multiple of 1/256.
constexpr float kBetweenCentres = 0.5f + 0.3f + 1.0f / 1024;
constexpr float kExactWeight = 0.3f + 1.0f / 1024;

TEST_F(CudaImageTextures, LinearReadsOfATextureImageTakeTheTextureUnitsWeights) {
  Mem image = ramp(kWidth);  // 1 KiB rows, on a fresh allocation
  Sampler linear(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  const std::vector<float> got = sample_f(image.get(), linear, {kBetweenCentres, 3.5f});
  const float quantized = std::round(kExactWeight * 256) / 256;
  EXPECT_NEAR(got[0], quantized, 1e-6f) << "not the texture unit's 8-bit weight (exact: " << kExactWeight << ")";
}

TEST_F(CudaImageTextures, TexturesOffSampleInSoftwareWithExactWeights) {
  TextureSetting off("0");
  Mem image = ramp(kWidth);
  Sampler linear(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  const std::vector<float> got = sample_f(image.get(), linear, {kBetweenCentres, 3.5f});
  EXPECT_NEAR(got[0], kExactWeight, 1e-6f);
}

TEST_F(CudaImageTextures, ImagesATextureCannotHoldSampleInSoftware) {
  Mem odd = ramp_in_application_memory(5);  // 80-byte rows: not a texture pitch
  Sampler linear(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  EXPECT_NEAR(sample_f(odd.get(), linear, {kBetweenCentres, 3.5f})[0], kExactWeight, 1e-6f);
}

// An image whose storage is its own gets texture-pitched rows whatever its width.
TEST_F(CudaImageTextures, CopiedImagesOfAnyWidthSampleThroughTextures) {
  Mem odd = ramp(5);  // 80-byte rows in the application's memory, padded in the image
  Sampler linear(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  EXPECT_NEAR(sample_f(odd.get(), linear, {kBetweenCentres, 3.5f})[0], std::round(kExactWeight * 256) / 256, 1e-6f);
}

// CLK_ADDRESS_CLAMP with unnormalized coordinates is CUDA's border mode: the texture unit
// filters (8-bit weights) and gives the border of CL_RGBA, transparent black.
TEST_F(CudaImageTextures, UnnormalizedClampTakesTheTextureUnitsBorder) {
  Mem image = ramp(kWidth);
  Sampler border(context(), CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR);
  const std::vector<float> got = sample_f(image.get(), border, {kBetweenCentres, 3.5f, -0.25f, 3.5f});
  EXPECT_NEAR(got[0], std::round(kExactWeight * 256) / 256, 1e-6f);
  EXPECT_NEAR(got[4], 0.0f, 1e-6f) << "the border of CL_RGBA is transparent black";
}

// A launch takes the kernel's textured code (no software sampler) only where every image it
// samples has textures: with one image in software, both images read right.
TEST_F(CudaImageTextures, AKernelSamplingOneSoftwareImageReadsBothRight) {
  Mem texture = ramp(kWidth), software = ramp_in_application_memory(5);  // 80-byte rows: not a texture pitch
  Sampler linear(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  const float quantized = std::round(kExactWeight * 256) / 256;
  auto sample_two = [&](cl_mem a, cl_mem b) {
    DeviceBuffer out(context(), 2 * 4 * sizeof(float));
    cl_kernel kernel = program->kernel("sample_two");
    const cl_float2 at = {{kBetweenCentres, 3.5f}};
    set_args(kernel, a, b, linear.get(), at, out.get());
    run_1d(queue(), kernel, 1);
    return read_buffer<float>(queue(), out.get(), 8);
  };
  std::vector<float> got = sample_two(texture.get(), software.get());
  EXPECT_NEAR(got[0], quantized, 1e-6f);
  EXPECT_NEAR(got[4], kExactWeight, 1e-6f);
  got = sample_two(software.get(), texture.get());
  EXPECT_NEAR(got[0], kExactWeight, 1e-6f);
  EXPECT_NEAR(got[4], quantized, 1e-6f);
  got = sample_two(texture.get(), texture.get());  // the textured code
  EXPECT_NEAR(got[0], quantized, 1e-6f);
  EXPECT_NEAR(got[4], quantized, 1e-6f);
}

// Every sampler state on an RGBA8 texture image: the nearest pixel exactly (coordinates kept
// away from pixel edges, where a texture unit's fixed-point coordinates may round the other
// way), the linear filter within its 8-bit weights.
TEST_F(CudaImageTextures, EverySamplerStateReadsWhatTheSpecificationSays) {
  std::vector<cl_uchar> bytes(kWidth * kHeight * 4);
  std::mt19937 random(11);
  for (cl_uchar& byte : bytes) byte = static_cast<cl_uchar>(random() & 255);
  Mem image = make_image(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, {CL_RGBA, CL_UNORM_INT8},
                         image_desc(CL_MEM_OBJECT_IMAGE2D, kWidth, kHeight), bytes.data());
  auto texel = [&](int x, int y, int c) -> float {
    if (x < 0 || y < 0 || x >= static_cast<int>(kWidth) || y >= static_cast<int>(kHeight)) return 0.0f;
    return bytes[(static_cast<size_t>(y) * kWidth + x) * 4 + c] / 255.0f;
  };
  for_each_defined_sampler_state([&](cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
    const bool linear = filter == CL_FILTER_LINEAR;
    // Pixel coordinates u = k + 0.3 or k + 0.7 (never near an edge or a centre), across
    // the image and, except for NONE, past it.
    std::vector<float> coords, pixel_coords;
    const int from = addressing == CL_ADDRESS_NONE ? 1 : -5, to = addressing == CL_ADDRESS_NONE ? 60 : 70;
    for (int k = from; k < to; k += 3) {
      const float u = k + (k % 2 ? 0.3f : 0.7f), v = (k % 13) + 0.3f;
      pixel_coords.insert(pixel_coords.end(), {u, v});
      coords.insert(coords.end(), {normalized ? u / kWidth : u, normalized ? v / kHeight : v});
    }
    Sampler s(context(), normalized, addressing, filter);
    const std::vector<float> got = sample_f(image.get(), s, coords);
    auto index = [&](float u, int size) { return addressed_pixel(u, size, addressing); };
    for (size_t k = 0; k < pixel_coords.size() / 2; ++k) {
      const float u = pixel_coords[2 * k], v = pixel_coords[2 * k + 1];
      for (int c = 0; c < 4; ++c) {
        float expected;
        if (!linear) {
          expected = texel(index(u, kWidth), index(v, kHeight), c);
        } else {
          const float a = u - 0.5f - std::floor(u - 0.5f), b = v - 0.5f - std::floor(v - 0.5f);
          const float u0 = std::floor(u - 0.5f) + 0.5f, v0 = std::floor(v - 0.5f) + 0.5f;
          const int x0 = index(u0, kWidth), x1 = index(u0 + 1, kWidth);
          const int y0 = index(v0, kHeight), y1 = index(v0 + 1, kHeight);
          expected = (1 - a) * (1 - b) * texel(x0, y0, c) + a * (1 - b) * texel(x1, y0, c) +
                     (1 - a) * b * texel(x0, y1, c) + a * b * texel(x1, y1, c);
        }
        ASSERT_NEAR(got[k * 4 + c], expected, linear ? 2.0f / 256 : 1e-6f)
            << "pixel coordinate (" << u << ", " << v << ") channel " << c;
      }
    }
  });
}

TEST_F(CudaImageTextures, IntegerFormatsReadTheirValuesThroughTextures) {
  std::vector<cl_uint> values(kWidth * kHeight * 4);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<cl_uint>(i * 2654435761u);
  std::vector<float> coords, pixel_coords;
  for (int k = -3; k < 70; k += 5) {
    coords.insert(coords.end(), {k + 0.6f, (k & 15) + 0.4f});
  }
  Sampler nearest(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
  auto expected = [&](size_t k, int c, int bits, bool is_signed) -> int64_t {
    const int x = std::clamp(static_cast<int>(std::floor(coords[2 * k])), 0, static_cast<int>(kWidth) - 1);
    const int y = static_cast<int>(std::floor(coords[2 * k + 1]));
    const uint64_t raw = values[(static_cast<size_t>(y) * kWidth + x) * 4 + c] & ((uint64_t{1} << bits) - 1);
    if (!is_signed || !(raw >> (bits - 1))) return static_cast<int64_t>(raw);
    return static_cast<int64_t>(raw) - (int64_t{1} << bits);
  };
  for (int bits : {8, 16, 32}) {
    for (bool is_signed : {false, true}) {
      SCOPED_TRACE(testing::Message() << bits << "-bit " << (is_signed ? "signed" : "unsigned"));
      const cl_channel_type type = is_signed ? (bits == 8 ? CL_SIGNED_INT8 : bits == 16 ? CL_SIGNED_INT16 : CL_SIGNED_INT32)
                                             : (bits == 8 ? CL_UNSIGNED_INT8 : bits == 16 ? CL_UNSIGNED_INT16
                                                                                          : CL_UNSIGNED_INT32);
      std::vector<uint8_t> pixels(kWidth * kHeight * 4 * bits / 8);
      for (size_t i = 0; i < values.size(); ++i) std::memcpy(&pixels[i * bits / 8], &values[i], bits / 8);
      Mem image = make_image(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, {CL_RGBA, type},
                             image_desc(CL_MEM_OBJECT_IMAGE2D, kWidth, kHeight), pixels.data());
      if (is_signed) {
        const auto got = sample<cl_int>("sample_i", image.get(), nearest, coords);
        for (size_t k = 0; k < coords.size() / 2; ++k) {
          for (int c = 0; c < 4; ++c) ASSERT_EQ(got[k * 4 + c], expected(k, c, bits, true)) << "read " << k;
        }
      } else {
        const auto got = sample<cl_uint>("sample_ui", image.get(), nearest, coords);
        for (size_t k = 0; k < coords.size() / 2; ++k) {
          for (int c = 0; c < 4; ++c) ASSERT_EQ(got[k * 4 + c], expected(k, c, bits, false)) << "read " << k;
        }
      }
    }
  }
}

// Each image's textures go with it: many images made, sampled and released in turn.
TEST_F(CudaImageTextures, ReleasedImagesGiveTheirTexturesBack) {
  Sampler linear(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
  for (int i = 0; i < 300; ++i) {
    Mem image = ramp(kWidth);
    const std::vector<float> got = sample_f(image.get(), linear, {kBetweenCentres, 3.5f});
    ASSERT_NEAR(got[0], std::round(kExactWeight * 256) / 256, 1e-6f) << "image " << i;
  }
}

}  // namespace

// Sampled reads of 2D images in every channel order on the GPU: the texture unit holds the
// channels as they lie in memory and the builtins place them as the order says
// (backends/cuda/cuda_texture_formats.h, libclc-builtins/src/image_sample.cl), which must give
// what the host device's software sampler gives, inside the image, across its edges and in
// CL_ADDRESS_CLAMP's border. Formats the texture unit cannot read (SNORM, packed) stay in
// software. The path a read took shows in the linear filter's weight, 8 fractional bits on the
// texture unit and exact in software (as in test_cuda_image_textures.cpp).
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "image_test_helpers.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;
using namespace image_test;

namespace {

// Rows of at least 256 bytes in every format: a texture's pitch.
constexpr size_t kWidth = 256, kHeight = 8;

struct FormatCase {
  cl_channel_order order;
  cl_channel_type type;
  const char* name;
};

void PrintTo(const FormatCase& format, std::ostream* out) { *out << format.name; }

bool is_srgb(cl_channel_order order) { return order == CL_sRGBA || order == CL_sBGRA; }

size_t channels_in_memory(cl_channel_order order) {
  switch (order) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: return 1;
    case CL_RG: case CL_RA: return 2;
    default: return 4;
  }
}

size_t pixel_size(const FormatCase& format) {
  if (format.type == CL_UNORM_SHORT_565) return 2;
  return channels_in_memory(format.order) * (format.type == CL_FLOAT ? 4 : 1);
}

// Random pixels; FLOAT channels in [0, 1], as normalized ones read.
std::vector<uint8_t> random_pixels(const FormatCase& format, uint32_t seed) {
  std::vector<uint8_t> bytes(kWidth * kHeight * pixel_size(format));
  std::mt19937 random(seed);
  if (format.type != CL_FLOAT) {
    for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(random() & 255);
    return bytes;
  }
  for (size_t at = 0; at < bytes.size(); at += sizeof(float)) {
    const float value = static_cast<float>(random() % 1001) / 1000.0f;
    std::memcpy(&bytes[at], &value, sizeof value);
  }
  return bytes;
}

// Every channel of pixel (1, y) at the format's largest value, every other pixel 0: a linear
// read between the centres of pixels 0 and 1 gives its weight in each channel the image has.
std::vector<uint8_t> ramp_pixels(const FormatCase& format) {
  const size_t size = pixel_size(format);
  std::vector<uint8_t> bytes(kWidth * kHeight * size, 0);
  for (size_t y = 0; y < kHeight; ++y) {
    uint8_t* pixel = &bytes[(y * kWidth + 1) * size];
    for (size_t at = 0; at < size; at += format.type == CL_FLOAT ? sizeof(float) : 1) {
      const float one = 1.0f;
      if (format.type == CL_FLOAT) std::memcpy(pixel + at, &one, sizeof one);
      else pixel[at] = format.type == CL_SNORM_INT8 ? 0x7f : 0xff;
    }
  }
  return bytes;
}

// The (r, g, b, a) of a pixel whose every channel reads v (OpenCL C, "Mapping Image Channels to
// Color Values").
std::array<float, 4> placed(cl_channel_order order, float v) {
  switch (order) {
    case CL_R: return {v, 0, 0, 1};
    case CL_RG: return {v, v, 0, 1};
    case CL_RA: return {v, 0, 0, v};
    case CL_A: return {0, 0, 0, v};
    case CL_RGB: case CL_LUMINANCE: return {v, v, v, 1};
    default: return {v, v, v, v};  // INTENSITY and the 4-channel orders
  }
}

float linear_to_srgb(float c) { return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1 / 2.4f) - 0.055f; }

struct SamplerState {
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
};

// CLAMP's border, CLAMP_TO_EDGE's edges, REPEAT's wrap (normalized coordinates only).
const SamplerState kStates[] = {
    {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST},        {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR},
    {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST}, {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR},
    {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST},         {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR},
};

// Pixel coordinates k + 0.3 or k + 0.7, away from pixel edges and centres (where a texture
// unit's fixed-point coordinates may round the other way), across the image and up to 5
// pixels past each side; as s, t for `state`.
std::vector<float> coordinates(const SamplerState& state) {
  std::vector<float> coords;
  for (int k = -5; k < static_cast<int>(kWidth) + 5; k += 3) {
    const float fraction = k % 2 ? 0.3f : 0.7f;
    const float u = k + fraction, v = (k + 11) % 11 - 2 + fraction;  // -1.7 to 8.7: rows 0-7 and past both ends
    coords.insert(coords.end(), {state.normalized ? u / kWidth : u, state.normalized ? v / kHeight : v});
  }
  return coords;
}

// A device's context, queue and sampling kernels.
struct SamplingDevice {
  explicit SamplingDevice(cl_device_id device) : env(device), program(env, kSampleAtCoordinatesSource) {}

  Mem image(const FormatCase& format, std::vector<uint8_t> pixels) const {
    return make_image(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, {format.order, format.type},
                      image_desc(CL_MEM_OBJECT_IMAGE2D, kWidth, kHeight), pixels.data());
  }
  template <class T>
  std::vector<T> sample(const char* kernel, cl_mem image, const SamplerState& state, const std::vector<float>& coords) {
    Sampler sampler(env.context, state.normalized, state.addressing, state.filter);
    return sample_at<T>(env.context, env.queue, program.kernel(kernel), image, sampler.get(), coords);
  }

  Env env;
  BuiltProgram program;
};

class CudaImageTextureOrders : public ::testing::TestWithParam<FormatCase> {
 protected:
  void SetUp() override {
    const cl_device_id device = first_gpu();
    CUCL_REQUIRE_GPU(device);
    if (!supports_images(device) || !supports_images(host_device())) GTEST_SKIP() << "a device reports no images";
    gpu = std::make_unique<SamplingDevice>(device);
    host = std::make_unique<SamplingDevice>(host_device());
    ASSERT_TRUE(gpu->program && host->program);
  }
  const FormatCase& format() const { return GetParam(); }

  std::unique_ptr<SamplingDevice> gpu, host;
};

// read_imagef within what the texture unit may differ by: nothing for the nearest pixel but
// sRGB's decoding (within 0.5 of the stored byte, the environment spec's accuracy), and the
// linear filter's 8-bit weights on values in [0, 1] (sRGB filters in software).
::testing::AssertionResult close_enough(float gpu, float host, bool linear, bool srgb_colour) {
  bool close;
  if (!linear && srgb_colour) close = std::fabs(255 * (linear_to_srgb(gpu) - linear_to_srgb(host))) <= 0.5f + 1e-3f;
  else close = std::fabs(gpu - host) <= (!linear ? 1e-6f : 2.0f / 256);
  if (close) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "GPU " << gpu << ", host " << host;
}

TEST_P(CudaImageTextureOrders, ReadsMatchTheHostDevice) {
  const std::vector<uint8_t> pixels = random_pixels(format(), 7);
  const Mem on_gpu = gpu->image(format(), pixels), on_host = host->image(format(), pixels);
  const bool integer = format().type == CL_UNSIGNED_INT8;
  for (const SamplerState& state : kStates) {
    const bool linear = state.filter == CL_FILTER_LINEAR;
    if (integer && linear) continue;  // read_imageui takes the nearest pixel only
    SCOPED_TRACE(testing::Message() << "normalized " << state.normalized << " addressing 0x" << std::hex
                                    << state.addressing << " filter 0x" << state.filter);
    const std::vector<float> coords = coordinates(state);
    if (integer) {
      const auto got = gpu->sample<cl_uint>("sample_ui", on_gpu.get(), state, coords);
      const auto expected = host->sample<cl_uint>("sample_ui", on_host.get(), state, coords);
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i], expected[i]) << "at (" << coords[i / 4 * 2] << ", " << coords[i / 4 * 2 + 1]
                                       << ") channel " << i % 4;
      }
      continue;
    }
    const auto got = gpu->sample<float>("sample_f", on_gpu.get(), state, coords);
    const auto expected = host->sample<float>("sample_f", on_host.get(), state, coords);
    for (size_t i = 0; i < got.size(); ++i) {
      const bool srgb_colour = is_srgb(format().order) && i % 4 != 3;
      ASSERT_TRUE(close_enough(got[i], expected[i], linear, srgb_colour))
          << "at (" << coords[i / 4 * 2] << ", " << coords[i / 4 * 2 + 1] << ") channel " << i % 4;
    }
  }
}

// The float formats: read_imagef between two pixel centres shows which path sampled.
class CudaImageTexturePaths : public CudaImageTextureOrders {
 protected:
  std::array<float, 4> read_between_centres() {
    const Mem image = gpu->image(format(), ramp_pixels(format()));
    const SamplerState linear{CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR};
    const auto got = gpu->sample<float>("sample_f", image.get(), linear, {0.5f + kWeight, 3.5f});
    return {got[0], got[1], got[2], got[3]};
  }
  static constexpr float kWeight = 0.3f + 1.0f / 1024;  // not a multiple of 1/256
  // Well inside the 2e-4 between kWeight and the texture unit's weight.
  static constexpr float kTolerance = 2e-5f;
};

class CudaImageTexturesServeTheOrder : public CudaImageTexturePaths {};
class CudaImageTexturesLeaveTheFormatToSoftware : public CudaImageTexturePaths {};

TEST_P(CudaImageTexturesServeTheOrder, LinearReadsTakeTheTextureUnitsWeights) {
  const std::array<float, 4> expected = placed(format().order, std::round(kWeight * 256) / 256);
  const std::array<float, 4> got = read_between_centres();
  for (int c = 0; c < 4; ++c) {
    EXPECT_NEAR(got[c], expected[c], kTolerance) << "channel " << c << " (software: " << placed(format().order, kWeight)[c] << ")";
  }
}

TEST_P(CudaImageTexturesLeaveTheFormatToSoftware, LinearReadsTakeExactWeights) {
  const std::array<float, 4> expected = placed(format().order, kWeight);
  const std::array<float, 4> got = read_between_centres();
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[c], expected[c], kTolerance) << "channel " << c;
}

#define FORMAT(order, type) FormatCase{CL_##order, CL_##type, #order "_" #type}

const FormatCase kTextureFloatFormats[] = {
    FORMAT(R, UNORM_INT8),         FORMAT(R, FLOAT),         FORMAT(RG, UNORM_INT8),   FORMAT(RG, FLOAT),
    FORMAT(RA, UNORM_INT8),        FORMAT(RA, FLOAT),        FORMAT(A, UNORM_INT8),    FORMAT(A, FLOAT),
    FORMAT(INTENSITY, UNORM_INT8), FORMAT(INTENSITY, FLOAT), FORMAT(LUMINANCE, UNORM_INT8),
    FORMAT(LUMINANCE, FLOAT),      FORMAT(BGRA, UNORM_INT8), FORMAT(ARGB, UNORM_INT8), FORMAT(ABGR, UNORM_INT8),
    FORMAT(RGBA, UNORM_INT8),      FORMAT(RGBA, FLOAT),
};
// Textures read their nearest pixel; their linear filter is software's.
const FormatCase kTextureNearestFormats[] = {FORMAT(sRGBA, UNORM_INT8), FORMAT(sBGRA, UNORM_INT8)};
const FormatCase kTextureIntegerFormats[] = {
    FORMAT(R, UNSIGNED_INT8),    FORMAT(RG, UNSIGNED_INT8),   FORMAT(RA, UNSIGNED_INT8),
    FORMAT(A, UNSIGNED_INT8),    FORMAT(BGRA, UNSIGNED_INT8), FORMAT(ARGB, UNSIGNED_INT8),
    FORMAT(ABGR, UNSIGNED_INT8), FORMAT(RGBA, UNSIGNED_INT8),
};
const FormatCase kSoftwareFormats[] = {
    FORMAT(R, SNORM_INT8), FORMAT(LUMINANCE, SNORM_INT8), FORMAT(RGB, UNORM_SHORT_565),
};

std::string format_name(const ::testing::TestParamInfo<FormatCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(TextureFloat, CudaImageTextureOrders, ::testing::ValuesIn(kTextureFloatFormats), format_name);
INSTANTIATE_TEST_SUITE_P(TextureNearest, CudaImageTextureOrders, ::testing::ValuesIn(kTextureNearestFormats),
                         format_name);
INSTANTIATE_TEST_SUITE_P(TextureInteger, CudaImageTextureOrders, ::testing::ValuesIn(kTextureIntegerFormats),
                         format_name);
INSTANTIATE_TEST_SUITE_P(Software, CudaImageTextureOrders, ::testing::ValuesIn(kSoftwareFormats), format_name);
INSTANTIATE_TEST_SUITE_P(TextureFloat, CudaImageTexturesServeTheOrder, ::testing::ValuesIn(kTextureFloatFormats),
                         format_name);
INSTANTIATE_TEST_SUITE_P(Software, CudaImageTexturesLeaveTheFormatToSoftware, ::testing::ValuesIn(kSoftwareFormats),
                         format_name);
INSTANTIATE_TEST_SUITE_P(TextureNearest, CudaImageTexturesLeaveTheFormatToSoftware,
                         ::testing::ValuesIn(kTextureNearestFormats), format_name);

}  // namespace

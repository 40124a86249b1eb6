// 1D images and 1D arrays are sampled through the texture unit too (backends/cuda/
// cuda_image_sampling.cpp): a 1D image as a texture of one row, a 1D array with its layers as
// rows, each layer read at its row's centre. As in test_cuda_image_textures.cpp the texture path
// is recognised by the linear filter's 8-bit weights; a layer read beside its neighbours would
// show their values.
#include <cmath>
#include <random>

#include "image_test_helpers.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;
using namespace image_test;

namespace {

// Each takes (x, layer) pairs, as sample_at passes them; the 1D kernel reads x alone.
const char* kSample1dSource = R"(
    kernel void sample_1d(read_only image1d_t image, sampler_t s, global const float2* coords, global float4* out) {
      size_t i = get_global_id(0);
      out[i] = read_imagef(image, s, coords[i].x);
    }
    kernel void sample_1d_array(read_only image1d_array_t image, sampler_t s, global const float2* coords,
                                global float4* out) {
      size_t i = get_global_id(0);
      out[i] = read_imagef(image, s, coords[i]);
    })";

constexpr size_t kWidth = 64, kLayers = 5;  // 1 KiB float rows, 256-byte RGBA8 rows: texture pitches
// Unnormalized x between the centres of pixels 0 and 1, whose weight is not a multiple of 1/256.
constexpr float kBetweenCentres = 0.5f + 0.3f + 1.0f / 1024;
constexpr float kExactWeight = 0.3f + 1.0f / 1024;
const float kQuantizedWeight = std::round(kExactWeight * 256) / 256;

class CudaImageTextures1d : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!supports_images(gpu)) GTEST_SKIP() << "the GPU reports no images";
    program = std::make_unique<BuiltProgram>(*env, kSample1dSource);
    ASSERT_TRUE(*program);
  }
  std::vector<float> sample(const char* kernel, cl_mem image, const Sampler& s, const std::vector<float>& coords) {
    return sample_at<float>(context(), queue(), program->kernel(kernel), image, s.get(), coords);
  }
  // RGBA float rows, layer l holding l + 1 at pixel 1 and 0 elsewhere: the linear filter's value
  // between the first two centres is (l + 1) times its weight.
  Mem ramps(cl_mem_object_type type, size_t layers) {
    std::vector<float> pixels(kWidth * layers * 4, 0.0f);
    for (size_t l = 0; l < layers; ++l) {
      for (size_t c = 0; c < 4; ++c) pixels[(l * kWidth + 1) * 4 + c] = static_cast<float>(l + 1);
    }
    return make_image(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, {CL_RGBA, CL_FLOAT},
                      image_desc(type, kWidth, 1, 1, layers), pixels.data());
  }

  std::unique_ptr<BuiltProgram> program;
};

TEST_F(CudaImageTextures1d, OneDimensionalImagesTakeTheTextureUnitsWeights) {
  Mem image = ramps(CL_MEM_OBJECT_IMAGE1D, 1);
  for (cl_bool normalized : {CL_FALSE, CL_TRUE}) {
    for (cl_addressing_mode addressing : {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP}) {
      SCOPED_TRACE(testing::Message() << "normalized " << normalized << " addressing 0x" << std::hex << addressing);
      Sampler linear(context(), normalized, addressing, CL_FILTER_LINEAR);
      const float x = normalized ? kBetweenCentres / kWidth : kBetweenCentres;
      const std::vector<float> got = sample("sample_1d", image.get(), linear, {x, 0.0f, normalized ? 2.5f / kWidth : 2.5f, 0.0f});
      EXPECT_NEAR(got[0], kQuantizedWeight, 1e-6f) << "not the texture unit's 8-bit weight (exact: " << kExactWeight << ")";
      EXPECT_NEAR(got[4], 0.0f, 1e-6f);
    }
  }
}

// The layer is clamp(rint(layer), 0, layers - 1) with either kind of coordinates, and the
// linear filter weighs no other layer.
TEST_F(CudaImageTextures1d, ArraysReadTheRoundedLayerAlone) {
  Mem image = ramps(CL_MEM_OBJECT_IMAGE1D_ARRAY, kLayers);
  const std::vector<std::pair<float, int>> layers = {{-3.0f, 0}, {0.4f, 0}, {1.5f, 2}, {2.5f, 2}, {2.51f, 3},
                                                     {3.49f, 3}, {4.0f, 4}, {9.0f, 4}, {NAN, 0}};
  for (cl_bool normalized : {CL_FALSE, CL_TRUE}) {
    for (cl_addressing_mode addressing : {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT}) {
      if (addressing == CL_ADDRESS_REPEAT && !normalized) continue;  // undefined
      SCOPED_TRACE(testing::Message() << "normalized " << normalized << " addressing 0x" << std::hex << addressing);
      Sampler linear(context(), normalized, addressing, CL_FILTER_LINEAR);
      std::vector<float> coords;
      for (const auto& [layer, _] : layers) coords.insert(coords.end(), {normalized ? kBetweenCentres / kWidth : kBetweenCentres, layer});
      const std::vector<float> got = sample("sample_1d_array", image.get(), linear, coords);
      for (size_t k = 0; k < layers.size(); ++k) {
        EXPECT_NEAR(got[4 * k], (layers[k].second + 1) * kQuantizedWeight, 1e-5f) << "layer coordinate " << layers[k].first;
      }
    }
  }
}

// Every sampler state on an RGBA8 1D array through textures: the nearest pixel exactly
// (coordinates kept away from pixel edges, where fixed-point coordinates may round the other
// way), the linear filter within its 8-bit weights, each from its own layer.
TEST_F(CudaImageTextures1d, EverySamplerStateReadsWhatTheSpecificationSays) {
  std::vector<cl_uchar> bytes(kWidth * kLayers * 4);
  std::mt19937 random(5);
  for (cl_uchar& byte : bytes) byte = static_cast<cl_uchar>(random() & 255);
  Mem image = make_image(context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, {CL_RGBA, CL_UNORM_INT8},
                         image_desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, kWidth, 1, 1, kLayers), bytes.data());
  auto texel = [&](int x, int layer, int c) -> float {
    if (x < 0 || x >= static_cast<int>(kWidth)) return 0.0f;
    return bytes[(static_cast<size_t>(layer) * kWidth + x) * 4 + c] / 255.0f;
  };
  for_each_defined_sampler_state([&](cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
    const bool linear = filter == CL_FILTER_LINEAR;
    std::vector<float> coords, pixel_coords;
    const int from = addressing == CL_ADDRESS_NONE ? 1 : -5, to = addressing == CL_ADDRESS_NONE ? 60 : 70;
    for (int k = from; k < to; k += 3) {
      const float u = k + (k % 2 ? 0.3f : 0.7f);
      const float layer = static_cast<float>(((k % kLayers) + kLayers) % kLayers);
      pixel_coords.insert(pixel_coords.end(), {u, layer});
      coords.insert(coords.end(), {normalized ? u / kWidth : u, layer});
    }
    Sampler s(context(), normalized, addressing, filter);
    const std::vector<float> got = sample("sample_1d_array", image.get(), s, coords);
    auto index = [&](float u) { return addressed_pixel(u, static_cast<int>(kWidth), addressing); };
    for (size_t k = 0; k < pixel_coords.size() / 2; ++k) {
      const float u = pixel_coords[2 * k];
      const int layer = static_cast<int>(pixel_coords[2 * k + 1]);
      for (int c = 0; c < 4; ++c) {
        float expected;
        if (!linear) {
          expected = texel(index(u), layer, c);
        } else {
          const float a = u - 0.5f - std::floor(u - 0.5f), u0 = std::floor(u - 0.5f) + 0.5f;
          expected = (1 - a) * texel(index(u0), layer, c) + a * texel(index(u0 + 1), layer, c);
        }
        ASSERT_NEAR(got[k * 4 + c], expected, linear ? 2.0f / 256 : 1e-6f)
            << "pixel coordinate " << u << " layer " << layer << " channel " << c;
      }
    }
  });
}

}  // namespace

// write_imagef to normalized formats rounds x * scale to the nearest integer, ties to even,
// after clamping (NaN writes 0), on the exact product. The GPU converts in float and decides
// halfway products by their rounding error (libclc-builtins/include/image_format.h), the host
// device in double: both are checked against the exact product at every halfway point of each
// format, the floats around it, and the values past the ends.
#include <cmath>
#include <cstring>
#include <limits>

#include "image_test_helpers.h"
#include "support/kernel_support.h"

using namespace cucl_test;
using namespace image_test;

namespace {

constexpr size_t kRowPixels = 1024;

struct NormalizedFormat {
  cl_image_format format;
  double scale, lo, hi;  // the channel's integer range
  size_t channel_bytes;
  bool is_signed;
};

// Each halfway point (k + 0.5) / scale, as the float nearest it and the 3 floats each side,
// for k over the format's range; then values outside [lo, hi] / scale, zeros and NaN.
std::vector<float> values_around_halfway_points(const NormalizedFormat& f) {
  std::vector<float> values;
  for (double k = f.lo; k < f.hi; k += 1.0) {
    float x = static_cast<float>((k + 0.5) / f.scale);
    for (int step = 0; step < 3; ++step) x = std::nextafter(x, -2.0f);
    for (int i = 0; i < 7; ++i, x = std::nextafter(x, 2.0f)) values.push_back(x);
  }
  for (float special : {0.0f, -0.0f, 1.0f, -1.0f, 1.5f, -1.5f, 1e30f, -1e30f, std::numeric_limits<float>::infinity(),
                        -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
    values.push_back(special);
  }
  while (values.size() % 4) values.push_back(0.5f);
  return values;
}

int64_t reference(float x, const NormalizedFormat& f) {
  double d = static_cast<double>(x) * f.scale;  // exact: 24 by at most 16 significant bits
  if (std::isnan(d)) d = 0.0;
  d = std::fmin(std::fmax(d, f.lo), f.hi);
  return static_cast<int64_t>(std::nearbyint(d));  // the default rounding: to nearest, ties to even
}

int64_t stored(const std::vector<uint8_t>& bytes, size_t i, const NormalizedFormat& f) {
  if (f.channel_bytes == 1) return f.is_signed ? static_cast<int8_t>(bytes[i]) : bytes[i];
  uint16_t raw;
  std::memcpy(&raw, &bytes[2 * i], 2);
  return f.is_signed ? static_cast<int16_t>(raw) : raw;
}

class ImageWriteRounding : public ::testing::TestWithParam<cl_device_id> {
 protected:
  ImageWriteRounding() : env(GetParam()) {}
  Env env;
};

TEST_P(ImageWriteRounding, NormalizedChannelsRoundTheExactProductToNearestEven) {
  BuiltProgram program(env, R"(
    kernel void put(write_only image2d_t image, global const float4* values) {
      int i = get_global_id(0);
      write_imagef(image, (int2)(i % 1024, i / 1024), values[i]);
    })");
  cl_kernel kernel = program.kernel("put");
  const NormalizedFormat formats[] = {
      {{CL_RGBA, CL_UNORM_INT8}, 255, 0, 255, 1, false},       // the GPU's direct path
      {{CL_BGRA, CL_UNORM_INT8}, 255, 0, 255, 1, false},       // the general encoder
      {{CL_RGBA, CL_UNORM_INT16}, 65535, 0, 65535, 2, false},
      {{CL_RGBA, CL_SNORM_INT8}, 127, -128, 127, 1, true},
      {{CL_RGBA, CL_SNORM_INT16}, 32767, -32768, 32767, 2, true},
  };
  for (const NormalizedFormat& f : formats) {
    SCOPED_TRACE(testing::Message() << "channel type 0x" << std::hex << f.format.image_channel_data_type << " order 0x"
                                    << f.format.image_channel_order);
    const std::vector<float> values = values_around_halfway_points(f);
    const size_t pixels = values.size() / 4, rows = (pixels + kRowPixels - 1) / kRowPixels;
    Mem image = make_image(env.context, CL_MEM_WRITE_ONLY, f.format, image_desc(CL_MEM_OBJECT_IMAGE2D, kRowPixels, rows));
    DeviceBuffer input(env.context, values.size() * sizeof(float), values.data());
    set_args(kernel, image.get(), input.get());
    run_1d(env.queue, kernel, pixels);
    std::vector<uint8_t> bytes(kRowPixels * rows * 4 * f.channel_bytes);
    const size_t origin[3] = {0, 0, 0}, region[3] = {kRowPixels, rows, 1};
    ASSERT_EQ(clEnqueueReadImage(env.queue, image.get(), CL_TRUE, origin, region, 0, 0, bytes.data(), 0, nullptr,
                                 nullptr),
              CL_SUCCESS);
    const bool bgra = f.format.image_channel_order == CL_BGRA;
    size_t wrong = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t channel = i % 4, pixel = i / 4;
      const size_t in_memory = bgra && channel != 3 ? 2 - channel : channel;
      const int64_t got = stored(bytes, pixel * 4 + in_memory, f), expected = reference(values[i], f);
      if (got != expected && ++wrong <= 5) {
        ADD_FAILURE() << "write of " << std::hexfloat << values[i] << std::defaultfloat << " stored " << got
                      << ", the exact product rounds to " << expected;
      }
    }
    EXPECT_EQ(wrong, 0u) << "of " << values.size() << " values";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryImageDevice, ImageWriteRounding, ::testing::ValuesIn(image_devices()), device_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ImageWriteRounding);

}  // namespace

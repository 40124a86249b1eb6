// Image builtins in kernels, on every device with images: sampling with every addressing mode,
// filter and coordinate kind against a reference written from the specification's formulas,
// every format read and written back unchanged, every image type through integer reads and
// writes and the size queries, read-write images, 1D buffer images over their buffer,
// constant samplers, and the kernel-argument errors of images and samplers.
#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "image_test_helpers.h"
#include "support/kernel_support.h"

using namespace cucl_test;
using namespace image_test;
using buffer_test::make_buffer;

namespace {

class ImageKernels : public ::testing::TestWithParam<cl_device_id> {
 protected:
  ImageKernels() : env(GetParam()) {}
  void SetUp() override {
    if (!info_value<cl_bool>(clGetDeviceInfo, env.device, CL_DEVICE_COMPILER_AVAILABLE)) GTEST_SKIP() << "no compiler";
  }
  cl_sampler sampler(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_sampler made = clCreateSampler(env.context, normalized, addressing, filter, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return made;
  }
  // How far a linear filter's result may lie from the exact one: a GPU's texture unit weighs
  // with 8 fractional bits (CUDA programming guide, "Texture Fetching"), which the OpenCL-CTS
  // accepts; the host device's software filter is exact up to float rounding.
  float linear_tolerance(float exact) const {
    const auto type = info_value<cl_device_type>(clGetDeviceInfo, env.device, CL_DEVICE_TYPE);
    return (type & CL_DEVICE_TYPE_GPU) ? 2.0f / 256 : exact;
  }
  // The texel fraction a GPU's texture unit may misplace a coordinate by (0 on the host).
  float texture_precision() const {
    const auto type = info_value<cl_device_type>(clGetDeviceInfo, env.device, CL_DEVICE_TYPE);
    return (type & CL_DEVICE_TYPE_GPU) ? 1.0f / 512 : 0.0f;
  }
  Env env;
};

// ---- a reference sampler (OpenCL environment specification, "Image Addressing and Filtering")

struct Texels {
  int width, height;
  std::vector<float> rgba;  // CL_RGBA / CL_FLOAT, packed rows
  std::array<float, 4> at(int x, int y) const {
    const float* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
    return {p[0], p[1], p[2], p[3]};
  }
};

struct SamplerState {
  bool normalized;
  cl_addressing_mode addressing;
  bool linear;
};

float frac(float x) { return x - std::floor(x); }

// One coordinate's texel indices (two for linear) and weight, before the border check.
struct Axis {
  int i0, i1;
  float a;
};

Axis axis(float s, int size, const SamplerState& state) {
  const bool repeat = state.addressing == CL_ADDRESS_REPEAT;
  const bool mirror = state.addressing == CL_ADDRESS_MIRRORED_REPEAT;
  float u;
  if (repeat) {
    u = (s - std::floor(s)) * size;
  } else if (mirror) {
    const float mirrored = std::fabs(s - 2.0f * std::rint(0.5f * s));
    u = mirrored * size;
  } else {
    u = state.normalized ? s * size : s;
  }
  if (!state.linear) {
    int i = static_cast<int>(std::floor(u));
    if (repeat && i > size - 1) i -= size;
    if (mirror) i = std::min(i, size - 1);
    if (state.addressing == CL_ADDRESS_CLAMP_TO_EDGE) i = std::clamp(i, 0, size - 1);
    if (state.addressing == CL_ADDRESS_CLAMP) i = std::clamp(i, -1, size);
    return {i, i, 0.0f};
  }
  int i0 = static_cast<int>(std::floor(u - 0.5f)), i1 = i0 + 1;
  const float a = frac(u - 0.5f);
  if (repeat) {
    if (i0 < 0) i0 += size;
    if (i1 > size - 1) i1 -= size;
  } else if (mirror) {
    i0 = std::max(i0, 0);
    i1 = std::min(i1, size - 1);
  } else if (state.addressing == CL_ADDRESS_CLAMP_TO_EDGE) {
    i0 = std::clamp(i0, 0, size - 1);
    i1 = std::clamp(i1, 0, size - 1);
  } else if (state.addressing == CL_ADDRESS_CLAMP) {
    i0 = std::clamp(i0, -1, size);
    i1 = std::clamp(i1, -1, size);
  }
  return {i0, i1, a};
}

std::array<float, 4> reference_sample(const Texels& texels, float s, float t, const SamplerState& state) {
  auto texel = [&](int x, int y) -> std::array<float, 4> {
    if (x < 0 || y < 0 || x >= texels.width || y >= texels.height) return {0, 0, 0, 0};  // RGBA has alpha
    return texels.at(x, y);
  };
  const Axis ax = axis(s, texels.width, state), ay = axis(t, texels.height, state);
  if (!state.linear) return texel(ax.i0, ay.i0);
  std::array<float, 4> result{};
  const auto t00 = texel(ax.i0, ay.i0), t10 = texel(ax.i1, ay.i0), t01 = texel(ax.i0, ay.i1),
             t11 = texel(ax.i1, ay.i1);
  for (int c = 0; c < 4; ++c) {
    result[c] = (1 - ax.a) * (1 - ay.a) * t00[c] + ax.a * (1 - ay.a) * t10[c] + (1 - ax.a) * ay.a * t01[c] +
                ax.a * ay.a * t11[c];
  }
  return result;
}

TEST_P(ImageKernels, SamplingFollowsTheSpecification) {
  Texels texels{5, 4, std::vector<float>(5 * 4 * 4)};
  std::mt19937 random(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (float& value : texels.rgba) value = unit(random);
  const cl_image_format format{CL_RGBA, CL_FLOAT};
  Mem image = make_image(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, format,
                         image_desc(CL_MEM_OBJECT_IMAGE2D, 5, 4), texels.rgba.data());
  BuiltProgram program(env, R"(
    kernel void sample(read_only image2d_t image, sampler_t s, global const float2* coords, global float4* out) {
      size_t i = get_global_id(0);
      out[i] = read_imagef(image, s, coords[i]);
    })");
  cl_kernel kernel = program.kernel("sample");
  for (cl_bool normalized : {CL_FALSE, CL_TRUE}) {
    for (cl_addressing_mode addressing : {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                          CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT}) {
      const bool repeats = addressing == CL_ADDRESS_REPEAT || addressing == CL_ADDRESS_MIRRORED_REPEAT;
      if (repeats && !normalized) continue;  // undefined
      for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        SCOPED_TRACE(testing::Message() << "normalized " << normalized << " addressing 0x" << std::hex << addressing
                                        << " filter 0x" << filter);
        const SamplerState state{normalized == CL_TRUE, addressing, filter == CL_FILTER_LINEAR};
        // Coordinates across the image and past its edges, off the pixel centres and on them
        // (NONE only inside, where a linear filter's second texel stays in the image too).
        std::vector<float> coords;
        for (int j = 0; j < 23; ++j) {
          for (int i = 0; i < 29; ++i) {
            float s = -2.3f + i * 0.41f, t = -1.7f + j * 0.37f;
            if (addressing == CL_ADDRESS_NONE) s = 0.5f + i * 0.14f, t = 0.5f + j * 0.13f;
            if (normalized) s /= 5, t /= 4;
            coords.insert(coords.end(), {s, t});
          }
        }
        const size_t n = coords.size() / 2;
        DeviceBuffer coord_buffer(env.context, coords.size() * sizeof(float), coords.data());
        DeviceBuffer out(env.context, n * 4 * sizeof(float));
        cl_sampler s = sampler(normalized, addressing, filter);
        set_args(kernel, image.get(), s, coord_buffer.get(), out.get());
        run_1d(env.queue, kernel, n);
        auto values = read_buffer<float>(env.queue, out.get(), n * 4);
        const float tolerance = state.linear ? linear_tolerance(1e-5f) : 1e-5f;
        // Within 1/512 of a texel of a boundary (the texture unit's fixed-point coordinates),
        // a GPU's nearest filter may take either neighbour, as the CTS allows.
        const float nudge = texture_precision() * (normalized ? 1.0f / 5 : 1.0f);
        for (size_t k = 0; k < n; ++k) {
          const float u = coords[2 * k], v = coords[2 * k + 1];
          auto matches = [&](float du, float dv) {
            const auto expected = reference_sample(texels, u + du, v + dv * (normalized ? 5.0f / 4 : 1.0f), state);
            for (int c = 0; c < 4; ++c) {
              if (std::fabs(values[k * 4 + c] - expected[c]) > tolerance) return false;
            }
            return true;
          };
          bool matched = matches(0, 0);
          for (float du : {-nudge, 0.0f, nudge}) {
            for (float dv : {-nudge, 0.0f, nudge}) matched = matched || (!state.linear && nudge > 0 && matches(du, dv));
          }
          const auto expected = reference_sample(texels, u, v, state);
          ASSERT_TRUE(matched) << "coordinate (" << u << ", " << v << "): read (" << values[k * 4] << ", "
                               << values[k * 4 + 1] << ", " << values[k * 4 + 2] << ", " << values[k * 4 + 3]
                               << "), expected (" << expected[0] << ", " << expected[1] << ", " << expected[2]
                               << ", " << expected[3] << ")";
        }
        clReleaseSampler(s);
      }
    }
  }
}

// The linear filter across CLK_ADDRESS_CLAMP's border: orders without alpha keep alpha 1 (their
// border is opaque black), orders with one blend towards transparent black, and the channels
// land in their places after filtering (BGRA).
TEST_P(ImageKernels, LinearFilterBlendsWithEachOrdersBorder) {
  BuiltProgram program(env, R"(
    constant sampler_t clamp_linear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
    kernel void sample(read_only image2d_t image, global float4* out) {
      out[0] = read_imagef(image, clamp_linear, (float2)(0.25f, 0.5f));
    })");
  cl_kernel kernel = program.kernel("sample");
  // At (0.25, 0.5) of a 2x1 image the filter takes 3/4 of pixel (0, 0) and 1/4 of the border
  // at (-1, 0); the row below (y = 1) is border too, with weight 0.
  struct Case {
    cl_image_format format;
    std::vector<uint8_t> pixels;  // two pixels
    std::array<float, 4> expected;
  };
  const float r = 0.25f, g = 0.5f, b = 0.75f, a = 1.0f;
  std::vector<uint8_t> red_float(8), rgba_float(32);
  std::memcpy(red_float.data(), &r, 4);
  const float rgba[4] = {r, g, b, 0.5f};
  std::memcpy(rgba_float.data(), rgba, 16);
  const Case cases[] = {
      {{CL_R, CL_FLOAT}, red_float, {0.75f * r, 0, 0, a}},
      {{CL_RGBA, CL_FLOAT}, rgba_float, {0.75f * r, 0.75f * g, 0.75f * b, 0.75f * 0.5f}},
      {{CL_BGRA, CL_UNORM_INT8}, {51, 102, 153, 255, 0, 0, 0, 0},  // b, g, r, a = 0.2, 0.4, 0.6, 1
       {0.75f * 0.6f, 0.75f * 0.4f, 0.75f * 0.2f, 0.75f}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "order 0x" << std::hex << c.format.image_channel_order);
    std::vector<uint8_t> pixels = c.pixels;
    Mem image = make_image(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, c.format,
                           image_desc(CL_MEM_OBJECT_IMAGE2D, 2, 1), pixels.data());
    DeviceBuffer out(env.context, 4 * sizeof(float));
    set_args(kernel, image.get(), out.get());
    run_1d(env.queue, kernel, 1);
    const auto values = read_buffer<float>(env.queue, out.get(), 4);
    for (int channel = 0; channel < 4; ++channel) {
      EXPECT_NEAR(values[channel], c.expected[channel], linear_tolerance(1e-6f)) << "channel " << channel;
    }
  }
}

// ---- every format, read and written back ------------------------------------------------

enum class Access { Float, Int, Uint };

Access access_of(cl_channel_type type) {
  switch (type) {
    case CL_SIGNED_INT8: case CL_SIGNED_INT16: case CL_SIGNED_INT32: return Access::Int;
    case CL_UNSIGNED_INT8: case CL_UNSIGNED_INT16: case CL_UNSIGNED_INT32: return Access::Uint;
    default: return Access::Float;
  }
}

// Pixel bytes that read and write back unchanged: no NaN or -0 floats, no half subnormals
// (every value is exact anyway), no normalized minimum (-128 reads as -1.0 and writes back
// as -127).
std::vector<unsigned char> round_trip_pixels(cl_channel_type type, size_t bytes, std::mt19937& random) {
  std::vector<unsigned char> data(bytes);
  std::uniform_int_distribution<int> byte(0, 255);
  for (unsigned char& b : data) b = static_cast<unsigned char>(byte(random));
  if (type == CL_FLOAT) {
    std::uniform_real_distribution<float> value(-1000.0f, 1000.0f);
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
      const float f = value(random);
      std::memcpy(&data[i], &f, 4);
    }
  } else if (type == CL_HALF_FLOAT) {
    for (size_t i = 0; i + 2 <= bytes; i += 2) {
      data[i + 1] &= 0x3F;  // exponent below the infinities, sign cleared
      data[i + 1] |= 0x04;  // and above the subnormals
    }
  } else if (type == CL_SNORM_INT8) {
    for (unsigned char& b : data) b = b == 0x80 ? 0x81 : b;
  } else if (type == CL_SNORM_INT16) {
    for (size_t i = 0; i + 2 <= bytes; i += 2) {
      if (data[i] == 0 && data[i + 1] == 0x80) data[i] = 1;
    }
  } else if (type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010) {
    for (size_t i = 0; i < bytes; ++i) {
      if (type == CL_UNORM_SHORT_555 && i % 2 == 1) data[i] &= 0x7F;  // the unused top bit reads as 0
      if (type == CL_UNORM_INT_101010 && i % 4 == 3) data[i] &= 0x3F;
    }
  }
  return data;
}

TEST_P(ImageKernels, EveryFormatReadsAndWritesBackUnchanged) {
  BuiltProgram program(env, R"(
    kernel void copy_f(read_only image2d_t in, write_only image2d_t out) {
      int2 p = (int2)(get_global_id(0), get_global_id(1));
      write_imagef(out, p, read_imagef(in, p));
    }
    kernel void copy_i(read_only image2d_t in, write_only image2d_t out) {
      int2 p = (int2)(get_global_id(0), get_global_id(1));
      write_imagei(out, p, read_imagei(in, p));
    }
    kernel void copy_ui(read_only image2d_t in, write_only image2d_t out) {
      int2 p = (int2)(get_global_id(0), get_global_id(1));
      write_imageui(out, p, read_imageui(in, p));
    })");
  std::mt19937 random(11);
  const size_t width = 13, height = 5;
  cl_uint count = 0;
  ASSERT_EQ(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count),
            CL_SUCCESS);
  std::vector<cl_image_format> formats(count);
  ASSERT_EQ(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, count, formats.data(),
                                       nullptr),
            CL_SUCCESS);
  for (const cl_image_format& format : formats) {
    SCOPED_TRACE(testing::Message() << "format 0x" << std::hex << format.image_channel_order << "/0x"
                                    << format.image_channel_data_type);
    Mem in = make_image(env.context, CL_MEM_READ_WRITE, format, image_desc(CL_MEM_OBJECT_IMAGE2D, width, height));
    const size_t pixel = info_value<size_t>(clGetImageInfo, in.get(), CL_IMAGE_ELEMENT_SIZE);
    auto data = round_trip_pixels(format.image_channel_data_type, width * height * pixel, random);
    const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
    ASSERT_EQ(clEnqueueWriteImage(env.queue, in, CL_TRUE, origin, region, 0, 0, data.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    // Channels the order does not store read back as the defaults, so the copy only needs
    // the same order and type.
    Mem out = make_image(env.context, CL_MEM_READ_WRITE, format, image_desc(CL_MEM_OBJECT_IMAGE2D, width, height));
    const char* name = access_of(format.image_channel_data_type) == Access::Int    ? "copy_i"
                       : access_of(format.image_channel_data_type) == Access::Uint ? "copy_ui"
                                                                                   : "copy_f";
    cl_kernel kernel = program.kernel(name);
    set_args(kernel, in.get(), out.get());
    const size_t global[2] = {width, height};
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<unsigned char> back(data.size());
    ASSERT_EQ(clEnqueueReadImage(env.queue, out, CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < back.size(); ++i) ASSERT_EQ(back[i], data[i]) << "byte " << i;
  }
}

// What a few formats decode to, through read_imagef and read_imageui.
TEST_P(ImageKernels, FormatsDecodeAsTheSpecificationSays) {
  BuiltProgram program(env, R"(
    kernel void decode(read_only image2d_t image, global float4* out) { out[0] = read_imagef(image, (int2)(0, 0)); }
    kernel void decode_ui(read_only image2d_t image, global uint4* out) { out[0] = read_imageui(image, (int2)(0, 0)); })");
  struct Case {
    cl_image_format format;
    std::vector<unsigned char> pixel;
    std::array<float, 4> expected;
  };
  const Case cases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, {0, 51, 255, 128}, {0.0f, 0.2f, 1.0f, 128 / 255.0f}},
      {{CL_BGRA, CL_UNORM_INT8}, {0, 51, 255, 128}, {1.0f, 0.2f, 0.0f, 128 / 255.0f}},
      {{CL_R, CL_SNORM_INT8}, {0x80}, {-1.0f, 0.0f, 0.0f, 1.0f}},
      {{CL_A, CL_UNORM_INT16}, {0xFF, 0xFF}, {0.0f, 0.0f, 0.0f, 1.0f}},
      {{CL_LUMINANCE, CL_UNORM_INT8}, {102}, {0.4f, 0.4f, 0.4f, 1.0f}},
      {{CL_INTENSITY, CL_UNORM_INT8}, {102}, {0.4f, 0.4f, 0.4f, 0.4f}},
      {{CL_RG, CL_HALF_FLOAT}, {0x00, 0x3C, 0x00, 0xC0}, {1.0f, -2.0f, 0.0f, 1.0f}},
      {{CL_RGB, CL_UNORM_SHORT_565}, {0x00, 0xF8}, {1.0f, 0.0f, 0.0f, 1.0f}},
      {{CL_sRGBA, CL_UNORM_INT8}, {255, 0, 188, 51}, {1.0f, 0.0f, 0.5029f, 0.2f}},
  };
  DeviceBuffer out(env.context, 16);
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "format 0x" << std::hex << c.format.image_channel_order << "/0x"
                                    << c.format.image_channel_data_type);
    Mem image = make_image(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, c.format,
                           image_desc(CL_MEM_OBJECT_IMAGE2D, 1, 1), const_cast<unsigned char*>(c.pixel.data()));
    cl_kernel kernel = program.kernel("decode");
    set_args(kernel, image.get(), out.get());
    run_1d(env.queue, kernel, 1);
    auto value = read_buffer<float>(env.queue, out.get(), 4);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(value[i], c.expected[i], 1e-3f) << "channel " << i;
  }
  const cl_image_format uint16{CL_RA, CL_UNSIGNED_INT16};
  const unsigned short pixel[2] = {40000, 7};
  Mem image = make_image(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, uint16,
                         image_desc(CL_MEM_OBJECT_IMAGE2D, 1, 1), const_cast<unsigned short*>(pixel));
  cl_kernel kernel = program.kernel("decode_ui");
  set_args(kernel, image.get(), out.get());
  run_1d(env.queue, kernel, 1);
  EXPECT_EQ(read_buffer<cl_uint>(env.queue, out.get(), 4), (std::vector<cl_uint>{40000, 0, 0, 7}));
}

// ---- every image type --------------------------------------------------------------------

TEST_P(ImageKernels, EveryTypeCopiesAndReportsItsSize) {
  BuiltProgram program(env, R"(
    #define COPY(name, type, coord_type, coord)                                              \
      kernel void name(read_only type in, write_only type out, global int* size) {          \
        coord_type p = coord;                                                               \
        write_imageui(out, p, read_imageui(in, p) + (uint4)(1));                            \
        size[0] = get_image_width(in);                                                      \
        size[1] = get_image_channel_order(in) == CLK_RGBA;                                  \
        size[2] = get_image_channel_data_type(out) == CLK_UNSIGNED_INT8;                    \
        EXTRA(in)                                                                           \
      }
    #define G(i) (int)get_global_id(i)
    #define EXTRA(in)
    COPY(copy_1d, image1d_t, int, G(0))
    COPY(copy_1d_buffer, image1d_buffer_t, int, G(0))
    #undef EXTRA
    #define EXTRA(in) size[3] = get_image_array_size(in);
    COPY(copy_1d_array, image1d_array_t, int2, (int2)(G(0), G(1)))
    #undef EXTRA
    #define EXTRA(in) size[3] = get_image_height(in); size[4] = get_image_dim(in).y;
    COPY(copy_2d, image2d_t, int2, (int2)(G(0), G(1)))
    #undef EXTRA
    #define EXTRA(in) size[3] = get_image_height(in); size[4] = get_image_array_size(in);
    COPY(copy_2d_array, image2d_array_t, int4, (int4)(G(0), G(1), G(2), 0))
    #undef EXTRA
    #define EXTRA(in) size[3] = get_image_height(in); size[4] = get_image_depth(in); size[5] = get_image_dim(in).z;
    COPY(copy_3d, image3d_t, int4, (int4)(G(0), G(1), G(2), 0))
  )");
  struct Case {
    const char* kernel;
    cl_mem_object_type type;
    std::array<size_t, 3> extent;  // as the commands count it
    std::vector<int> sizes;        // what the kernel reports past the first three
  };
  const Case cases[] = {
      {"copy_1d", CL_MEM_OBJECT_IMAGE1D, {19, 1, 1}, {}},
      {"copy_1d_buffer", CL_MEM_OBJECT_IMAGE1D_BUFFER, {19, 1, 1}, {}},
      {"copy_1d_array", CL_MEM_OBJECT_IMAGE1D_ARRAY, {19, 3, 1}, {3}},
      {"copy_2d", CL_MEM_OBJECT_IMAGE2D, {19, 6, 1}, {6, 6}},
      {"copy_2d_array", CL_MEM_OBJECT_IMAGE2D_ARRAY, {19, 6, 3}, {6, 3}},
      {"copy_3d", CL_MEM_OBJECT_IMAGE3D, {19, 6, 4}, {6, 4, 4}},
  };
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT8};
  std::mt19937 random(3);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.kernel);
    const size_t pixels = c.extent[0] * c.extent[1] * c.extent[2];
    auto data = round_trip_pixels(CL_UNSIGNED_INT8, pixels * 4, random);
    for (unsigned char& b : data) b = static_cast<unsigned char>(std::min<int>(b, 254));
    Mem in_buffer = make_buffer(env.context, CL_MEM_READ_WRITE, pixels * 4);
    Mem out_buffer = make_buffer(env.context, CL_MEM_READ_WRITE, pixels * 4);
    auto desc_for = [&](cl_mem buffer) {
      cl_image_desc desc = image_desc(c.type, c.extent[0]);
      if (c.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) desc.mem_object = buffer;
      if (c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) desc.image_array_size = c.extent[1];
      if (c.type == CL_MEM_OBJECT_IMAGE2D || c.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
          c.type == CL_MEM_OBJECT_IMAGE3D) {
        desc.image_height = c.extent[1];
      }
      if (c.type == CL_MEM_OBJECT_IMAGE2D_ARRAY) desc.image_array_size = c.extent[2];
      if (c.type == CL_MEM_OBJECT_IMAGE3D) desc.image_depth = c.extent[2];
      return desc;
    };
    Mem in = make_image(env.context, CL_MEM_READ_WRITE, format, desc_for(in_buffer));
    Mem out = make_image(env.context, CL_MEM_READ_WRITE, format, desc_for(out_buffer));
    const size_t origin[3] = {0, 0, 0};
    ASSERT_EQ(clEnqueueWriteImage(env.queue, in, CL_TRUE, origin, c.extent.data(), 0, 0, data.data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    DeviceBuffer sizes(env.context, 8 * sizeof(int));
    cl_kernel kernel = program.kernel(c.kernel);
    set_args(kernel, in.get(), out.get(), sizes.get());
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 3, nullptr, c.extent.data(), nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<unsigned char> back(data.size());
    ASSERT_EQ(clEnqueueReadImage(env.queue, out, CL_TRUE, origin, c.extent.data(), 0, 0, back.data(), 0, nullptr,
                                 nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < back.size(); ++i) ASSERT_EQ(back[i], data[i] + 1) << "byte " << i;
    auto reported = read_buffer<int>(env.queue, sizes.get(), 3 + c.sizes.size());
    EXPECT_EQ(reported[0], static_cast<int>(c.extent[0]));
    EXPECT_EQ(reported[1], 1);
    EXPECT_EQ(reported[2], 1);
    for (size_t i = 0; i < c.sizes.size(); ++i) EXPECT_EQ(reported[3 + i], c.sizes[i]) << "size " << i;
    if (c.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
      // The kernel wrote the buffer behind the image.
      auto through_buffer = read_buffer<unsigned char>(env.queue, out_buffer.get(), pixels * 4);
      EXPECT_EQ(through_buffer, back);
    }
  }
}

TEST_P(ImageKernels, ReadWriteImagesAndConstantSamplers) {
  BuiltProgram program(env, R"(
    constant sampler_t program_sampler = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
    kernel void increment(read_write image2d_t image) {
      int2 p = (int2)(get_global_id(0), get_global_id(1));
      write_imagef(image, p, read_imagef(image, p) * 2.0f);
    }
    kernel void wrap(read_only image2d_t image, global float4* out) {
      const sampler_t literal = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
      out[0] = read_imagef(image, program_sampler, (float2)(1.25f, -0.75f));  // pixel (1, 1) of 4 x 4
      out[1] = read_imagef(image, literal, (float2)(-3.0f, 1.0f));          // the border
    })",
                         "-cl-std=CL3.0");
  const cl_image_format format{CL_R, CL_FLOAT};
  std::vector<float> values(16);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  Mem image = make_image(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, format,
                         image_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4), values.data());
  cl_kernel increment = program.kernel("increment");
  set_args(increment, image.get());
  const size_t global[2] = {4, 4};
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, increment, 2, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  DeviceBuffer out(env.context, 2 * 16);
  cl_kernel wrap = program.kernel("wrap");
  set_args(wrap, image.get(), out.get());
  run_1d(env.queue, wrap, 1);
  auto read = read_buffer<float>(env.queue, out.get(), 8);
  EXPECT_EQ(read[0], 10.0f) << "2 x pixel 5";
  EXPECT_EQ(read[3], 1.0f) << "alpha of a red image";
  EXPECT_EQ(read[4], 0.0f) << "border red";
  EXPECT_EQ(read[7], 1.0f) << "border alpha of an order without alpha";
}

TEST_P(ImageKernels, ArgumentErrors) {
  BuiltProgram program(env, R"(
    kernel void take(read_only image2d_t in, write_only image2d_t out, sampler_t s) {
      write_imagef(out, (int2)(0, 0), read_imagef(in, s, (int2)(0, 0)));
    })");
  cl_kernel kernel = program.kernel("take");
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  Mem image = make_image(env.context, CL_MEM_READ_WRITE, format, image_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  Mem write_only = make_image(env.context, CL_MEM_WRITE_ONLY, format, image_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  Mem volume = make_image(env.context, CL_MEM_READ_WRITE, format, image_desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4));
  Mem buffer = make_buffer(env.context, CL_MEM_READ_WRITE, 64);
  const cl_mem none = nullptr;
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), image.address()), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), buffer.address()), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), volume.address()), CL_INVALID_MEM_OBJECT) << "not a 2D image";
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &none), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(kernel, 0, 4, image.address()), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), write_only.address()), CL_INVALID_ARG_VALUE)
      << "read_only argument, CL_MEM_WRITE_ONLY image";
  cl_int status = CL_SUCCESS;
  cl_sampler sampler = clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &status);
  EXPECT_EQ(clSetKernelArg(kernel, 2, sizeof sampler, &sampler), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(kernel, 2, sizeof(cl_mem), image.address()), CL_INVALID_SAMPLER);
  EXPECT_EQ(clSetKernelArg(kernel, 2, 4, &sampler), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(kernel, 2, sizeof sampler, nullptr), CL_INVALID_SAMPLER);
  Env other(env.device);
  cl_sampler foreign = clCreateSampler(other.context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &status);
  EXPECT_EQ(clSetKernelArg(kernel, 2, sizeof foreign, &foreign), CL_INVALID_CONTEXT);
  // Every argument set: the launch runs.
  EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), image.address()), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), image.address()), CL_SUCCESS);
  size_t one = 1;
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  // An image released after it was set: the launch refuses it.
  const auto desc = image_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
  cl_mem gone = clCreateImage(env.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(kernel, 1, sizeof gone, &gone), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(gone), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseSampler(sampler);
  clReleaseSampler(foreign);
}

INSTANTIATE_TEST_SUITE_P(EveryImageDevice, ImageKernels, ::testing::ValuesIn(image_devices()), device_name);

}  // namespace

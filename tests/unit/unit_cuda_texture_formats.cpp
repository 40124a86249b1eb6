// Which image formats the GPU samples through its texture unit (backends/cuda/
// cuda_texture_formats.h): the channels as they lie in memory, in CUDA's element types, for
// every order whose channel count CUDA takes; software for the rest. No GPU needed.
#include <gtest/gtest.h>

#include <optional>

#include "backends/cuda/cuda_texture_formats.h"

namespace cucl::backend::cuda {
namespace {

std::optional<TextureFormat> of(cl_channel_order order, cl_channel_type type) {
  return texture_format(cl_image_format{order, type});
}

TEST(CudaTextureFormats, EachServedOrderHoldsItsChannelsAsTheyLieInMemory) {
  const struct {
    cl_channel_order order;
    unsigned channels;
  } orders[] = {{CL_R, 1},    {CL_A, 1},    {CL_INTENSITY, 1}, {CL_LUMINANCE, 1}, {CL_RG, 2},
                {CL_RA, 2},   {CL_RGBA, 4}, {CL_BGRA, 4},      {CL_ARGB, 4},      {CL_ABGR, 4}};
  for (const auto& expected : orders) {
    SCOPED_TRACE(testing::Message() << "order 0x" << std::hex << expected.order);
    const std::optional<TextureFormat> format = of(expected.order, CL_UNORM_INT8);
    ASSERT_TRUE(format.has_value());
    EXPECT_EQ(format->channels, expected.channels);
    EXPECT_EQ(format->format, CU_AD_FORMAT_UNSIGNED_INT8);
    EXPECT_FALSE(format->read_as_integer);
    EXPECT_FALSE(format->srgb);
  }
}

TEST(CudaTextureFormats, DataTypesKeepTheirElementTypeAndReadMode) {
  const struct {
    cl_channel_type type;
    CUarray_format format;
    bool read_as_integer;
  } types[] = {
      {CL_UNORM_INT8, CU_AD_FORMAT_UNSIGNED_INT8, false},     {CL_UNORM_INT16, CU_AD_FORMAT_UNSIGNED_INT16, false},
      {CL_HALF_FLOAT, CU_AD_FORMAT_HALF, false},              {CL_FLOAT, CU_AD_FORMAT_FLOAT, false},
      {CL_SIGNED_INT8, CU_AD_FORMAT_SIGNED_INT8, true},       {CL_SIGNED_INT16, CU_AD_FORMAT_SIGNED_INT16, true},
      {CL_SIGNED_INT32, CU_AD_FORMAT_SIGNED_INT32, true},     {CL_UNSIGNED_INT8, CU_AD_FORMAT_UNSIGNED_INT8, true},
      {CL_UNSIGNED_INT16, CU_AD_FORMAT_UNSIGNED_INT16, true}, {CL_UNSIGNED_INT32, CU_AD_FORMAT_UNSIGNED_INT32, true},
  };
  for (cl_channel_order order : {CL_R, CL_RG, CL_RGBA}) {
    for (const auto& expected : types) {
      SCOPED_TRACE(testing::Message() << "order 0x" << std::hex << order << " type 0x" << expected.type);
      const std::optional<TextureFormat> format = of(order, expected.type);
      ASSERT_TRUE(format.has_value());
      EXPECT_EQ(format->format, expected.format);
      EXPECT_EQ(format->read_as_integer, expected.read_as_integer);
    }
  }
}

TEST(CudaTextureFormats, SrgbOrdersDecodeInTheTextureUnit) {
  for (cl_channel_order order : {CL_sRGBA, CL_sBGRA}) {
    const std::optional<TextureFormat> format = of(order, CL_UNORM_INT8);
    ASSERT_TRUE(format.has_value());
    EXPECT_TRUE(format->srgb);
    EXPECT_EQ(format->channels, 4u);
    EXPECT_EQ(format->format, CU_AD_FORMAT_UNSIGNED_INT8);
  }
}

TEST(CudaTextureFormats, FormatsTheTextureUnitCannotReadAsOpenCLStayInSoftware) {
  const cl_image_format software[] = {
      {CL_R, CL_SNORM_INT8},           {CL_RGBA, CL_SNORM_INT16},          {CL_LUMINANCE, CL_SNORM_INT8},
      {CL_RGB, CL_UNORM_SHORT_565},    {CL_RGB, CL_UNORM_SHORT_555},       {CL_RGB, CL_UNORM_INT_101010},
      {CL_RGBA, CL_UNORM_INT_101010_2}, {CL_sRGB, CL_UNORM_INT8},          {CL_sRGBx, CL_UNORM_INT8},
      {CL_Rx, CL_UNORM_INT8},          {CL_RGx, CL_FLOAT},                 {CL_RGBx, CL_UNORM_SHORT_565},
      {CL_DEPTH, CL_FLOAT},            {CL_DEPTH, CL_UNORM_INT16},         {CL_sRGBA, CL_UNSIGNED_INT8},
  };
  for (const cl_image_format& format : software) {
    EXPECT_FALSE(texture_format(format).has_value())
        << "order 0x" << std::hex << format.image_channel_order << " type 0x" << format.image_channel_data_type;
  }
}

}  // namespace
}  // namespace cucl::backend::cuda

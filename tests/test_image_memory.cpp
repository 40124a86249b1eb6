// Image memory objects on every device with images: what the device reports, creation of each
// type (with host memory, from buffers and images) and every creation error, the info
// queries, read/write/copy/fill/map of pixels with their pitches and bounds, copies between
// images and buffers, fill colours converted to each kind of format, and samplers.
#include <array>
#include <cstring>
#include <numeric>

#include "image_test_helpers.h"
#include "support/kernel_support.h"

using namespace cucl_test;
using namespace image_test;
using buffer_test::make_buffer;

namespace {

class ImageMemory : public ::testing::TestWithParam<cl_device_id> {
 protected:
  ImageMemory() : env(GetParam()) {}
  Env env;
  const cl_image_format rgba8{CL_RGBA, CL_UNSIGNED_INT8};
};

std::vector<unsigned char> pattern(size_t bytes) {
  std::vector<unsigned char> data(bytes);
  for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>(i * 7 + 3);
  return data;
}

bool listed(const std::vector<cl_image_format>& formats, cl_channel_order order, cl_channel_type type) {
  for (const cl_image_format& f : formats) {
    if (f.image_channel_order == order && f.image_channel_data_type == type) return true;
  }
  return false;
}

std::vector<cl_image_format> formats_of(cl_context context, cl_mem_flags flags, cl_mem_object_type type) {
  cl_uint count = 0;
  EXPECT_EQ(clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count), CL_SUCCESS);
  std::vector<cl_image_format> formats(count);
  EXPECT_EQ(clGetSupportedImageFormats(context, flags, type, count, formats.data(), nullptr), CL_SUCCESS);
  return formats;
}

TEST_P(ImageMemory, TheDeviceReportsItsImages) {
  EXPECT_GE(info_value<size_t>(clGetDeviceInfo, env.device, CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_GE(info_value<size_t>(clGetDeviceInfo, env.device, CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048u);
  EXPECT_GE(info_value<size_t>(clGetDeviceInfo, env.device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), 65536u);
  EXPECT_GE(info_value<cl_uint>(clGetDeviceInfo, env.device, CL_DEVICE_MAX_SAMPLERS), 16u);
  EXPECT_TRUE(lists_feature(env.device, "__opencl_c_images"));
  EXPECT_TRUE(lists_extension(env.device, "cl_khr_image2d_from_buffer"));
  cl_uint count_only = 0;
  // The formats OpenCL 3.0 requires for reading or writing, and for reading and writing.
  const cl_channel_type required[] = {CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SIGNED_INT8,  CL_SIGNED_INT16,
                                      CL_SIGNED_INT32,   CL_UNSIGNED_INT8,  CL_UNSIGNED_INT16,
                                      CL_UNSIGNED_INT32, CL_HALF_FLOAT,     CL_FLOAT};
  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                  CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
    for (cl_mem_flags flags : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_KERNEL_READ_AND_WRITE}) {
      auto formats = formats_of(env.context, flags, type);
      for (cl_channel_type t : required) EXPECT_TRUE(listed(formats, CL_RGBA, t)) << std::hex << t;
      EXPECT_TRUE(listed(formats, CL_BGRA, CL_UNORM_INT8));
      EXPECT_TRUE(listed(formats, CL_R, CL_FLOAT));
      // sRGB is read-only (no cl_khr_srgb_image_writes).
      EXPECT_EQ(listed(formats, CL_sRGBA, CL_UNORM_INT8), flags == CL_MEM_READ_ONLY);
    }
  }
  EXPECT_EQ(clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, 0,
                                       nullptr, &count_only),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(env.context, 0, CL_MEM_OBJECT_BUFFER, 0, nullptr, &count_only),
            CL_INVALID_VALUE);
  // Only as many formats as there is room for are written; the count is the total.
  std::array<cl_image_format, 2> two{};
  cl_uint count = 0;
  EXPECT_EQ(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 2, two.data(), &count),
            CL_SUCCESS);
  EXPECT_GT(count, 40u);
}

TEST_P(ImageMemory, EveryTypeReportsItsShape) {
  struct Case {
    cl_image_desc desc;
    size_t height, depth, array_size, slice_pitch;
  };
  const size_t pixel = 4;
  Mem buffer = make_buffer(env.context, CL_MEM_READ_WRITE, 4096);
  const Case cases[] = {
      {image_desc(CL_MEM_OBJECT_IMAGE1D, 17), 0, 0, 0, 0},
      {image_desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 100, 1, 1, 1, buffer), 0, 0, 0, 0},
      {image_desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 17, 1, 1, 5), 0, 0, 5, 17 * pixel},
      {image_desc(CL_MEM_OBJECT_IMAGE2D, 17, 9), 9, 0, 0, 0},
      {image_desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 17, 9, 1, 3), 9, 0, 3, 17 * 9 * pixel},
      {image_desc(CL_MEM_OBJECT_IMAGE3D, 17, 9, 4), 9, 4, 0, 17 * 9 * pixel},
  };
  for (const Case& c : cases) {
    Mem image = make_image(env.context, CL_MEM_READ_WRITE, rgba8, c.desc);
    SCOPED_TRACE(testing::Message() << "type 0x" << std::hex << c.desc.image_type);
    EXPECT_EQ(info_value<cl_mem_object_type>(clGetMemObjectInfo, image.get(), CL_MEM_TYPE), c.desc.image_type);
    auto format = info_value<cl_image_format>(clGetImageInfo, image.get(), CL_IMAGE_FORMAT);
    EXPECT_EQ(format.image_channel_order, cl_channel_order(CL_RGBA));
    EXPECT_EQ(info_value<size_t>(clGetImageInfo, image.get(), CL_IMAGE_ELEMENT_SIZE), pixel);
    EXPECT_EQ(info_value<size_t>(clGetImageInfo, image.get(), CL_IMAGE_WIDTH), c.desc.image_width);
    EXPECT_EQ(info_value<size_t>(clGetImageInfo, image.get(), CL_IMAGE_HEIGHT), c.height);
    EXPECT_EQ(info_value<size_t>(clGetImageInfo, image.get(), CL_IMAGE_DEPTH), c.depth);
    EXPECT_EQ(info_value<size_t>(clGetImageInfo, image.get(), CL_IMAGE_ARRAY_SIZE), c.array_size);
    EXPECT_EQ(info_value<size_t>(clGetImageInfo, image.get(), CL_IMAGE_ROW_PITCH), c.desc.image_width * pixel);
    EXPECT_EQ(info_value<size_t>(clGetImageInfo, image.get(), CL_IMAGE_SLICE_PITCH), c.slice_pitch);
    EXPECT_EQ(info_value<cl_uint>(clGetImageInfo, image.get(), CL_IMAGE_NUM_MIP_LEVELS), 0u);
    EXPECT_EQ(info_value<cl_mem>(clGetImageInfo, image.get(), CL_IMAGE_BUFFER), c.desc.mem_object);
    EXPECT_EQ(info_value<cl_mem>(clGetMemObjectInfo, image.get(), CL_MEM_ASSOCIATED_MEMOBJECT), c.desc.mem_object);
  }
  size_t value = 0;
  EXPECT_EQ(clGetImageInfo(buffer, CL_IMAGE_WIDTH, sizeof value, &value, nullptr), CL_INVALID_MEM_OBJECT);
  Mem image = make_image(env.context, CL_MEM_READ_WRITE, rgba8, image_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  EXPECT_EQ(clGetImageInfo(image, 0x7777, sizeof value, &value, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetImageInfo(image, CL_IMAGE_WIDTH, 1, &value, nullptr), CL_INVALID_VALUE);
}

TEST_P(ImageMemory, CreationErrors) {
  const auto d2 = image_desc(CL_MEM_OBJECT_IMAGE2D, 16, 16);
  const cl_image_format bad_order{0x7777, CL_UNORM_INT8};
  const cl_image_format rgb8{CL_RGB, CL_UNORM_INT8};  // RGB only with packed types
  const cl_image_format rgx8{CL_RGx, CL_UNORM_INT8};  // valid, not supported
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, nullptr, &d2), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &bad_order, &d2), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgb8, &d2), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgx8, &d2), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  const cl_image_format srgb{CL_sRGBA, CL_UNORM_INT8};
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &srgb, &d2), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  Mem readable = make_image(env.context, CL_MEM_READ_ONLY, srgb, d2);
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, &rgba8, &d2), CL_INVALID_VALUE);
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, nullptr), CL_INVALID_IMAGE_DESCRIPTOR);
  auto desc = d2;
  desc.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &desc), CL_INVALID_IMAGE_DESCRIPTOR);
  desc = d2;
  desc.num_mip_levels = 1;
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &desc), CL_INVALID_IMAGE_DESCRIPTOR);
  desc = d2;
  desc.image_row_pitch = 64;  // a pitch needs host memory
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &desc), CL_INVALID_IMAGE_DESCRIPTOR);
  std::vector<unsigned char> host(64 * 64);
  desc.image_row_pitch = 60;  // less than 16 pixels of 4 bytes
  EXPECT_EQ(image_error(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, &desc, host.data()), CL_INVALID_IMAGE_DESCRIPTOR);
  desc.image_row_pitch = 66;  // not a multiple of the pixel
  EXPECT_EQ(image_error(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, &desc, host.data()), CL_INVALID_IMAGE_DESCRIPTOR);
  desc = image_desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4);
  desc.image_slice_pitch = 60;  // less than a slice of rows
  EXPECT_EQ(image_error(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, &desc, host.data()), CL_INVALID_IMAGE_DESCRIPTOR);
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &d2, host.data()), CL_INVALID_HOST_PTR);
  EXPECT_EQ(image_error(env.context, CL_MEM_USE_HOST_PTR, &rgba8, &d2), CL_INVALID_HOST_PTR);
  for (auto zero : {image_desc(CL_MEM_OBJECT_IMAGE2D, 0, 4), image_desc(CL_MEM_OBJECT_IMAGE2D, 4, 0),
                    image_desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0), image_desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 1, 0)}) {
    EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &zero), CL_INVALID_IMAGE_SIZE);
  }
  const size_t max_width = info_value<size_t>(clGetDeviceInfo, env.device, CL_DEVICE_IMAGE2D_MAX_WIDTH);
  desc = image_desc(CL_MEM_OBJECT_IMAGE2D, max_width + 1, 1);
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &desc), CL_INVALID_IMAGE_SIZE);
  // A memory object behind an image: only for 1D buffer images and 2D images.
  Mem buffer = make_buffer(env.context, CL_MEM_READ_WRITE, 256);
  desc = image_desc(CL_MEM_OBJECT_IMAGE3D, 2, 2, 2, 1, buffer);
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &desc), CL_INVALID_IMAGE_DESCRIPTOR);
  desc = image_desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 100);  // needs its buffer
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &desc), CL_INVALID_IMAGE_DESCRIPTOR);
  desc = image_desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 65, 1, 1, 1, buffer);  // 260 bytes of 256
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &desc), CL_INVALID_IMAGE_SIZE);
  desc = image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 9, 1, 1, buffer);  // 9 rows of 32 bytes
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_WRITE, &rgba8, &desc), CL_INVALID_IMAGE_SIZE);
  desc = image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 8, 1, 1, buffer);
  EXPECT_EQ(image_error(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, &desc, host.data()), CL_INVALID_VALUE);
  Mem read_only = make_buffer(env.context, CL_MEM_READ_ONLY, 256);
  desc.mem_object = read_only;
  EXPECT_EQ(image_error(env.context, CL_MEM_WRITE_ONLY, &rgba8, &desc), CL_INVALID_VALUE);
  // clCreateImage2D/3D: their pitch errors are CL_INVALID_IMAGE_SIZE.
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateImage2D(env.context, CL_MEM_READ_WRITE, &rgba8, 16, 16, 64, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(clCreateImage3D(env.context, CL_MEM_READ_WRITE, &rgba8, 16, 16, 1, 0, 0, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_IMAGE_SIZE);
  cl_mem legacy = clCreateImage3D(env.context, CL_MEM_READ_WRITE, &rgba8, 16, 16, 2, 0, 0, nullptr, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(info_value<cl_mem_object_type>(clGetMemObjectInfo, legacy, CL_MEM_TYPE),
            cl_mem_object_type(CL_MEM_OBJECT_IMAGE3D));
  clReleaseMemObject(legacy);
}

// Reads and writes of a sub-rectangle of each type, with the application's pitches.
TEST_P(ImageMemory, ReadAndWriteRectanglesWithPitches) {
  struct Case {
    cl_image_desc desc;
    std::array<size_t, 3> origin, region;
  };
  const Case cases[] = {
      {image_desc(CL_MEM_OBJECT_IMAGE1D, 20), {3, 0, 0}, {9, 1, 1}},
      {image_desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 20, 1, 1, 6), {3, 1, 0}, {9, 4, 1}},
      {image_desc(CL_MEM_OBJECT_IMAGE2D, 20, 11), {3, 2, 0}, {9, 5, 1}},
      {image_desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 20, 11, 1, 4), {3, 2, 1}, {9, 5, 2}},
      {image_desc(CL_MEM_OBJECT_IMAGE3D, 20, 11, 5), {3, 2, 1}, {9, 5, 3}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "type 0x" << std::hex << c.desc.image_type);
    Mem image = make_image(env.context, CL_MEM_READ_WRITE, rgba8, c.desc);
    const size_t pixel = 4;
    const bool is_1d_array = c.desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    const bool layered = c.region[2] > 1 || c.desc.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                         c.desc.image_type == CL_MEM_OBJECT_IMAGE3D;
    // The host rectangle has padded rows, and padded slices where the type has them.
    const size_t row = c.region[0] * pixel + 12;
    const size_t slice = is_1d_array ? row + 8 : row * c.region[1] + 40;
    const size_t slice_pitch = is_1d_array || layered ? slice : 0;
    const size_t host_bytes = is_1d_array ? slice * c.region[1] : slice * c.region[2];
    auto source = pattern(host_bytes);
    ASSERT_EQ(clEnqueueWriteImage(env.queue, image, CL_TRUE, c.origin.data(), c.region.data(), row, slice_pitch,
                                  source.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    // Read back packed: every pixel of the rectangle, nothing of the padding.
    std::vector<unsigned char> packed(c.region[0] * c.region[1] * c.region[2] * pixel);
    ASSERT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, c.origin.data(), c.region.data(), 0, 0, packed.data(), 0,
                                 nullptr, nullptr),
              CL_SUCCESS);
    for (size_t z = 0; z < c.region[2]; ++z) {
      for (size_t y = 0; y < c.region[1]; ++y) {
        const size_t host_row = is_1d_array ? y * slice : z * slice + y * row;
        const size_t packed_row = (z * c.region[1] + y) * c.region[0] * pixel;
        ASSERT_EQ(std::memcmp(packed.data() + packed_row, source.data() + host_row, c.region[0] * pixel), 0)
            << "row " << y << " slice " << z;
      }
    }
  }
}

TEST_P(ImageMemory, CommandErrors) {
  Mem image = make_image(env.context, CL_MEM_READ_WRITE, rgba8, image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 8));
  Mem image1d = make_image(env.context, CL_MEM_READ_WRITE, rgba8, image_desc(CL_MEM_OBJECT_IMAGE1D, 8));
  std::vector<unsigned char> host(1024);
  const size_t origin[3] = {0, 0, 0}, region[3] = {8, 8, 1};
  auto read = [&](cl_mem target, const size_t* o, const size_t* r, size_t row = 0, size_t slice = 0) {
    return clEnqueueReadImage(env.queue, target, CL_TRUE, o, r, row, slice, host.data(), 0, nullptr, nullptr);
  };
  EXPECT_EQ(read(image, origin, region), CL_SUCCESS);
  EXPECT_EQ(read(image, nullptr, region), CL_INVALID_VALUE);
  EXPECT_EQ(read(image, origin, nullptr), CL_INVALID_VALUE);
  const size_t past[3] = {1, 0, 0};
  EXPECT_EQ(read(image, past, region), CL_INVALID_VALUE);
  const size_t deep[3] = {8, 8, 2};
  EXPECT_EQ(read(image, origin, deep), CL_INVALID_VALUE) << "a 2D image has one slice";
  const size_t empty[3] = {0, 8, 1};
  EXPECT_EQ(read(image, origin, empty), CL_INVALID_VALUE);
  EXPECT_EQ(read(image, origin, region, 31), CL_INVALID_VALUE) << "row pitch below 8 pixels";
  EXPECT_EQ(read(image, origin, region, 0, 256), CL_INVALID_VALUE) << "a 2D image takes no slice pitch";
  const size_t tall[3] = {8, 2, 1};
  EXPECT_EQ(read(image1d, origin, tall), CL_INVALID_VALUE) << "a 1D image has one row";
  EXPECT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, region, 0, 0, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  Mem buffer = make_buffer(env.context, CL_MEM_READ_WRITE, 64);
  EXPECT_EQ(read(buffer, origin, region), CL_INVALID_MEM_OBJECT);
  Env other(env.device);
  EXPECT_EQ(clEnqueueReadImage(other.queue, image, CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  // Host access flags.
  Mem no_reads = make_image(env.context, CL_MEM_HOST_WRITE_ONLY, rgba8, image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 8));
  EXPECT_EQ(read(no_reads, origin, region), CL_INVALID_OPERATION);
  Mem no_writes = make_image(env.context, CL_MEM_HOST_READ_ONLY, rgba8, image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 8));
  EXPECT_EQ(clEnqueueWriteImage(env.queue, no_writes, CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  // Copies: formats must match; an image may not overlap itself.
  const cl_image_format float4{CL_RGBA, CL_FLOAT};
  Mem floats = make_image(env.context, CL_MEM_READ_WRITE, float4, image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 8));
  EXPECT_EQ(clEnqueueCopyImage(env.queue, image, floats, origin, origin, region, 0, nullptr, nullptr),
            CL_IMAGE_FORMAT_MISMATCH);
  const size_t half[3] = {4, 4, 1}, shifted[3] = {2, 2, 0}, apart[3] = {4, 4, 0};
  EXPECT_EQ(clEnqueueCopyImage(env.queue, image, image, origin, shifted, half, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyImage(env.queue, image, image, origin, apart, half, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueCopyImageToBuffer(env.queue, image, buffer, origin, region, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE) << "256 bytes into 64";
  EXPECT_EQ(clEnqueueCopyBufferToImage(env.queue, buffer, image, 4, origin, half, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillImage(env.queue, image, nullptr, origin, region, 0, nullptr, nullptr), CL_INVALID_VALUE);
  // Maps: the row pitch is required, the slice pitch for layered images.
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clEnqueueMapImage(env.queue, image, CL_TRUE, CL_MAP_READ, origin, region, nullptr, nullptr, 0, nullptr,
                              nullptr, &status),
            nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  Mem cube = make_image(env.context, CL_MEM_READ_WRITE, rgba8, image_desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4));
  size_t row_pitch = 0;
  const size_t cube_region[3] = {4, 4, 4};
  EXPECT_EQ(clEnqueueMapImage(env.queue, cube, CL_TRUE, CL_MAP_READ, origin, cube_region, &row_pitch, nullptr, 0,
                              nullptr, nullptr, &status),
            nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMapImage(env.queue, image, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, origin,
                              region, &row_pitch, nullptr, 0, nullptr, nullptr, &status),
            nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
}

// Image to image (2D into a slice of a 3D image), image to buffer and back.
TEST_P(ImageMemory, CopiesBetweenImagesAndBuffers) {
  const size_t pixel = 4;
  auto source = pattern(8 * 6 * pixel);
  Mem flat = make_image(env.context, CL_MEM_COPY_HOST_PTR, rgba8, image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 6),
                        source.data());
  Mem cube = make_image(env.context, CL_MEM_READ_WRITE, rgba8, image_desc(CL_MEM_OBJECT_IMAGE3D, 10, 10, 3));
  const size_t src_origin[3] = {2, 1, 0}, dst_origin[3] = {5, 4, 2}, region[3] = {5, 4, 1};
  ASSERT_EQ(clEnqueueCopyImage(env.queue, flat, cube, src_origin, dst_origin, region, 0, nullptr, nullptr), CL_SUCCESS);
  Mem buffer = make_buffer(env.context, CL_MEM_READ_WRITE, 5 * 4 * pixel + 8);
  ASSERT_EQ(clEnqueueCopyImageToBuffer(env.queue, cube, buffer, dst_origin, region, 8, 0, nullptr, nullptr), CL_SUCCESS);
  auto copied = read_buffer<unsigned char>(env.queue, buffer, 5 * 4 * pixel + 8);
  for (size_t y = 0; y < 4; ++y) {
    const size_t from = ((src_origin[1] + y) * 8 + src_origin[0]) * pixel;
    ASSERT_EQ(std::memcmp(copied.data() + 8 + y * 5 * pixel, source.data() + from, 5 * pixel), 0) << "row " << y;
  }
  Mem back = make_image(env.context, CL_MEM_READ_WRITE, rgba8, image_desc(CL_MEM_OBJECT_IMAGE2D, 5, 4));
  const size_t zero[3] = {0, 0, 0};
  ASSERT_EQ(clEnqueueCopyBufferToImage(env.queue, buffer, back, 8, zero, region, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<unsigned char> pixels(5 * 4 * pixel);
  ASSERT_EQ(clEnqueueReadImage(env.queue, back, CL_TRUE, zero, region, 0, 0, pixels.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(std::memcmp(pixels.data(), copied.data() + 8, pixels.size()), 0);
}

// A fill colour becomes one pixel of the format, rounded to nearest even and saturated.
TEST_P(ImageMemory, FillConvertsTheColourToEachFormat) {
  struct Case {
    cl_image_format format;
    std::array<uint32_t, 4> color;  // float bits, or integers
    std::vector<unsigned char> pixel;
  };
  auto f = [](float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return bits;
  };
  const float three_quarters = 0.75f;
  std::vector<unsigned char> luminance(4);
  std::memcpy(luminance.data(), &three_quarters, 4);
  const Case cases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, {f(0.5f), f(1.0f), f(0.0f), f(0.25f)}, {128, 255, 0, 64}},
      {{CL_BGRA, CL_UNORM_INT8}, {f(0.5f), f(1.0f), f(0.0f), f(0.25f)}, {0, 255, 128, 64}},
      {{CL_RGBA, CL_UNORM_INT8}, {f(-1.0f), f(2.0f), f(0.1f), f(1.0f)}, {0, 255, 26, 255}},
      {{CL_R, CL_SNORM_INT16}, {f(-0.5f), 0, 0, 0}, {0x00, 0xC0}},
      {{CL_RGBA, CL_HALF_FLOAT}, {f(1.0f), f(-2.0f), f(0.5f), f(65504.0f)},
       {0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38, 0xFF, 0x7B}},
      {{CL_RGBA, CL_SIGNED_INT8}, {300, uint32_t(-300), 5, uint32_t(-5)}, {127, 128, 5, 251}},
      {{CL_RG, CL_UNSIGNED_INT16}, {70000, 2, 0, 0}, {0xFF, 0xFF, 2, 0}},
      {{CL_RGB, CL_UNORM_SHORT_565}, {f(1.0f), f(0.5f), f(0.0f), 0}, {0x00, 0xFC}},
      {{CL_RGBA, CL_UNORM_INT_101010_2}, {f(1.0f), f(0.0f), f(1.0f), f(1.0f)}, {0xFF, 0x0F, 0xC0, 0xFF}},
      {{CL_A, CL_UNORM_INT16}, {f(0.0f), f(0.0f), f(0.0f), f(1.0f)}, {0xFF, 0xFF}},
      {{CL_LUMINANCE, CL_FLOAT}, {f(0.75f), f(0.0f), f(0.0f), f(1.0f)}, luminance},
      {{CL_sRGBA, CL_UNORM_INT8}, {f(0.5f), f(0.0f), f(1.0f), f(1.0f)}, {188, 0, 255, 255}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "format 0x" << std::hex << c.format.image_channel_order << "/0x"
                                    << c.format.image_channel_data_type);
    const cl_mem_flags flags = c.format.image_channel_order == CL_sRGBA ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
    Mem image = make_image(env.context, flags, c.format, image_desc(CL_MEM_OBJECT_IMAGE2D, 3, 2));
    const size_t origin[3] = {1, 1, 0}, region[3] = {2, 1, 1}, all[3] = {3, 2, 1}, zero[3] = {0, 0, 0};
    ASSERT_EQ(clEnqueueFillImage(env.queue, image, c.color.data(), origin, region, 0, nullptr, nullptr), CL_SUCCESS);
    const size_t pixel = c.pixel.size();
    std::vector<unsigned char> pixels(3 * 2 * pixel, 0xAB);
    ASSERT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, zero, all, 0, 0, pixels.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    for (size_t i : {4u, 5u}) {  // (1, 1) and (2, 1)
      EXPECT_EQ(std::vector<unsigned char>(pixels.begin() + i * pixel, pixels.begin() + (i + 1) * pixel), c.pixel)
          << "pixel " << i;
    }
  }
}

// A fill of a box inside a 3D image and a 2D array (rows apart, slices apart) colours every
// pixel of the box and no other, with pixels of 1, 2, 4, 8 and 16 bytes, at odd origins
// too (the rows are then not word-aligned).
TEST_P(ImageMemory, FillColoursEveryRowOfABoxAndNothingAround) {
  struct Case {
    cl_image_format format;
    std::array<uint32_t, 4> color;
    size_t channels, channel_bytes;
  };
  const Case cases[] = {{{CL_R, CL_UNSIGNED_INT8}, {0x5A, 0, 0, 0}, 1, 1},
                        {{CL_RG, CL_UNSIGNED_INT8}, {0x12, 0x34, 0, 0}, 2, 1},
                        {{CL_RGBA, CL_UNSIGNED_INT8}, {1, 2, 3, 4}, 4, 1},
                        {{CL_RGBA, CL_UNSIGNED_INT16}, {0x1111, 0x2222, 0x3333, 0x4444}, 4, 2},
                        {{CL_RGBA, CL_UNSIGNED_INT32}, {0x01020304, 0x05060708, 0x090A0B0C, 0x0D0E0F10}, 4, 4}};
  constexpr size_t width = 7, height = 5, depth = 4;
  for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D_ARRAY}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(testing::Message() << "type 0x" << std::hex << type << ", format 0x" << c.format.image_channel_order
                                      << "/0x" << c.format.image_channel_data_type);
      const cl_image_desc desc = type == CL_MEM_OBJECT_IMAGE3D ? image_desc(type, width, height, depth)
                                                               : image_desc(type, width, height, 1, depth);
      Mem image = make_image(env.context, CL_MEM_READ_WRITE, c.format, desc);
      const size_t pixel = c.channels * c.channel_bytes;
      const size_t all[3] = {width, height, depth}, zero[3] = {0, 0, 0};
      const std::vector<unsigned char> before = pattern(width * height * depth * pixel);
      ASSERT_EQ(clEnqueueWriteImage(env.queue, image, CL_FALSE, zero, all, 0, 0, before.data(), 0, nullptr, nullptr),
                CL_SUCCESS);
      const size_t origin[3] = {1, 1, 1}, region[3] = {5, 3, 2};
      ASSERT_EQ(clEnqueueFillImage(env.queue, image, c.color.data(), origin, region, 0, nullptr, nullptr),
                CL_SUCCESS);
      std::vector<unsigned char> after(before.size(), 0xEE);
      ASSERT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, zero, all, 0, 0, after.data(), 0, nullptr, nullptr),
                CL_SUCCESS);
      std::vector<unsigned char> colour(pixel);
      for (size_t byte = 0; byte < pixel; ++byte) {  // unsigned channels, little-endian
        colour[byte] = static_cast<unsigned char>(c.color[byte / c.channel_bytes] >> (8 * (byte % c.channel_bytes)));
      }
      size_t wrong = 0;
      for (size_t z = 0; z < depth; ++z) {
        for (size_t y = 0; y < height; ++y) {
          for (size_t x = 0; x < width; ++x) {
            const bool inside = x >= origin[0] && x < origin[0] + region[0] && y >= origin[1] &&
                                y < origin[1] + region[1] && z >= origin[2] && z < origin[2] + region[2];
            const size_t at = ((z * height + y) * width + x) * pixel;
            const std::vector<unsigned char> got(after.begin() + at, after.begin() + at + pixel);
            const std::vector<unsigned char> want =
                inside ? colour : std::vector<unsigned char>(before.begin() + at, before.begin() + at + pixel);
            if (got != want && ++wrong <= 3) ADD_FAILURE() << "pixel (" << x << ", " << y << ", " << z << ")";
          }
        }
      }
      EXPECT_EQ(wrong, 0u);
    }
  }
}

TEST_P(ImageMemory, MapsShowThePixelsWithTheImagePitches) {
  auto source = pattern(6 * 5 * 3 * 4);
  Mem cube = make_image(env.context, CL_MEM_COPY_HOST_PTR, rgba8, image_desc(CL_MEM_OBJECT_IMAGE3D, 6, 5, 3),
                        source.data());
  const size_t origin[3] = {1, 2, 1}, region[3] = {3, 2, 2};
  size_t row_pitch = 0, slice_pitch = 0;
  cl_int status = CL_OUT_OF_RESOURCES;
  auto* mapped = static_cast<unsigned char*>(clEnqueueMapImage(env.queue, cube, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                               origin, region, &row_pitch, &slice_pitch, 0, nullptr,
                                                               nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(row_pitch, 6u * 4);
  EXPECT_EQ(slice_pitch, 6u * 5 * 4);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, cube.get(), CL_MEM_MAP_COUNT), 1u);
  // Pixel (1, 2, 1) first; then write pixel (3, 3, 2) through the map.
  const size_t first = ((1 * 5 + 2) * 6 + 1) * 4;
  EXPECT_EQ(std::memcmp(mapped, source.data() + first, 4), 0);
  unsigned char* last = mapped + 1 * slice_pitch + 1 * row_pitch + 2 * 4;
  std::memset(last, 0xEE, 4);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, cube, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, cube.get(), CL_MEM_MAP_COUNT), 0u);
  const size_t pixel_origin[3] = {3, 3, 2}, one[3] = {1, 1, 1};
  unsigned char value[4] = {};
  ASSERT_EQ(clEnqueueReadImage(env.queue, cube, CL_TRUE, pixel_origin, one, 0, 0, value, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(value[0], 0xEE);
  EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, cube, mapped, 0, nullptr, nullptr), CL_INVALID_VALUE)
      << "already unmapped";
}

// USE_HOST_PTR images live in the application's memory, with its pitch; images made from a
// buffer or an image share that object's pixels.
TEST_P(ImageMemory, SharedStorage) {
  const size_t pixel = 4, row_pitch = 48;  // 8 pixels and 16 bytes of padding
  auto host = pattern(row_pitch * 4);
  auto desc = image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 4);
  desc.image_row_pitch = row_pitch;
  Mem in_host = make_image(env.context, CL_MEM_USE_HOST_PTR, rgba8, desc, host.data());
  EXPECT_EQ(info_value<void*>(clGetMemObjectInfo, in_host.get(), CL_MEM_HOST_PTR), host.data());
  EXPECT_EQ(info_value<size_t>(clGetImageInfo, in_host.get(), CL_IMAGE_ROW_PITCH), row_pitch);
  const size_t at[3] = {2, 3, 0}, one[3] = {1, 1, 1};
  unsigned char value[4] = {};
  ASSERT_EQ(clEnqueueReadImage(env.queue, in_host, CL_TRUE, at, one, 0, 0, value, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::memcmp(value, host.data() + 3 * row_pitch + 2 * pixel, 4), 0);

  Mem buffer = make_buffer(env.context, CL_MEM_READ_WRITE, row_pitch * 4);
  desc.mem_object = buffer;
  Mem from_buffer = make_image(env.context, 0, rgba8, desc);
  EXPECT_EQ(info_value<cl_mem>(clGetImageInfo, from_buffer.get(), CL_IMAGE_BUFFER), buffer.get());
  EXPECT_EQ(info_value<cl_mem_flags>(clGetMemObjectInfo, from_buffer.get(), CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_READ_WRITE));
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_TRUE, 0, host.size(), host.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadImage(env.queue, from_buffer, CL_TRUE, at, one, 0, 0, value, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(std::memcmp(value, host.data() + 3 * row_pitch + 2 * pixel, 4), 0);

  // Another channel order over the same pixels (here, sRGB over linear), read-only.
  const cl_image_format linear{CL_RGBA, CL_UNORM_INT8}, srgb{CL_sRGBA, CL_UNORM_INT8};
  Mem plain = make_image(env.context, CL_MEM_COPY_HOST_PTR, linear, image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 4),
                         host.data());
  auto view_desc = image_desc(CL_MEM_OBJECT_IMAGE2D, 8, 4, 1, 1, plain);
  Mem view = make_image(env.context, CL_MEM_READ_ONLY, srgb, view_desc);
  EXPECT_EQ(info_value<cl_mem>(clGetMemObjectInfo, view.get(), CL_MEM_ASSOCIATED_MEMOBJECT), plain.get());
  ASSERT_EQ(clEnqueueReadImage(env.queue, view, CL_TRUE, at, one, 0, 0, value, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::memcmp(value, host.data() + (3 * 8 + 2) * pixel, 4), 0);
  view_desc.image_width = 7;
  EXPECT_EQ(image_error(env.context, CL_MEM_READ_ONLY, &srgb, &view_desc), CL_INVALID_IMAGE_DESCRIPTOR);
}

TEST_P(ImageMemory, Samplers) {
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_sampler sampler = clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(info_value<cl_context>(clGetSamplerInfo, sampler, CL_SAMPLER_CONTEXT), env.context);
  EXPECT_EQ(info_value<cl_bool>(clGetSamplerInfo, sampler, CL_SAMPLER_NORMALIZED_COORDS), cl_bool(CL_TRUE));
  EXPECT_EQ(info_value<cl_addressing_mode>(clGetSamplerInfo, sampler, CL_SAMPLER_ADDRESSING_MODE),
            cl_addressing_mode(CL_ADDRESS_MIRRORED_REPEAT));
  EXPECT_EQ(info_value<cl_filter_mode>(clGetSamplerInfo, sampler, CL_SAMPLER_FILTER_MODE),
            cl_filter_mode(CL_FILTER_LINEAR));
  size_t size = 99;
  EXPECT_EQ(clGetSamplerInfo(sampler, CL_SAMPLER_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(clRetainSampler(sampler), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(clGetSamplerInfo, sampler, CL_SAMPLER_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseSampler(sampler), CL_SUCCESS);
  EXPECT_EQ(clReleaseSampler(sampler), CL_SUCCESS);

  // With properties: the defaults for what is not given, the list as given.
  const cl_sampler_properties properties[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  sampler = clCreateSamplerWithProperties(env.context, properties, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(info_value<cl_bool>(clGetSamplerInfo, sampler, CL_SAMPLER_NORMALIZED_COORDS), cl_bool(CL_TRUE));
  EXPECT_EQ(info_value<cl_addressing_mode>(clGetSamplerInfo, sampler, CL_SAMPLER_ADDRESSING_MODE),
            cl_addressing_mode(CL_ADDRESS_CLAMP));
  std::array<cl_sampler_properties, 3> given{};
  EXPECT_EQ(clGetSamplerInfo(sampler, CL_SAMPLER_PROPERTIES, sizeof given, given.data(), &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof given);
  EXPECT_EQ(given[1], cl_sampler_properties(CL_FILTER_LINEAR));
  EXPECT_EQ(clReleaseSampler(sampler), CL_SUCCESS);

  const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                         CL_FILTER_LINEAR, 0};
  EXPECT_EQ(create_error([&](cl_int* e) { return clCreateSamplerWithProperties(env.context, twice, e); }),
            CL_INVALID_VALUE);
  EXPECT_EQ(create_error([&](cl_int* e) { return clCreateSampler(env.context, 2, CL_ADDRESS_NONE, CL_FILTER_LINEAR, e); }),
            CL_INVALID_VALUE);
  EXPECT_EQ(create_error([&](cl_int* e) { return clCreateSampler(env.context, CL_FALSE, 0x7777, CL_FILTER_LINEAR, e); }),
            CL_INVALID_VALUE);
}

INSTANTIATE_TEST_SUITE_P(EveryImageDevice, ImageMemory, ::testing::ValuesIn(image_devices()), device_name);

}  // namespace

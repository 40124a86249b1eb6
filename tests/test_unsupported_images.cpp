// Images and samplers in a context whose device has no images (ctest runs this program with
// CUCL_IMAGES=0, so every device is such a device; skipped where every device has images), pipes, which no device supports, and handles that are not images,
// samplers or pipes: each entry point answers the exact error the specification gives, never
// a fake success (the one success is clGetSupportedImageFormats, whose true answer there is
// "no formats").
#include <array>

#include "image_test_helpers.h"
#include "unsupported_test_helpers.h"

using namespace cucl_test;
using namespace unsupported_test;

namespace {

using UnsupportedImages = Unsupported;

// A context on the first device without images.
class WithoutImages : public Unsupported {
 protected:
  WithoutImages() : Unsupported(device_or_host()) {}
  void SetUp() override {
    if (!image_test::device_without_images()) GTEST_SKIP() << "every device has images";
  }
  static cl_device_id device_or_host() {
    cl_device_id device = image_test::device_without_images();
    return device ? device : host_device();
  }
};

// ---- images ----------------------------------------------------------------------------

// OpenCL C defines __IMAGE_SUPPORT__ only on devices with images.
TEST_F(WithoutImages, ImageSupportMacroIsNotDefined) {
  const char* source = "#ifdef __IMAGE_SUPPORT__\n#error __IMAGE_SUPPORT__ is defined\n#endif\nkernel void k() {}\n";
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(env.context, 1, &source, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(program, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
  clReleaseProgram(program);
}

TEST_F(WithoutImages, CreateImageReportsNoImageSupportRightAfterTheContext) {
  cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 16;
  cl_mem_properties no_properties[] = {0};
  auto create = [&](cl_context context, cl_mem_flags flags, const cl_image_format* f, const cl_image_desc* d) {
    return create_error([&](cl_int* e) { return clCreateImage(context, flags, f, d, nullptr, e); });
  };
  auto create_with_properties = [&](cl_context context, cl_mem_flags flags, const cl_image_format* f,
                                    const cl_image_desc* d) {
    return create_error(
        [&](cl_int* e) { return clCreateImageWithProperties(context, no_properties, flags, f, d, nullptr, e); });
  };
  EXPECT_EQ(create(env.context, CL_MEM_READ_WRITE, &format, &desc), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(create(not_a_context(), CL_MEM_READ_WRITE, &format, &desc), CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) { return cucl.clCreateImage(nullptr, 0, &format, &desc, nullptr, e); }),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(create_with_properties(env.context, CL_MEM_READ_WRITE, &format, &desc), CL_INVALID_OPERATION);
  EXPECT_EQ(create_with_properties(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(create_with_properties(not_a_context(), CL_MEM_READ_WRITE, &format, &desc), CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) {
              return cucl.clCreateImageWithProperties(nullptr, nullptr, 0, &format, &desc, nullptr, e);
            }),
            CL_INVALID_CONTEXT);
}

// clCreateImage2D/3D list CL_INVALID_OPERATION after the checks of their own arguments.
TEST_F(WithoutImages, CreateImage2DChecksItsArgumentsFirst) {
  cl_image_format rgba8{CL_RGBA, CL_UNORM_INT8};
  std::array<unsigned char, 16 * 16 * 4> pixels{};
  auto create = [&](cl_context context, cl_mem_flags flags, const cl_image_format* format, size_t width,
                    size_t height, size_t row_pitch, void* host_ptr) {
    return create_error([&](cl_int* e) {
      return clCreateImage2D(context, flags, format, width, height, row_pitch, host_ptr, e);
    });
  };
  EXPECT_EQ(create(env.context, CL_MEM_READ_WRITE, &rgba8, 16, 16, 0, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, 16, 16, 64, pixels.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, 16, 16, 0, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 0, nullptr, 16, 16, 0, nullptr), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_format bad_order{0x7777, CL_UNORM_INT8};
  cl_image_format bad_type{CL_RGBA, 0x7777};
  cl_image_format packed_in_rgba{CL_RGBA, CL_UNORM_SHORT_565};
  for (const cl_image_format& format : {bad_order, bad_type, packed_in_rgba}) {
    EXPECT_EQ(create(env.context, 0, &format, 16, 16, 0, nullptr), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  }
  cl_image_format rgb565{CL_RGB, CL_UNORM_SHORT_565};
  EXPECT_EQ(create(env.context, 0, &rgb565, 16, 16, 0, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, 0, &rgba8, 0, 16, 0, nullptr), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(env.context, 0, &rgba8, 16, 0, 0, nullptr), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(env.context, 0, &rgba8, 16, 16, 64, nullptr), CL_INVALID_IMAGE_SIZE) << "pitch without host_ptr";
  EXPECT_EQ(create(env.context, CL_MEM_USE_HOST_PTR, &rgba8, 16, 16, 60, pixels.data()), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(env.context, CL_MEM_USE_HOST_PTR, &rgba8, 16, 16, 66, pixels.data()), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(env.context, 0, &rgba8, 16, 16, 0, pixels.data()), CL_INVALID_HOST_PTR);
  EXPECT_EQ(create(env.context, CL_MEM_USE_HOST_PTR, &rgba8, 16, 16, 0, nullptr), CL_INVALID_HOST_PTR);
  EXPECT_EQ(create(not_a_context(), 0, &rgba8, 16, 16, 0, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) { return cucl.clCreateImage2D(nullptr, 0, &rgba8, 16, 16, 0, nullptr, e); }),
            CL_INVALID_CONTEXT);
}

TEST_F(WithoutImages, CreateImage3DChecksItsArgumentsFirst) {
  cl_image_format r32f{CL_R, CL_FLOAT};
  std::array<float, 8 * 8 * 8> voxels{};
  auto create = [&](cl_context context, cl_mem_flags flags, size_t depth, size_t row_pitch, size_t slice_pitch,
                    void* host_ptr) {
    return create_error([&](cl_int* e) {
      return clCreateImage3D(context, flags, &r32f, 8, 8, depth, row_pitch, slice_pitch, host_ptr, e);
    });
  };
  EXPECT_EQ(create(env.context, 0, 8, 0, 0, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, CL_MEM_USE_HOST_PTR, 8, 32, 256, voxels.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_USE_HOST_PTR, 8, 0, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 0, 1, 0, 0, nullptr), CL_INVALID_IMAGE_SIZE) << "depth must exceed 1";
  EXPECT_EQ(create(env.context, 0, 8, 0, 256, nullptr), CL_INVALID_IMAGE_SIZE) << "slice pitch without host_ptr";
  EXPECT_EQ(create(env.context, CL_MEM_USE_HOST_PTR, 8, 0, 200, voxels.data()), CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(create(env.context, CL_MEM_USE_HOST_PTR, 8, 40, 340, voxels.data()), CL_INVALID_IMAGE_SIZE)
      << "slice pitch not a multiple of the row pitch";
  EXPECT_EQ(create(env.context, CL_MEM_USE_HOST_PTR, 8, 0, 0, nullptr), CL_INVALID_HOST_PTR);
  EXPECT_EQ(create(not_a_context(), 0, 8, 0, 0, nullptr), CL_INVALID_CONTEXT);
}

TEST_F(WithoutImages, SupportedImageFormatsAreNone) {
  const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                      CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE3D,
                                      CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY};
  const cl_mem_flags flag_sets[] = {0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                    CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR};
  for (cl_mem_object_type type : types) {
    for (cl_mem_flags flags : flag_sets) {
      cl_uint count = 99;
      EXPECT_EQ(clGetSupportedImageFormats(env.context, flags, type, 0, nullptr, &count), CL_SUCCESS);
      EXPECT_EQ(count, 0u) << "type 0x" << std::hex << type << " flags 0x" << flags;
    }
  }
  std::array<cl_image_format, 4> formats{};
  formats.fill({0x1234, 0x5678});
  cl_uint count = 99;
  EXPECT_EQ(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, formats.size(),
                                       formats.data(), &count),
            CL_SUCCESS);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(formats[0].image_channel_order, 0x1234u) << "no format is written";
  EXPECT_EQ(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, formats.size(),
                                       formats.data(), nullptr),
            CL_SUCCESS);

  EXPECT_EQ(clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, 0,
                                       nullptr, &count),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(env.context, cl_mem_flags(1) << 40, CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                       &count),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(env.context, 0, CL_MEM_OBJECT_BUFFER, 0, nullptr, &count), CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(env.context, 0, CL_MEM_OBJECT_PIPE, 0, nullptr, &count), CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(env.context, 0, CL_MEM_OBJECT_IMAGE2D, 0, formats.data(), &count),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(not_a_context(), 0, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(cucl.clGetSupportedImageFormats(nullptr, 0, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count),
            CL_INVALID_CONTEXT);
}

TEST_F(UnsupportedImages, NoMemoryObjectIsAnImageOrAPipe) {
  size_t size = 0;
  EXPECT_EQ(clGetImageInfo(buffer, CL_IMAGE_WIDTH, sizeof size, &size, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(cucl.clGetImageInfo(nullptr, CL_IMAGE_WIDTH, sizeof size, &size, nullptr), CL_INVALID_MEM_OBJECT);
  cl_uint packet = 0;
  EXPECT_EQ(clGetPipeInfo(buffer, CL_PIPE_PACKET_SIZE, sizeof packet, &packet, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(cucl.clGetPipeInfo(nullptr, CL_PIPE_PACKET_SIZE, sizeof packet, &packet, nullptr),
            CL_INVALID_MEM_OBJECT);
}

// Each image command with a queue (valid or not): the queue is checked, then the image.
void expect_image_commands(const cl_icd_dispatch& api, cl_command_queue queue, cl_mem image, cl_mem other,
                           cl_int expected) {
  std::array<unsigned char, 64> host{};
  size_t origin[] = {0, 0, 0};
  size_t region[] = {1, 1, 1};
  float color[4] = {};
  EXPECT_EQ(api.clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr),
            expected);
  EXPECT_EQ(api.clEnqueueWriteImage(queue, image, CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr),
            expected);
  EXPECT_EQ(api.clEnqueueCopyImage(queue, image, image, origin, origin, region, 0, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueFillImage(queue, image, color, origin, region, 0, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueCopyImageToBuffer(queue, image, other, origin, region, 0, 0, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueCopyBufferToImage(queue, other, image, 0, origin, region, 0, nullptr, nullptr), expected);
  size_t row_pitch = 0, slice_pitch = 0;
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(api.clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_READ, origin, region, &row_pitch, &slice_pitch, 0,
                                  nullptr, nullptr, &status),
            nullptr);
  EXPECT_EQ(status, expected);
  EXPECT_EQ(api.clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_READ, origin, region, &row_pitch, &slice_pitch, 0,
                                  nullptr, nullptr, nullptr),
            nullptr);
}

TEST_F(UnsupportedImages, ImageCommandsFindNoImage) {
  expect_image_commands(cucl, env.queue, buffer, buffer, CL_INVALID_MEM_OBJECT);
  expect_image_commands(cucl, env.queue, nullptr, buffer, CL_INVALID_MEM_OBJECT);
  expect_image_commands(cucl, not_a_queue(), buffer, buffer, CL_INVALID_COMMAND_QUEUE);
  expect_image_commands(cucl, nullptr, nullptr, nullptr, CL_INVALID_COMMAND_QUEUE);
  size_t origin[] = {0, 0, 0};
  size_t region[] = {1, 1, 1};
  unsigned char host[4] = {};
  EXPECT_EQ(clEnqueueReadImage(env.queue, buffer, CL_TRUE, origin, region, 0, 0, host, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT)
      << "through the loader";
}

// ---- samplers --------------------------------------------------------------------------

TEST_F(WithoutImages, CreateSamplerChecksItsArgumentsThenImageSupport) {
  auto create = [&](cl_context context, cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
    return create_error([&](cl_int* e) { return clCreateSampler(context, normalized, addressing, filter, e); });
  };
  EXPECT_EQ(create(env.context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, 2, CL_ADDRESS_NONE, CL_FILTER_NEAREST), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, CL_FALSE, 0x7777, CL_FILTER_NEAREST), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, CL_FALSE, CL_ADDRESS_NONE, 0x7777), CL_INVALID_VALUE);
  EXPECT_EQ(create(not_a_context(), CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST), CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) {
              return cucl.clCreateSampler(nullptr, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, e);
            }),
            CL_INVALID_CONTEXT);
}

TEST_F(WithoutImages, CreateSamplerWithPropertiesChecksThePropertiesThenImageSupport) {
  auto create = [&](cl_context context, const cl_sampler_properties* properties) {
    return create_error([&](cl_int* e) { return clCreateSamplerWithProperties(context, properties, e); });
  };
  const cl_sampler_properties full[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_ADDRESSING_MODE,
                                        CL_ADDRESS_MIRRORED_REPEAT, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  const cl_sampler_properties empty[] = {0};
  const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                         CL_FILTER_LINEAR, 0};
  const cl_sampler_properties unknown[] = {0x7777, 0, 0};
  const cl_sampler_properties mipmap[] = {CL_SAMPLER_MIP_FILTER_MODE_KHR, CL_FILTER_NEAREST, 0};
  const cl_sampler_properties bad_coords[] = {CL_SAMPLER_NORMALIZED_COORDS, 5, 0};
  const cl_sampler_properties bad_addressing[] = {CL_SAMPLER_ADDRESSING_MODE, CL_FILTER_LINEAR, 0};
  const cl_sampler_properties bad_filter[] = {CL_SAMPLER_FILTER_MODE, CL_ADDRESS_CLAMP, 0};
  EXPECT_EQ(create(env.context, full), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, empty), CL_INVALID_OPERATION);
  EXPECT_EQ(create(env.context, nullptr), CL_INVALID_OPERATION);
  for (const cl_sampler_properties* properties : {twice, unknown, mipmap, bad_coords, bad_addressing, bad_filter}) {
    EXPECT_EQ(create(env.context, properties), CL_INVALID_VALUE) << "property 0x" << std::hex << properties[0];
  }
  EXPECT_EQ(create(not_a_context(), full), CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) { return cucl.clCreateSamplerWithProperties(nullptr, full, e); }),
            CL_INVALID_CONTEXT);
}

TEST_F(UnsupportedImages, SamplerCallsFindNoSampler) {
  cl_uint count = 0;
  for (cl_sampler sampler : {cl_sampler(nullptr), not_a_sampler()}) {
    EXPECT_EQ(cucl.clRetainSampler(sampler), CL_INVALID_SAMPLER);
    EXPECT_EQ(cucl.clReleaseSampler(sampler), CL_INVALID_SAMPLER);
    EXPECT_EQ(cucl.clGetSamplerInfo(sampler, CL_SAMPLER_REFERENCE_COUNT, sizeof count, &count, nullptr),
              CL_INVALID_SAMPLER);
  }
  EXPECT_EQ(clRetainSampler(not_a_sampler()), CL_INVALID_SAMPLER) << "through the loader";
}

// ---- pipes -----------------------------------------------------------------------------

TEST_F(UnsupportedImages, CreatePipeReportsNoPipeSupport) {
  EXPECT_EQ(create_error([&](cl_int* e) { return clCreatePipe(env.context, 0, 16, 16, nullptr, e); }),
            CL_INVALID_OPERATION);
  // Pipe support is listed before the checks of flags and sizes.
  EXPECT_EQ(create_error([&](cl_int* e) {
              return clCreatePipe(env.context, CL_MEM_USE_HOST_PTR, 0, 0, nullptr, e);
            }),
            CL_INVALID_OPERATION);
  EXPECT_EQ(create_error([&](cl_int* e) { return clCreatePipe(not_a_context(), 0, 16, 16, nullptr, e); }),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) { return cucl.clCreatePipe(nullptr, 0, 16, 16, nullptr, e); }),
            CL_INVALID_CONTEXT);
}

}  // namespace

// The image rows: clEnqueueWriteImage, clEnqueueReadImage and clEnqueueCopyImage of a
// 4096 x 4096 RGBA8 image (64 MiB), and a kernel that resamples a 4096 x 4096 image into
// another through a bilinear sampler, in RGBA8 and in RGBA float, checked on the host before
// its time counts. A device without images, or without a format, gets a note instead.
#include "image_util.h"
#include "measurements.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {
namespace {

// The kernel reads at coordinates shrunk by `scale`, so that they fall between the source's
// pixel centres and every read really interpolates.
const char* kResampleSource = R"CLC(
constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__kernel void resample(read_only image2d_t src, write_only image2d_t dst, float2 scale) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 at = ((float2)((float)x, (float)y) + 0.5f) * scale /
                    (float2)((float)get_image_width(src), (float)get_image_height(src));
  write_imagef(dst, (int2)(x, y), read_imagef(src, bilinear, at));
}
)CLC";
constexpr float kScaleX = 0.9993f, kScaleY = 0.9987f;

constexpr std::size_t kMaxSide = 4096;

// The side of the square images: 4096, halved while an image would not fit the bandwidth
// rows' budget (--quick) or one allocation of the device.
std::size_t image_side(const Session& session, const Settings& settings, const PixelFormat& pixel) {
  const auto max_width = device_value<std::size_t>(session.device(), CL_DEVICE_IMAGE2D_MAX_WIDTH);
  const auto max_height = device_value<std::size_t>(session.device(), CL_DEVICE_IMAGE2D_MAX_HEIGHT);
  const auto max_alloc = device_value<cl_ulong>(session.device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const std::uint64_t budget = std::min<std::uint64_t>(settings.max_buffer_bytes, max_alloc);
  std::size_t side = std::min({kMaxSide, max_width, max_height});
  while (side > 16 && side * side * pixel.pixel_bytes > budget) side /= 2;
  return side;
}

Image create_image(const Session& session, cl_mem_flags flags, const PixelFormat& pixel, std::size_t side,
                   const void* pixels) {
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = side;
  desc.image_height = side;
  cl_int status = CL_SUCCESS;
  Image image(clCreateImage(session.context(), flags | (pixels ? CL_MEM_COPY_HOST_PTR : 0), &pixel.format, &desc,
                            const_cast<void*>(pixels), &status));
  check(status, "clCreateImage");
  return image;
}

// The pixel at (x, y) as read_imagef would return it.
template <typename Channel>
std::array<float, kChannels> read_pixel(cl_command_queue queue, cl_mem image, std::size_t x, std::size_t y) {
  std::array<Channel, kChannels> raw{};
  const std::size_t origin[3] = {x, y, 0}, region[3] = {1, 1, 1};
  BENCH_CL(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0, raw.data(), 0, nullptr, nullptr));
  std::array<float, kChannels> pixel{};
  for (std::size_t c = 0; c < kChannels; ++c)
    pixel[c] = std::is_same_v<Channel, cl_float> ? raw[c] : static_cast<float>(raw[c]) / 255.0f;
  return pixel;
}

// Whether the output pixel (x, y) lies, channel by channel, between the smallest and the
// largest of the four source pixels it blends. Half an 8-bit step of slack covers the
// rounding of the blend (and of its UNORM_INT8 store), never a pixel from elsewhere.
bool within_neighbours(const std::array<float, kChannels>& pixel, std::size_t x, std::size_t y, std::size_t side) {
  const auto [x0, x1] = neighbours(x, side, kScaleX);
  const auto [y0, y1] = neighbours(y, side, kScaleY);
  constexpr float kSlack = 0.5f / 255.0f;
  for (std::size_t c = 0; c < kChannels; ++c) {
    const std::array<unsigned, 4> around = {level((y0 * side + x0) * kChannels + c),
                                            level((y0 * side + x1) * kChannels + c),
                                            level((y1 * side + x0) * kChannels + c),
                                            level((y1 * side + x1) * kChannels + c)};
    const auto [low, high] = std::minmax_element(around.begin(), around.end());
    if (pixel[c] < static_cast<float>(*low) / 255.0f - kSlack || pixel[c] > static_cast<float>(*high) / 255.0f + kSlack)
      return false;
  }
  return true;
}

// The resample's output at the corners and at pseudo-random places, against the host.
template <typename Channel>
bool resampled_correctly(cl_command_queue queue, cl_mem dst, std::size_t side) {
  for (std::size_t probe = 0; probe < 64; ++probe) {
    const std::size_t x = probe < 2 ? probe * (side - 1) : (probe * 2654435761u) % side;
    const std::size_t y = probe < 2 ? probe * (side - 1) : (probe * 40503u + 17) % side;
    if (!within_neighbours(read_pixel<Channel>(queue, dst, x, y), x, y, side)) return false;
  }
  return true;
}

// Output pixels per second of `kernel` resampling a side x side image of `Channel`s. On a
// CPU device one timed run follows the warm-up: a run there takes a good part of a second.
template <typename Channel>
Cell measure_resample(const Session& session, cl_kernel kernel, const PixelFormat& pixel, const Settings& settings) {
  if (!supports(session, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, pixel) ||
      !supports(session, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, pixel))
    return {std::nullopt, missing_format_note(pixel)};
  const std::size_t side = image_side(session, settings, pixel);
  Image src = create_image(session, CL_MEM_READ_ONLY, pixel, side, source_channels<Channel>(side * side).data());
  Image dst = create_image(session, CL_MEM_WRITE_ONLY, pixel, side, nullptr);
  cl_mem src_mem = src.get(), dst_mem = dst.get();
  const cl_float2 scale = {{kScaleX, kScaleY}};
  BENCH_CL(clSetKernelArg(kernel, 0, sizeof src_mem, &src_mem));
  BENCH_CL(clSetKernelArg(kernel, 1, sizeof dst_mem, &dst_mem));
  BENCH_CL(clSetKernelArg(kernel, 2, sizeof scale, &scale));
  const std::size_t global[2] = {side, side};
  cl_command_queue queue = session.queue();
  const double seconds = median_seconds(is_cpu(session) ? 1 : settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  if (!resampled_correctly<Channel>(queue, dst_mem, side)) return {std::nullopt, "wrong result"};
  return {static_cast<double>(side) * side / seconds / 1e9, ""};
}

void measure_transfers(const Session& session, const Settings& settings, Cells& cells) {
  if (!supports(session, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, kRgba8)) {
    for (Row row : {kImageWrite, kImageRead, kImageCopy}) cells[row].note = missing_format_note(kRgba8);
    return;
  }
  const std::size_t side = image_side(session, settings, kRgba8);
  const double bytes = static_cast<double>(side) * side * kRgba8.pixel_bytes;
  std::vector<cl_uchar> host = source_channels<cl_uchar>(side * side);
  Image src = create_image(session, CL_MEM_READ_WRITE, kRgba8, side, host.data());
  Image dst = create_image(session, CL_MEM_READ_WRITE, kRgba8, side, nullptr);
  const std::size_t origin[3] = {0, 0, 0}, region[3] = {side, side, 1};
  cl_command_queue queue = session.queue();

  double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueWriteImage(queue, src.get(), CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr));
  });
  cells[kImageWrite].value = bytes / seconds / 1e9;

  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueReadImage(queue, src.get(), CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr));
  });
  cells[kImageRead].value = bytes / seconds / 1e9;

  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueCopyImage(queue, src.get(), dst.get(), origin, origin, region, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kImageCopy].value = 2.0 * bytes / seconds / 1e9;
}

}  // namespace

void measure_images(const Session& session, const Settings& settings, Cells& cells) {
  const Row kernel_rows[] = {kImageResampleRgba8, kImageResampleRgbaFloat};
  if (!device_value<cl_bool>(session.device(), CL_DEVICE_IMAGE_SUPPORT)) {
    for (Row row : {kImageResampleRgba8, kImageResampleRgbaFloat, kImageWrite, kImageRead, kImageCopy})
      cells[row].note = "n/a (no image support)";
    return;
  }
  measure_transfers(session, settings, cells);
  if (!device_value<cl_bool>(session.device(), CL_DEVICE_COMPILER_AVAILABLE)) {
    for (Row row : kernel_rows) cells[row].note = "n/a (no compiler)";
    return;
  }
  Program program = build_program(session, kResampleSource);
  Kernel kernel = create_kernel(program.get(), "resample");
  cells[kImageResampleRgba8] = measure_resample<cl_uchar>(session, kernel.get(), kRgba8, settings);
  cells[kImageResampleRgbaFloat] = measure_resample<cl_float>(session, kernel.get(), kRgbaFloat, settings);
}

}  // namespace bench

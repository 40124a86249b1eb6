// The 3D image rows: a kernel that resamples a 256^3 volume through a trilinear sampler (the
// texture unit's 3D filtering where a device has it), RGBA8 and RGBA float, into a buffer of
// uchar4 (NVIDIA's OpenCL has no 3D image writes), checked on the host before its time counts:
// every output channel lies between the smallest and the largest of the 8 voxels it blends.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "image_util.h"
#include "measurements.h"

namespace bench {
namespace {

const char* kResample3dSource = R"CLC(
constant sampler_t trilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__kernel void resample3d(read_only image3d_t src, global uchar4* dst, float4 scale) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const int w = get_image_width(src), h = get_image_height(src), d = get_image_depth(src);
  const float4 at = ((float4)((float)x, (float)y, (float)z, 0.0f) + 0.5f) * scale / (float4)((float)w, (float)h, (float)d, 1.0f);
  dst[((size_t)z * h + y) * w + x] = convert_uchar4_sat_rte(read_imagef(src, trilinear, at) * 255.0f);
}
)CLC";
constexpr std::array<float, 3> kScale = {0.9993f, 0.9987f, 0.9981f};
constexpr std::size_t kMaxSide = 256;

// The cube's side: 256, halved while the volume would not fit the bandwidth rows' budget
// (--quick), one allocation or the device's 3D limits.
std::size_t volume_side(const Session& session, const Settings& settings, const PixelFormat& pixel) {
  const auto max_alloc = device_value<cl_ulong>(session.device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const std::uint64_t budget = std::min<std::uint64_t>(settings.max_buffer_bytes, max_alloc);
  std::size_t side = kMaxSide;
  for (cl_device_info limit : {CL_DEVICE_IMAGE3D_MAX_WIDTH, CL_DEVICE_IMAGE3D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_DEPTH})
    side = std::min(side, device_value<std::size_t>(session.device(), limit));
  while (side > 8 && side * side * side * pixel.pixel_bytes > budget) side /= 2;
  return side;
}

// Whether output voxel (x, y, z), read back as bytes, lies channel by channel between the 8
// source voxels it blends, with one 8-bit step of slack for the blend's and the store's rounding.
bool within_neighbours(const cl_uchar4& voxel, const std::array<std::size_t, 3>& at, std::size_t side) {
  std::array<std::pair<std::size_t, std::size_t>, 3> pairs;
  for (std::size_t axis = 0; axis < 3; ++axis) pairs[axis] = neighbours(at[axis], side, kScale[axis]);
  for (std::size_t c = 0; c < kChannels; ++c) {
    unsigned low = 255, high = 0;
    for (unsigned corner = 0; corner < 8; ++corner) {
      const std::size_t x = corner & 1 ? pairs[0].second : pairs[0].first;
      const std::size_t y = corner & 2 ? pairs[1].second : pairs[1].first;
      const std::size_t z = corner & 4 ? pairs[2].second : pairs[2].first;
      const unsigned value = level(((z * side + y) * side + x) * kChannels + c);
      low = std::min(low, value);
      high = std::max(high, value);
    }
    if (voxel.s[c] + 1u < low || voxel.s[c] > high + 1u) return false;
  }
  return true;
}

bool resampled_correctly(cl_command_queue queue, cl_mem dst, std::size_t side) {
  std::vector<cl_uchar4> out(side * side * side);
  BENCH_CL(clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, out.size() * sizeof(cl_uchar4), out.data(), 0, nullptr, nullptr));
  for (std::size_t probe = 0; probe < 256; ++probe) {
    // Two corners, then pseudo-random voxels.
    std::array<std::size_t, 3> at = {(probe * 2654435761u) % side, (probe * 40503u + 17) % side,
                                     (probe * 9973u + 5) % side};
    if (probe < 2) at.fill(probe * (side - 1));
    if (!within_neighbours(out[(at[2] * side + at[1]) * side + at[0]], at, side)) return false;
  }
  return true;
}

// Output voxels per second of `kernel` resampling a side^3 volume of `Channel`s; one timed run
// after the warm-up on CPU devices.
template <typename Channel>
Cell measure_resample3d(const Session& session, cl_kernel kernel, const PixelFormat& pixel, const Settings& settings) {
  if (!supports(session, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE3D, pixel)) return {std::nullopt, missing_format_note(pixel)};
  const std::size_t side = volume_side(session, settings, pixel);
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = desc.image_height = desc.image_depth = side;
  std::vector<Channel> channels = source_channels<Channel>(side * side * side);
  cl_int status = CL_SUCCESS;
  Image src(clCreateImage(session.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &pixel.format, &desc,
                          channels.data(), &status));
  check(status, "clCreateImage");
  Buffer dst = session.buffer(side * side * side * sizeof(cl_uchar4));
  cl_mem src_mem = src.get(), dst_mem = dst.get();
  const cl_float4 scale = {{kScale[0], kScale[1], kScale[2], 1.0f}};
  BENCH_CL(clSetKernelArg(kernel, 0, sizeof src_mem, &src_mem));
  BENCH_CL(clSetKernelArg(kernel, 1, sizeof dst_mem, &dst_mem));
  BENCH_CL(clSetKernelArg(kernel, 2, sizeof scale, &scale));
  const std::size_t global[3] = {side, side, side};
  cl_command_queue queue = session.queue();
  const double seconds = median_seconds(is_cpu(session) ? 1 : settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, kernel, 3, nullptr, global, nullptr, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  if (!resampled_correctly(queue, dst_mem, side)) return {std::nullopt, "wrong result"};
  return {static_cast<double>(side) * side * side / seconds / 1e9, ""};
}

}  // namespace

void measure_volumes(const Session& session, const Settings& settings, Cells& cells) {
  const Row rows[] = {kVolumeResampleRgba8, kVolumeResampleRgbaFloat};
  const char* why_not = nullptr;
  if (!device_value<cl_bool>(session.device(), CL_DEVICE_IMAGE_SUPPORT)) why_not = "n/a (no image support)";
  else if (!device_value<cl_bool>(session.device(), CL_DEVICE_COMPILER_AVAILABLE)) why_not = "n/a (no compiler)";
  if (why_not) {
    for (Row row : rows) cells[row].note = why_not;
    return;
  }
  Program program = build_program(session, kResample3dSource);
  Kernel kernel = create_kernel(program.get(), "resample3d");
  cells[kVolumeResampleRgba8] = measure_resample3d<cl_uchar>(session, kernel.get(), kRgba8, settings);
  cells[kVolumeResampleRgbaFloat] = measure_resample3d<cl_float>(session, kernel.get(), kRgbaFloat, settings);
}

}  // namespace bench

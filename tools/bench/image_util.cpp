#include "image_util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace bench {

bool is_cpu(const Session& session) {
  return device_value<cl_device_type>(session.device(), CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU;
}

bool supports(const Session& session, cl_mem_flags flags, cl_mem_object_type type, const PixelFormat& pixel) {
  cl_uint count = 0;
  BENCH_CL(clGetSupportedImageFormats(session.context(), flags, type, 0, nullptr, &count));
  std::vector<cl_image_format> formats(count);
  BENCH_CL(clGetSupportedImageFormats(session.context(), flags, type, count, formats.data(), nullptr));
  return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format& format) {
    return format.image_channel_order == pixel.format.image_channel_order &&
           format.image_channel_data_type == pixel.format.image_channel_data_type;
  });
}

std::string missing_format_note(const PixelFormat& pixel) { return std::string("n/a (no ") + pixel.name + " images)"; }

unsigned level(std::size_t index) {
  auto h = static_cast<std::uint32_t>(index) * 0x9e3779b1u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  return (h >> 12) & 255;
}

std::pair<std::size_t, std::size_t> neighbours(std::size_t i, std::size_t side, float scale) {
  const float extent = static_cast<float>(side);
  const float at = (static_cast<float>(i) + 0.5f) * scale / extent * extent - 0.5f;
  const auto below = static_cast<long>(std::floor(at));
  auto clamped = [&](long j) { return static_cast<std::size_t>(std::clamp<long>(j, 0, static_cast<long>(side) - 1)); };
  return {clamped(below), clamped(below + 1)};
}

}  // namespace bench

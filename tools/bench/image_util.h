// What the image rows (image_measurements.cpp, volume_measurement.cpp) share: the formats they
// use, whether a device supports one, the source pixels' noise, and the pixels a linear filter
// blends for an output coordinate.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "measurements.h"

namespace bench {

struct PixelFormat {
  cl_image_format format;
  std::size_t pixel_bytes;
  const char* name;
};
inline constexpr std::size_t kChannels = 4;
inline constexpr PixelFormat kRgba8{{CL_RGBA, CL_UNORM_INT8}, 4, "RGBA UNORM_INT8"};
inline constexpr PixelFormat kRgbaFloat{{CL_RGBA, CL_FLOAT}, 16, "RGBA FLOAT"};

bool is_cpu(const Session& session);
// Whether the device lists `pixel` for images of `type` made with `flags`.
bool supports(const Session& session, cl_mem_flags flags, cl_mem_object_type type, const PixelFormat& pixel);
std::string missing_format_note(const PixelFormat& pixel);

// The level (0 to 255) of a source image's channel `index` (counted over pixels in row-major
// order, four channels each): noise, so that a read from the wrong place rarely lands between
// the right neighbours.
unsigned level(std::size_t index);

// A source image's channels for `pixels` pixels: the levels as they are (UNORM_INT8), or
// scaled to [0, 1].
template <typename Channel>
std::vector<Channel> source_channels(std::size_t pixels) {
  std::vector<Channel> channels(pixels * kChannels);
  for (std::size_t i = 0; i < channels.size(); ++i) {
    if constexpr (std::is_same_v<Channel, cl_float>)
      channels[i] = static_cast<float>(level(i)) / 255.0f;
    else
      channels[i] = static_cast<Channel>(level(i));
  }
  return channels;
}

// The two source pixels on one axis that linear filtering blends for output pixel `i` of a
// kernel reading at ((i + 0.5) * scale / side) in normalized coordinates, in the kernel's float
// arithmetic, clamped to the edge.
std::pair<std::size_t, std::size_t> neighbours(std::size_t i, std::size_t side, float scale);

}  // namespace bench

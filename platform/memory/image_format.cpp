#include "platform/memory/image_format.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace cucl {
namespace {

cl_uint channel_count(cl_channel_order order) {
  switch (order) {
    case CL_R: case CL_A: case CL_DEPTH: case CL_LUMINANCE: case CL_INTENSITY:
      return 1;
    case CL_RG: case CL_RA: case CL_Rx:
      return 2;
    case CL_RGB: case CL_RGx: case CL_sRGB:
      return 3;
    case CL_RGBA: case CL_ARGB: case CL_BGRA: case CL_ABGR: case CL_RGBx: case CL_sRGBA: case CL_sBGRA: case CL_sRGBx:
      return 4;
    default:
      return 0;
  }
}

constexpr cl_channel_type kEveryPlainType[] = {
    CL_SNORM_INT8,      CL_SNORM_INT16,       CL_UNORM_INT8,       CL_UNORM_INT16,
    CL_SIGNED_INT8,     CL_SIGNED_INT16,      CL_SIGNED_INT32,     CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16,  CL_UNSIGNED_INT32,    CL_HALF_FLOAT,       CL_FLOAT};
constexpr cl_channel_type kByteTypes[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8};
constexpr cl_channel_type kNormalizedAndFloat[] = {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8,
                                                   CL_SNORM_INT16, CL_HALF_FLOAT,  CL_FLOAT};
constexpr cl_channel_type kPackedRgb[] = {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010};

struct FormatGroup {
  std::vector<cl_channel_order> orders;
  std::vector<cl_channel_type> types;
  bool writable;
};

// The supported formats, by groups of orders that take the same data types.
const std::vector<FormatGroup>& format_groups() {
  static const std::vector<FormatGroup> groups = {
      {{CL_R, CL_A, CL_RG, CL_RA, CL_RGBA}, {std::begin(kEveryPlainType), std::end(kEveryPlainType)}, true},
      {{CL_BGRA, CL_ARGB, CL_ABGR}, {std::begin(kByteTypes), std::end(kByteTypes)}, true},
      {{CL_INTENSITY, CL_LUMINANCE}, {std::begin(kNormalizedAndFloat), std::end(kNormalizedAndFloat)}, true},
      {{CL_RGB}, {std::begin(kPackedRgb), std::end(kPackedRgb)}, true},
      {{CL_RGBA}, {CL_UNORM_INT_101010_2}, true},
      {{CL_sRGBA, CL_sBGRA}, {CL_UNORM_INT8}, false},
  };
  return groups;
}

bool kernel_writes(cl_mem_flags flags) {
  return flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE) ||
         !(flags & CL_MEM_READ_ONLY);  // no access flag: read and write
}

// Where each of red, green, blue, alpha goes in memory (-1: not stored).
std::array<int, 4> channel_slots(cl_channel_order order) {
  switch (order) {
    case CL_R: case CL_Rx: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: return {0, -1, -1, -1};
    case CL_A: return {-1, -1, -1, 0};
    case CL_RG: case CL_RGx: return {0, 1, -1, -1};
    case CL_RA: return {0, -1, -1, 1};
    case CL_RGB: case CL_RGBx: case CL_sRGB: case CL_sRGBx: return {0, 1, 2, -1};
    case CL_BGRA: case CL_sBGRA: return {2, 1, 0, 3};
    case CL_ARGB: return {1, 2, 3, 0};
    case CL_ABGR: return {3, 2, 1, 0};
    default: return {0, 1, 2, 3};  // RGBA, sRGBA
  }
}

bool is_srgb(cl_channel_order order) {
  return order == CL_sRGB || order == CL_sRGBA || order == CL_sBGRA || order == CL_sRGBx;
}

float srgb_from_linear(float c) {
  if (std::isnan(c)) return 0.0f;
  c = std::clamp(c, 0.0f, 1.0f);
  return c < 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

// Rounded to nearest even and saturated to [0, max] (NaN becomes 0).
uint32_t unorm(float c, float max) {
  if (std::isnan(c)) return 0;
  return static_cast<uint32_t>(std::nearbyint(std::clamp(c, 0.0f, 1.0f) * max));
}

int32_t snorm(float c, float max) {
  if (std::isnan(c)) return 0;
  return static_cast<int32_t>(std::nearbyint(std::clamp(c, -1.0f, 1.0f) * max));
}

// IEEE half from float, rounded to nearest even.
uint16_t half_from_float(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x7f800000) {  // inf or NaN
    return sign | 0x7c00 | (magnitude > 0x7f800000 ? 0x200 : 0);
  }
  if (magnitude >= 0x477ff000) return sign | 0x7c00;  // rounds to beyond the largest half
  const int exponent = static_cast<int>(magnitude >> 23) - 127;
  if (exponent < -25) return sign;  // below half the smallest subnormal
  uint32_t mantissa = (magnitude & 0x7fffff) | 0x800000;
  // Bits to drop: 13 for normal halves, more for subnormal ones.
  const int shift = exponent < -14 ? 13 + (-14 - exponent) : 13;
  uint32_t kept = mantissa >> shift;
  const uint32_t rest = mantissa & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1))) ++kept;
  if (exponent < -14) return sign | static_cast<uint16_t>(kept);  // subnormal (a carry makes it normal)
  return sign | static_cast<uint16_t>(((exponent + 15) << 10) + (kept - 0x400));
}

template <class T>
void store(std::array<uint8_t, 16>& pixel, int slot, T value) {
  std::memcpy(pixel.data() + slot * sizeof(T), &value, sizeof(T));
}

template <class T>
T saturate(int64_t value) {
  return static_cast<T>(std::clamp<int64_t>(value, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

// The orders that take only some data types (the specification's channel order table).
bool valid_combination(cl_channel_order order, cl_channel_type type) {
  const bool packed_rgb = type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010;
  const bool byte = type == CL_UNORM_INT8 || type == CL_SNORM_INT8 || type == CL_SIGNED_INT8 || type == CL_UNSIGNED_INT8;
  const bool normalized_or_float = type == CL_UNORM_INT8 || type == CL_UNORM_INT16 || type == CL_SNORM_INT8 ||
                                   type == CL_SNORM_INT16 || type == CL_HALF_FLOAT || type == CL_FLOAT;
  switch (order) {
    case CL_RGB: case CL_RGBx: return packed_rgb;
    case CL_BGRA: case CL_ARGB: case CL_ABGR: return byte;
    case CL_INTENSITY: case CL_LUMINANCE: return normalized_or_float;
    case CL_sRGB: case CL_sRGBA: case CL_sBGRA: case CL_sRGBx: return type == CL_UNORM_INT8;
    case CL_DEPTH: return type == CL_UNORM_INT16 || type == CL_FLOAT;
    case CL_RGBA: return !packed_rgb;  // and CL_UNORM_INT_101010_2
    default: return !packed_rgb && type != CL_UNORM_INT_101010_2;
  }
}

}  // namespace

size_t pixel_size(const cl_image_format& format) {
  const cl_channel_order order = format.image_channel_order;
  const cl_uint channels = channel_count(order);
  if (channels == 0 || !valid_combination(order, format.image_channel_data_type)) return 0;
  switch (format.image_channel_data_type) {
    case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
      return channels;
    case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
      return 2 * channels;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT:
      return 4 * channels;
    case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555:  // one packed value per pixel
      return 2;
    case CL_UNORM_INT_101010: case CL_UNORM_INT_101010_2:
      return 4;
    default:
      return 0;
  }
}

bool is_image_type(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE3D: case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return true;
    default:
      return false;
  }
}

std::vector<cl_image_format> supported_image_formats(cl_mem_flags flags) {
  std::vector<cl_image_format> formats;
  for (const FormatGroup& group : format_groups()) {
    if (!group.writable && kernel_writes(flags)) continue;
    for (cl_channel_order order : group.orders) {
      for (cl_channel_type type : group.types) formats.push_back(cl_image_format{order, type});
    }
  }
  return formats;
}

bool supports_image_format(const cl_image_format& format, cl_mem_flags flags) {
  for (const cl_image_format& supported : supported_image_formats(flags)) {
    if (supported.image_channel_order == format.image_channel_order &&
        supported.image_channel_data_type == format.image_channel_data_type) {
      return true;
    }
  }
  return false;
}

std::array<uint8_t, 16> fill_pixel(const cl_image_format& format, const void* color) {
  std::array<uint8_t, 16> pixel{};
  float f[4];
  int32_t i[4];
  uint32_t u[4];
  std::memcpy(f, color, sizeof f);
  std::memcpy(i, color, sizeof i);
  std::memcpy(u, color, sizeof u);
  if (is_srgb(format.image_channel_order)) {
    for (int c = 0; c < 3; ++c) f[c] = srgb_from_linear(f[c]);
  }
  switch (format.image_channel_data_type) {  // the packed types: red, green, blue (and alpha) in one value
    case CL_UNORM_SHORT_565:
      store(pixel, 0, static_cast<uint16_t>(unorm(f[0], 31) << 11 | unorm(f[1], 63) << 5 | unorm(f[2], 31)));
      return pixel;
    case CL_UNORM_SHORT_555:
      store(pixel, 0, static_cast<uint16_t>(unorm(f[0], 31) << 10 | unorm(f[1], 31) << 5 | unorm(f[2], 31)));
      return pixel;
    case CL_UNORM_INT_101010:
      store(pixel, 0, unorm(f[0], 1023) << 20 | unorm(f[1], 1023) << 10 | unorm(f[2], 1023));
      return pixel;
    case CL_UNORM_INT_101010_2:
      store(pixel, 0, unorm(f[0], 1023) << 22 | unorm(f[1], 1023) << 12 | unorm(f[2], 1023) << 2 | unorm(f[3], 3));
      return pixel;
    default:
      break;
  }
  const std::array<int, 4> slots = channel_slots(format.image_channel_order);
  for (int c = 0; c < 4; ++c) {
    const int slot = slots[c];
    if (slot < 0) continue;
    switch (format.image_channel_data_type) {
      case CL_UNORM_INT8: store(pixel, slot, static_cast<uint8_t>(unorm(f[c], 255))); break;
      case CL_UNORM_INT16: store(pixel, slot, static_cast<uint16_t>(unorm(f[c], 65535))); break;
      case CL_SNORM_INT8: store(pixel, slot, static_cast<int8_t>(snorm(f[c], 127))); break;
      case CL_SNORM_INT16: store(pixel, slot, static_cast<int16_t>(snorm(f[c], 32767))); break;
      case CL_HALF_FLOAT: store(pixel, slot, half_from_float(f[c])); break;
      case CL_FLOAT: store(pixel, slot, f[c]); break;
      case CL_SIGNED_INT8: store(pixel, slot, saturate<int8_t>(i[c])); break;
      case CL_SIGNED_INT16: store(pixel, slot, saturate<int16_t>(i[c])); break;
      case CL_SIGNED_INT32: store(pixel, slot, i[c]); break;
      case CL_UNSIGNED_INT8: store(pixel, slot, saturate<uint8_t>(u[c])); break;
      case CL_UNSIGNED_INT16: store(pixel, slot, saturate<uint16_t>(u[c])); break;
      case CL_UNSIGNED_INT32: store(pixel, slot, u[c]); break;
      default: break;
    }
  }
  return pixel;
}

}  // namespace cucl

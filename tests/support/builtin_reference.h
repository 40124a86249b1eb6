// Shared helpers for the builtin tests (tests/test_builtins_*.cpp): bit-level views of
// floating-point values, the OpenCL definition of ULP error, edge and random inputs, a
// reference half conversion, and a small launcher that runs a kernel over host vectors.
// Header-only, so that every test program can use it without a CMake change.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "support/kernel_support.h"

namespace cucl_test::builtin {

// ---------------------------------------------------------------- bits and type names
template <class T>
using BitsOf = std::conditional_t<sizeof(T) == 2, uint16_t,
                                  std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;

template <class T>
BitsOf<T> bits_of(T value) {
  BitsOf<T> bits;
  std::memcpy(&bits, &value, sizeof value);
  return bits;
}

template <class T>
T from_bits(BitsOf<T> bits) {
  T value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

template <class T>
std::string hex(T value) {
  std::ostringstream out;
  if constexpr (std::is_floating_point_v<T>) {
    out << std::hexfloat << value << " (0x" << std::hex << +bits_of(value) << ")";
  } else {
    out << +value << " (0x" << std::hex << +static_cast<std::make_unsigned_t<T>>(value) << ")";
  }
  return out.str();
}

template <class T>
const char* cl_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, int8_t>) return "char";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uchar";
  else if constexpr (std::is_same_v<T, int16_t>) return "short";
  else if constexpr (std::is_same_v<T, uint16_t>) return "ushort";
  else if constexpr (std::is_same_v<T, int32_t>) return "int";
  else if constexpr (std::is_same_v<T, uint32_t>) return "uint";
  else if constexpr (std::is_same_v<T, int64_t>) return "long";
  else return "ulong";
}

// Program text that enables doubles (harmless for float-only kernels).
inline const char* kFp64Pragma = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";

// ---------------------------------------------------------------- ULP error (OpenCL C 3.0, 7.4)
// ulp(x) for a real x in format T: the gap between the two finite T values around x, that
// is 2^(e - p + 1) with e = max(exponent(x), minimum normal exponent).
template <class T>
long double ulp_at(long double x) {
  constexpr int digits = std::numeric_limits<T>::digits;
  constexpr int min_exponent = std::numeric_limits<T>::min_exponent - 1;
  constexpr int max_exponent = std::numeric_limits<T>::max_exponent - 1;
  int e = 0;
  std::frexp(std::fabs(x), &e);  // |x| = m * 2^e, m in [0.5, 1)
  int exponent = std::min(std::max(e - 1, min_exponent), max_exponent);
  return std::ldexp(1.0L, exponent - (digits - 1));
}

// The error of `got` against the reference `want`, in ulps of T. NaN wants any NaN;
// infinities and exact zeros (the spec's special values) want exactly the same value, sign
// included. An infinite result for a finite reference counts as the next value past the
// largest finite one, so a reference that rounds to infinity accepts it.
template <class T>
long double ulp_error(T got, long double want) {
  const long double inf = std::numeric_limits<long double>::infinity();
  if (std::isnan(want)) return std::isnan(got) ? 0 : inf;
  if (std::isnan(got)) return inf;
  if (std::isinf(want)) return static_cast<long double>(got) == want ? 0 : inf;
  if (want == 0) return (got == 0 && std::signbit(got) == std::signbit(want)) ? 0 : inf;
  // Past the largest finite value, infinity stands for the next value up (2^emax), and a
  // reference beyond it is as far as that value: either rounds to infinity.
  const long double max = std::numeric_limits<T>::max(), beyond = max + ulp_at<T>(max);
  const long double g = std::isinf(got) ? std::copysign(beyond, static_cast<long double>(got)) : got;
  if (std::fabs(want) > beyond) want = std::copysign(beyond, want);
  return std::fabs(g - want) / ulp_at<T>(want);
}

// True when two results are the same value: equal bits, or both NaN.
template <class T>
bool same_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) && std::isnan(b)) return true;
  }
  return bits_of(a) == bits_of(b);
}

// ---------------------------------------------------------------- inputs
using Random = std::mt19937_64;

// Special and awkward values: signed zeros, infinities, NaN, denormals, the extremes,
// small integers and half-integers, and values next to multiples of pi/2.
template <class T>
std::vector<T> edge_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> base = {0, L::infinity(), L::quiet_NaN(), L::denorm_min(), L::denorm_min() * 3,
                         L::min() / 2, L::min() - L::denorm_min(), L::min(), L::max(),
                         std::nextafter(L::max(), T(0)), L::epsilon(), T(1), std::nextafter(T(1), T(2)),
                         std::nextafter(T(1), T(0)), T(0.5), T(1.5), T(2), T(2.5), T(3), T(4), T(5.5),
                         T(7), T(10), T(100), T(1e-3), T(1e-10), T(1e10), T(1e20), T(1e30),
                         std::ldexp(T(1), L::digits - 1), std::ldexp(T(1), L::digits - 1) + T(0.5),
                         std::ldexp(T(1), L::digits), std::ldexp(T(1), L::digits) + T(2), T(88.72), T(709.78),
                         T(89.41), T(710.47), T(103.9), T(745.1), T(128), T(1024), T(149.5), T(1074.5),
                         T(-0.0) + T(0.0) /* +0 */};
  for (int k = 1; k <= 12; ++k) {
    T v = static_cast<T>(k * 1.5707963267948966192313216916397514L);
    base.insert(base.end(), {v, std::nextafter(v, T(0)), std::nextafter(v, L::infinity())});
  }
  for (T big : {T(1e6), T(1e15), T(1e30)}) {
    T v = static_cast<T>(std::round(big / 3.1415926535897932384626433832795029L) * 3.1415926535897932384626433832795029L);
    base.push_back(v);
  }
  std::vector<T> values;
  for (T v : base) {
    values.push_back(v);
    values.push_back(-v);
  }
  return values;
}

// A short list for cross products of two or three arguments.
template <class T>
std::vector<T> core_edge_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> values;
  for (T v : {T(0), L::infinity(), L::quiet_NaN(), L::denorm_min(), L::min(), L::max(), T(1), T(0.5), T(1.5),
              T(2), T(3), T(2.5), T(10), std::ldexp(T(1), L::digits), T(1e-30)}) {
    values.push_back(v);
    values.push_back(-v);
  }
  return values;
}

// Any bit pattern: every exponent is equally likely.
template <class T>
T random_bits(Random& rng) {
  return from_bits<T>(static_cast<BitsOf<T>>(rng()));
}

template <class T>
T random_uniform(Random& rng, long double lo, long double hi) {
  std::uniform_real_distribution<long double> d(lo, hi);
  return static_cast<T>(d(rng));
}

// Magnitudes spread evenly over exponents between lo and hi (both > 0), random sign if asked.
template <class T>
T random_log_uniform(Random& rng, long double lo, long double hi, bool any_sign = false) {
  std::uniform_real_distribution<long double> d(std::log(lo), std::log(hi));
  T v = static_cast<T>(std::exp(d(rng)));
  return (any_sign && (rng() & 1)) ? -v : v;
}

// ---------------------------------------------------------------- half-precision reference
// Exact value of a half bit pattern.
inline double half_to_double(uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 31) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(double(mantissa), -24);
  return sign * std::ldexp(double(mantissa | 0x400), exponent - 25);
}

enum class Rounding { kNearestEven, kTowardZero, kUp, kDown };

// Rounds a double to the half bit pattern the spec asks for; works on the exact value
// through long double, independently of the library's algorithm.
inline uint16_t double_to_half(double x, Rounding mode) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return sign | 0x7e00;
  const long double a = std::fabs(static_cast<long double>(x));
  // Candidates: the largest half <= a (lower) and the next one up (upper).
  uint16_t lower = 0;
  for (int step = 0x4000; step; step >>= 1)  // binary search over the ordered magnitudes
    if (lower + step <= 0x7c00 && half_to_double(static_cast<uint16_t>(lower + step)) <= a) lower += step;
  if (half_to_double(lower) == a) return sign | lower;
  const uint16_t upper = lower + 1;  // 0x7c00 (infinity) above the largest finite half
  const bool toward_upper_magnitude = [&] {
    switch (mode) {
      case Rounding::kTowardZero: return false;
      case Rounding::kUp: return sign == 0;
      case Rounding::kDown: return sign != 0;
      default: break;
    }
    // Nearest: the midpoint between lower and upper (upper = 2^16 for infinity).
    const long double hi = upper == 0x7c00 ? 65536.0L : half_to_double(upper);
    const long double mid = (half_to_double(lower) + hi) / 2;
    return a > mid || (a == mid && (lower & 1));
  }();
  if (!toward_upper_magnitude) return sign | lower;
  return sign | upper;
}

// ---------------------------------------------------------------- running kernels
// Runs one kernel over buffers made from host vectors; arguments are added in order.
class Launch {
 public:
  Launch(const Env& env, cl_kernel kernel) : env_(env), kernel_(kernel) {}

  template <class T>
  Launch& in(const std::vector<T>& data) {
    return buffer(data.size() * sizeof(T), data.data());
  }
  template <class T>
  Launch& out(size_t count, T fill = T{}) {
    std::vector<T> initial(count, fill);
    return buffer(count * sizeof(T), initial.data());
  }
  Launch& local(size_t bytes) {
    EXPECT_EQ(clSetKernelArg(kernel_, next_++, bytes, nullptr), CL_SUCCESS);
    buffers_.emplace_back();
    return *this;
  }
  template <class T>
  Launch& value(const T& v) {
    EXPECT_EQ(clSetKernelArg(kernel_, next_++, sizeof(T), &v), CL_SUCCESS);
    buffers_.emplace_back();
    return *this;
  }
  // Runs over `global` work-items in `dims` dimensions (the same size in each).
  void run(size_t global, size_t local = 0) {
    ASSERT_EQ(clEnqueueNDRangeKernel(env_.queue, kernel_, 1, nullptr, &global, local ? &local : nullptr, 0,
                                     nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(env_.queue), CL_SUCCESS);
  }
  // The contents of the buffer passed as argument `index`.
  template <class T>
  std::vector<T> result(size_t index) {
    const auto& b = buffers_.at(index);
    return read_buffer<T>(env_.queue, b.buffer->get(), b.bytes / sizeof(T));
  }

 private:
  struct Arg {
    std::unique_ptr<DeviceBuffer> buffer;
    size_t bytes = 0;
  };
  Launch& buffer(size_t bytes, const void* data) {
    Arg arg{std::make_unique<DeviceBuffer>(env_.context, bytes ? bytes : 1, bytes ? data : nullptr), bytes};
    EXPECT_EQ(clSetKernelArg(kernel_, next_++, sizeof(cl_mem), arg.buffer->address()), CL_SUCCESS);
    buffers_.push_back(std::move(arg));
    return *this;
  }

  const Env& env_;
  cl_kernel kernel_;
  cl_uint next_ = 0;
  std::vector<Arg> buffers_;
};

// Whether the device supports doubles (tests of double builtins skip otherwise).
inline bool has_fp64(cl_device_id device) {
  cl_device_fp_config config = 0;
  clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof config, &config, nullptr);
  return config != 0;
}

// What relational function `f` (0 isequal, 1 isnotequal, 2 isgreater, 3 isgreaterequal,
// 4 isless, 5 islessequal, 6 islessgreater, 7 isordered, 8 isunordered, 9 isfinite, 10 isinf,
// 11 isnan, 12 isnormal, 13 signbit) says of x and y, for a type whose smallest normal
// magnitude is `min_normal`.
inline bool relational_truth(int f, long double x, long double y, long double min_normal) {
  switch (f) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x < y;
    case 5: return x <= y;
    case 6: return x < y || x > y;
    case 7: return !std::isnan(x) && !std::isnan(y);
    case 8: return std::isnan(x) || std::isnan(y);
    case 9: return std::isfinite(x);
    case 10: return std::isinf(x);
    case 11: return std::isnan(x);
    case 12: return std::isfinite(x) && std::fabs(x) >= min_normal;
    default: return std::signbit(x);
  }
}

// Whether the device reports cl_khr_fp16 (tests of half builtins skip otherwise).
inline bool has_fp16(cl_device_id device) {
  const std::string extensions = " " + device_string(device, CL_DEVICE_EXTENSIONS) + " ";
  return extensions.find(" cl_khr_fp16 ") != std::string::npos;
}

// Program text that enables halves (and doubles, for the references some kernels keep).
inline const char* kFp16Pragmas =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";

}  // namespace cucl_test::builtin

// cl_khr_fp16's conversions: convert_half[n][_rte|_rtz|_rtp|_rtn] from every scalar type and
// convert_<type>[n][_sat][_rt*] of half, scalar and in vectors of 4 and 16, against the
// host's exact reference (support/builtin_reference.h's double_to_half), on every device
// that reports cl_khr_fp16.
#include <cmath>

#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

const char* kModes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

Rounding rounding_of(const std::string& mode) {
  if (mode == "_rtz") return Rounding::kTowardZero;
  if (mode == "_rtp") return Rounding::kUp;
  if (mode == "_rtn") return Rounding::kDown;
  return Rounding::kNearestEven;
}

// Sources held as long double so that every integer of 64 bits is exact.
const std::vector<long double>& special_sources() {
  static const std::vector<long double> values = {
      0.0L, -0.0L, 1.0L, -1.0L, 0.5L, 1.5L, -2.5L, 2049.0L, 2051.0L, -2049.0L, 4097.0L, 65504.0L, 65505.0L,
      65519.0L, 65520.0L, 65535.0L, -65520.0L, 1e6L, -1e6L, 4294967295.0L, -2147483648.0L,
      9223372036854775807.0L, -9223372036854775807.0L - 1, 18446744073709551615.0L, 0x1p-24L, 0x1p-25L,
      0x1.8p-25L, -0x1p-25L, 0x1.ffp-15L, 0x1.0008p0L, 0x1.0018p0L, 0x1.002p0L, 1e-30L, 1e30L, 1e300L, 1e-300L,
      0x1.fff8p15L, 0x1.ffcp-15L, 0.1L, -0.1L, 3.14159265358979L, INFINITY, -INFINITY, NAN};
  return values;
}

struct Source {
  const char* type;
  long double lo, hi;  // the values the type holds
  bool integer;
};

const Source kSources[] = {{"char", -128, 127, true},
                           {"uchar", 0, 255, true},
                           {"short", -32768, 32767, true},
                           {"ushort", 0, 65535, true},
                           {"int", -2147483648.0L, 2147483647.0L, true},
                           {"uint", 0, 4294967295.0L, true},
                           {"long", -9223372036854775808.0L, 9223372036854775807.0L, true},
                           {"ulong", 0, 18446744073709551615.0L, true},
                           {"float", -INFINITY, INFINITY, false},
                           {"double", -INFINITY, INFINITY, false}};

// The value as the source type holds it: integers truncated and clamped, floats rounded.
long double held_by(const Source& s, long double v) {
  if (std::isnan(v)) return s.integer ? 0 : v;
  if (!s.integer) return std::string(s.type) == "float" ? static_cast<float>(v) : static_cast<double>(v);
  v = std::trunc(v);
  return std::fmin(std::fmax(v, s.lo), s.hi);
}

// The exact half a real value rounds to. Past 2^20 in magnitude every finite value rounds as
// 2^20 does in every mode, and below it double holds each source value exactly (a 64-bit
// integer would not), so double_to_half sees the exact value.
uint16_t expected_half(long double v, Rounding mode) {
  if (std::isinf(v) || std::isnan(v)) return double_to_half(static_cast<double>(v), mode);
  return double_to_half(static_cast<double>(std::fmin(std::fmax(v, -0x1p20L), 0x1p20L)), mode);
}

class Fp16Conversions : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!has_fp16(env.device)) GTEST_SKIP() << "the device does not report cl_khr_fp16";
  }
};

TEST_P(Fp16Conversions, EveryTypeToHalfInEveryMode) {
  std::vector<long double> inputs = special_sources();
  Random rng(5);
  for (int i = 0; i < 200; ++i) {
    inputs.push_back(random_uniform<double>(rng, -70000.0L, 70000.0L));
    inputs.push_back(random_log_uniform<double>(rng, 0x1p-26L, 0x1p17L, true));
    inputs.push_back(static_cast<long double>(static_cast<int64_t>(rng() >> (rng() % 64))));
  }
  while (inputs.size() % 16) inputs.push_back(1.0L);
  const size_t n = inputs.size();

  for (const Source& s : kSources) {
    SCOPED_TRACE(s.type);
    // Each mode writes the scalar form, then lanes of the 4 and 16 wide forms.
    std::string source = std::string(kFp16Pragmas) + "kernel void k(global const " + s.type +
                         "* in, global ushort* out, uint n) {\n  size_t g = get_global_id(0);\n";
    for (size_t m = 0; m < std::size(kModes); ++m) {
      const std::string mode = kModes[m], base = std::to_string(3 * m) + " * n + g";
      source += "  out[" + base + "] = as_ushort(convert_half" + mode + "(in[g]));\n";
      source += "  out[" + std::to_string(3 * m + 1) + " * n + g] = as_ushort(convert_half4" + mode +
                "(vload4(g / 4, in))[g % 4]);\n";
      source += "  out[" + std::to_string(3 * m + 2) + " * n + g] = as_ushort(convert_half16" + mode +
                "(vload16(g / 16, in))[g % 16]);\n";
    }
    source += "}\n";
    BuiltProgram program(env, source);
    ASSERT_TRUE(program);
    cl_kernel kernel = program.kernel("k");

    std::vector<long double> held(n);
    for (size_t i = 0; i < n; ++i) held[i] = held_by(s, inputs[i]);
    Launch launch(env, kernel);
    const std::string type = s.type;
    auto fill = [&](auto zero) {
      using T = decltype(zero);
      std::vector<T> data(n);
      for (size_t i = 0; i < n; ++i) data[i] = static_cast<T>(held[i]);
      // The integers as the kernel sees them (float rounding already applied above).
      for (size_t i = 0; i < n; ++i) held[i] = static_cast<long double>(data[i]);
      launch.in(data);
    };
    if (type == "char") fill(int8_t{});
    else if (type == "uchar") fill(uint8_t{});
    else if (type == "short") fill(int16_t{});
    else if (type == "ushort") fill(uint16_t{});
    else if (type == "int") fill(int32_t{});
    else if (type == "uint") fill(uint32_t{});
    else if (type == "long") fill(int64_t{});
    else if (type == "ulong") fill(uint64_t{});
    else if (type == "float") fill(0.0f);
    else fill(0.0);
    launch.out<uint16_t>(3 * std::size(kModes) * n).value(static_cast<cl_uint>(n));
    launch.run(n);
    const auto out = launch.result<uint16_t>(1);
    int failures = 0;
    for (size_t m = 0; m < std::size(kModes); ++m) {
      for (size_t form = 0; form < 3; ++form) {
        for (size_t i = 0; i < n && failures < 10; ++i) {
          const uint16_t want = expected_half(held[i], rounding_of(kModes[m]));
          const uint16_t got = out[(3 * m + form) * n + i];
          const bool both_nan = (want & 0x7fff) > 0x7c00 && (got & 0x7fff) > 0x7c00;
          if (got != want && !both_nan) {
            ADD_FAILURE() << "convert_half" << (form == 0 ? "" : form == 1 ? "4" : "16") << kModes[m] << "(("
                          << s.type << ")" << static_cast<double>(held[i]) << "): got 0x" << std::hex << got
                          << ", want 0x" << want << std::dec;
            ++failures;
          }
        }
      }
    }
  }
}

struct IntegerTarget {
  const char* type;
  long double lo, hi;
};

const IntegerTarget kIntegerTargets[] = {
    {"char", -128, 127},       {"uchar", 0, 255},
    {"short", -32768, 32767},  {"ushort", 0, 65535},
    {"int", -2147483648.0L, 2147483647.0L},
    {"uint", 0, 4294967295.0L},
    {"long", -9223372036854775808.0L, 9223372036854775807.0L},
    {"ulong", 0, 18446744073709551615.0L}};

long double rounded(long double v, const std::string& mode) {
  if (mode == "_rte") return std::nearbyint(v);  // the host rounds to nearest even
  if (mode == "_rtp") return std::ceil(v);
  if (mode == "_rtn") return std::floor(v);
  return std::trunc(v);
}

TEST_P(Fp16Conversions, HalfToEveryTypeSaturatedAndInEveryMode) {
  // Every half bit pattern, in vectors of 16.
  const size_t n = 65536;
  std::vector<uint16_t> halves(n);
  for (size_t i = 0; i < n; ++i) halves[i] = static_cast<uint16_t>(i);

  for (const IntegerTarget& t : kIntegerTargets) {
    SCOPED_TRACE(t.type);
    std::string source = std::string(kFp16Pragmas) +
                         "kernel void k(global const half* in, global long* out) {\n  size_t g = get_global_id(0);\n"
                         "  const uint n = " + std::to_string(n) + ";\n";
    size_t slot = 0;
    for (const char* mode : kModes) {
      for (bool sat : {false, true}) {
        const std::string name = std::string("convert_") + t.type, suffix = (sat ? "_sat" : "") + std::string(mode);
        source += "  out[" + std::to_string(slot++) + " * n + g] = (long)" + name + suffix + "(in[g]);\n";
        source += "  out[" + std::to_string(slot++) + " * n + g] = (long)" + name + "16" + suffix +
                  "(vload16(g / 16, in))[g % 16];\n";
      }
    }
    source += "}\n";
    BuiltProgram program(env, source);
    ASSERT_TRUE(program);
    Launch launch(env, program.kernel("k"));
    launch.in(halves).out<int64_t>(slot * n);
    launch.run(n);
    const auto out = launch.result<int64_t>(1);
    int failures = 0;
    slot = 0;
    for (const char* mode : kModes) {
      for (bool sat : {false, true}) {
        for (int form = 0; form < 2; ++form, ++slot) {
          for (size_t i = 0; i < n && failures < 10; ++i) {
            const double v = half_to_double(halves[i]);
            long double want;
            if (std::isnan(v)) {
              if (!sat) continue;  // undefined without saturation
              want = 0;
            } else {
              want = rounded(v, mode);
              if (want < t.lo || want > t.hi) {
                if (!sat) continue;
                want = want < t.lo ? t.lo : t.hi;
              }
            }
            // The kernel widened the result to long: an unsigned 64-bit one wraps there.
            const int64_t expected = static_cast<int64_t>(static_cast<uint64_t>(static_cast<__int128>(want)));
            if (out[slot * n + i] != expected) {
              ADD_FAILURE() << "convert_" << t.type << (form ? "16" : "") << (sat ? "_sat" : "") << mode << "("
                            << v << "): got " << out[slot * n + i] << ", want " << expected;
              ++failures;
            }
          }
        }
      }
    }
  }
}

TEST_P(Fp16Conversions, HalfToFloatAndDoubleIsExact) {
  const size_t n = 65536;
  std::vector<uint16_t> halves(n);
  for (size_t i = 0; i < n; ++i) halves[i] = static_cast<uint16_t>(i);
  const std::string source = std::string(kFp16Pragmas) +
                             "kernel void k(global const half* in, global float* f, global double* d, global float* "
                             "f4, global double* d16) {\n  size_t g = get_global_id(0);\n"
                             "  f[g] = convert_float_rtz(in[g]);\n  d[g] = in[g];\n"
                             "  f4[g] = convert_float4_rtp(vload4(g / 4, in))[g % 4];\n"
                             "  d16[g] = convert_double16_rtn(vload16(g / 16, in))[g % 16];\n}\n";
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.in(halves).out<float>(n).out<double>(n).out<float>(n).out<double>(n);
  launch.run(n);
  const auto f = launch.result<float>(1), f4 = launch.result<float>(3);
  const auto d = launch.result<double>(2), d16 = launch.result<double>(4);
  int failures = 0;
  for (size_t i = 0; i < n && failures < 10; ++i) {
    const double want = half_to_double(halves[i]);
    for (double got : {double(f[i]), d[i], double(f4[i]), d16[i]}) {
      const bool same = std::isnan(want) ? std::isnan(got) : (got == want && std::signbit(got) == std::signbit(want));
      if (!same) {
        ADD_FAILURE() << "half 0x" << std::hex << halves[i] << std::dec << ": got " << got << ", want " << want;
        ++failures;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, Fp16Conversions, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

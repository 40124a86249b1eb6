// Explicit conversions (OpenCL C 3.0, 6.4.3) convert_<type>[_sat][_rte|_rtz|_rtp|_rtn], on a
// sample of type pairs in scalar and vector (4 and 16) form: float and double to every
// integer type (ties, NaN, out of range with and without saturation), 64-bit integers to
// float and double in every rounding mode, double to float, integer narrowing with
// saturation; and as_type reinterpretation. Exact, against a host reference.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

struct Conversion {
  std::string dst, src;
  bool sat;
  std::string mode;  // "", "_rte", "_rtz", "_rtp", "_rtn"
};

const char* kSourceExpr(const std::string& src) {
  if (src == "float") return "f";
  if (src == "double") return "d";
  if (src == "long") return "l";
  if (src == "ulong") return "ul";
  if (src == "int") return "i";
  return "ui";
}

bool is_int_type(const std::string& t) { return t != "float" && t != "double"; }

std::vector<Conversion> conversions() {
  std::vector<Conversion> list;
  const char* modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
  for (std::string src : {"float", "double"})
    for (std::string dst : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"})
      for (bool sat : {false, true})
        for (const char* m : modes) list.push_back({dst, src, sat, m});
  for (std::string src : {"long", "ulong", "int", "uint"})
    for (std::string dst : {"float", "double"})
      for (const char* m : modes) list.push_back({dst, src, false, m});
  for (const char* m : modes) list.push_back({"float", "double", false, m});
  for (const char* m : modes) list.push_back({"double", "float", false, m});
  for (auto [dst, src] : std::vector<std::pair<std::string, std::string>>{
           {"char", "int"}, {"uint", "int"}, {"int", "uint"}, {"uint", "long"}, {"long", "ulong"}, {"ulong", "long"},
           {"uchar", "long"}, {"ushort", "uint"}, {"short", "ulong"}, {"char", "uint"}})
    for (bool sat : {false, true}) list.push_back({dst, src, sat, ""});
  return list;
}

struct Limits {
  long double lo, hi;
  int bits;
  bool is_signed;
};
Limits limits_of(const std::string& t) {
  if (t == "char") return {-128.0L, 127.0L, 8, true};
  if (t == "uchar") return {0, 255.0L, 8, false};
  if (t == "short") return {-32768.0L, 32767.0L, 16, true};
  if (t == "ushort") return {0, 65535.0L, 16, false};
  if (t == "int") return {-2147483648.0L, 2147483647.0L, 32, true};
  if (t == "uint") return {0, 4294967295.0L, 32, false};
  if (t == "long") return {-9223372036854775808.0L, 9223372036854775807.0L, 64, true};
  return {0, 18446744073709551615.0L, 64, false};
}

template <class T>
T round_float(long double v, const std::string& mode) {
  T f = static_cast<T>(v);  // nearest even
  if (std::isnan(v)) return f;
  if ((mode == "_rtz" && std::fabs(static_cast<long double>(f)) > std::fabs(v)) ||
      (mode == "_rtn" && static_cast<long double>(f) > v))
    f = std::nextafter(f, mode == "_rtz" ? T(0) : -std::numeric_limits<T>::infinity());
  if (mode == "_rtp" && static_cast<long double>(f) < v) f = std::nextafter(f, std::numeric_limits<T>::infinity());
  return f;
}

// The expected result bits (integers sign- or zero-extended to 64 bits), or false when the
// result is undefined (out of range without saturation).
bool expected(const Conversion& c, long double v, uint64_t* bits, bool* is_nan) {
  *is_nan = false;
  if (!is_int_type(c.dst)) {
    if (c.dst == "float") {
      float f = round_float<float>(v, c.mode.empty() ? "_rte" : c.mode);
      *is_nan = std::isnan(f), *bits = bits_of(f);
    } else {
      double d = round_float<double>(v, c.mode.empty() ? "_rte" : c.mode);
      *is_nan = std::isnan(d), *bits = bits_of(d);
    }
    return true;
  }
  const Limits lim = limits_of(c.dst);
  if (std::isnan(v)) {
    if (!c.sat) return false;
    *bits = 0;
    return true;
  }
  long double r = v;
  if (!is_int_type(c.src)) {
    if (c.mode == "_rte") r = std::nearbyint(v);
    else if (c.mode == "_rtp") r = std::ceil(v);
    else if (c.mode == "_rtn") r = std::floor(v);
    else r = std::trunc(v);
  }
  if (r < lim.lo || r > lim.hi) {
    if (c.sat) r = r < lim.lo ? lim.lo : lim.hi;
    else if (is_int_type(c.src)) {  // integer conversions wrap
      const long double m = std::ldexp(1.0L, lim.bits);
      r = std::fmod(r, m);
      if (r < 0) r += m;
      if (lim.is_signed && r > lim.hi) r -= m;
    } else {
      return false;
    }
  }
  *bits = lim.is_signed ? static_cast<uint64_t>(static_cast<int64_t>(r)) : static_cast<uint64_t>(r);
  return true;
}

class Conversions : public DeviceTest {};

TEST_P(Conversions, SampledTypePairsEveryModeScalarAndVector) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "needs fp64";
  const auto list = conversions();
  std::string source = std::string(kFp64Pragma) +
                       "kernel void k(global const float* fa, global const double* da, global const long* la, global "
                       "const ulong* ula, global ulong* out, uint n) {\n  size_t g = get_global_id(0);\n"
                       "  float f = fa[g]; double d = da[g]; long l = la[g]; ulong ul = ula[g]; int i = (int)l; uint ui = (uint)ul;\n";
  auto wrap = [](const std::string& dst, const std::string& e) {
    if (dst == "float") return "(ulong)as_uint(" + e + ")";
    if (dst == "double") return "as_ulong(" + e + ")";
    return "(ulong)(long)(" + e + ")";
  };
  auto vec_src = [](const std::string& src, int w) {
    const std::string W = std::to_string(w);
    const std::string base = src == "float" ? "fa" : src == "double" ? "da" : src == "long" || src == "int" ? "la" : "ula";
    std::string load = "vload" + W + "(g / " + W + ", " + base + ")";
    if (src == "int" || src == "uint") load = "convert_" + src + W + "(" + load + ")";
    return load;
  };
  for (size_t k = 0; k < list.size(); ++k) {
    const auto& c = list[k];
    const std::string suffix = (c.sat ? "_sat" : "") + c.mode;
    const int w = k % 2 ? 16 : 4;
    const std::string scalar = "convert_" + c.dst + suffix + "(" + kSourceExpr(c.src) + ")";
    const std::string vector = "convert_" + c.dst + std::to_string(w) + suffix + "(" + vec_src(c.src, w) + ")[g % " +
                               std::to_string(w) + "]";
    source += "  out[(2 * " + std::to_string(k) + ") * n + g] = " + wrap(c.dst, scalar) + ";\n";
    source += "  out[(2 * " + std::to_string(k) + " + 1) * n + g] = " + wrap(c.dst, vector) + ";\n";
  }
  source += "}\n";
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);

  std::vector<long double> specials = {0, -0.0L, 0.5L, -0.5L, 1.5L, -1.5L, 2.5L, -2.5L, 0.49999997L, 127.5L, 128.5L,
                                       -128.5L, -129.5L, 255.5L, 256.0L, 32767.5L, 65535.5L, 65536.0L, 2147483520.0L,
                                       2147483648.0L, -2147483648.0L, -2147483904.0L, 4294967040.0L, 4294967296.0L,
                                       9223371487098961920.0L, 9223372036854775808.0L, -9223372036854775808.0L,
                                       18446742974197923840.0L, 18446744073709551616.0L, 1e30L, -1e30L, INFINITY,
                                       -INFINITY, NAN, 1e-40L, -1e-40L, 0.999999L, -0.999999L, 3.5L, 4.5L};
  const size_t n = 4096;
  Random rng(17);
  std::vector<float> fa(n);
  std::vector<double> da(n);
  std::vector<int64_t> la(n);
  std::vector<uint64_t> ula(n);
  for (size_t g = 0; g < n; ++g) {
    if (g < specials.size()) {
      fa[g] = float(specials[g]), da[g] = double(specials[g]);
    } else {
      const long double scale = std::ldexp(1.0L, int(rng() % 70) - 4);
      const long double v = random_uniform<long double>(rng, -scale, scale);
      da[g] = (rng() % 4 == 0) ? std::nearbyint(double(v)) + 0.5 : double(v);  // ties
      fa[g] = (rng() % 4 == 0) ? std::nearbyint(float(v)) + 0.5f : float(v);
    }
    const int shift = int(rng() % 64);
    la[g] = int64_t(rng()) >> shift;
    ula[g] = rng() >> (rng() % 64);
    if (g % 16 == 1) la[g] = INT64_MIN + int64_t(rng() % 1000), ula[g] = UINT64_MAX - rng() % 5000;
  }
  Launch launch(env, program.kernel("k"));
  launch.in(fa).in(da).in(la).in(ula).out<uint64_t>(2 * list.size() * n).value(cl_uint(n));
  launch.run(n);
  auto out = launch.result<uint64_t>(4);
  int failures = 0;
  for (size_t k = 0; k < list.size(); ++k) {
    const auto& c = list[k];
    for (size_t g = 0; g < n; ++g) {
      using L = long double;
      const L v = c.src == "float" ? L(fa[g]) : c.src == "double" ? L(da[g]) : c.src == "long" ? L(la[g])
                  : c.src == "ulong" ? L(ula[g]) : c.src == "int" ? L(int32_t(la[g])) : L(uint32_t(ula[g]));
      uint64_t want = 0;
      bool nan = false;
      if (!expected(c, v, &want, &nan)) continue;
      for (int form = 0; form < 2; ++form) {
        const uint64_t got = out[(2 * k + form) * n + g];
        bool ok = got == want;
        if (nan) ok = c.dst == "float" ? std::isnan(from_bits<float>(uint32_t(got))) : std::isnan(from_bits<double>(got));
        if (!ok && ++failures <= 20)
          ADD_FAILURE() << "convert_" << c.dst << (form ? "<vector>" : "") << (c.sat ? "_sat" : "") << c.mode << "("
                        << c.src << " " << std::hexfloat << v << "): got 0x" << std::hex << got << ", want 0x" << want;
      }
    }
  }
}

// Every destination type, saturation and rounding mode from each source type, scalar and
// 8-wide, on the source type's edge values and random bit patterns.
template <class S>
void check_all_conversions_from(const Env& env) {
  const std::string src = cl_name<S>();
  const char* types[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"};
  const char* modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
  std::vector<Conversion> list;
  for (const char* dst : types)
    for (bool sat : {false, true})
      for (const char* m : modes)
        if (!sat || is_int_type(dst)) list.push_back({dst, src, sat, m});
  std::string source = std::string(kFp64Pragma) + "kernel void k(global const " + src +
                       "* x, global ulong* out, uint n) {\n  size_t g = get_global_id(0);\n";
  for (size_t k = 0; k < list.size(); ++k) {
    const auto& c = list[k];
    const std::string name = "convert_" + c.dst + std::string(c.sat ? "_sat" : "") + c.mode;
    const std::string vname = "convert_" + c.dst + "8" + std::string(c.sat ? "_sat" : "") + c.mode;
    auto wrap = [&](const std::string& e) {
      if (c.dst == "float") return "(ulong)as_uint(" + e + ")";
      if (c.dst == "double") return "as_ulong(" + e + ")";
      return "(ulong)(long)(" + e + ")";
    };
    source += "  out[" + std::to_string(2 * k) + " * n + g] = " + wrap(name + "(x[g])") + ";\n";
    source += "  out[" + std::to_string(2 * k + 1) + " * n + g] = " + wrap(vname + "(vload8(g / 8, x))[g % 8]") + ";\n";
  }
  source += "}\n";
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  Random rng(sizeof(S) * 31 + std::is_signed_v<S>);
  std::vector<S> x;
  if constexpr (std::is_floating_point_v<S>) {
    for (S v : edge_values<S>()) x.push_back(v);
    for (long double v : {0.5L, 1.5L, 2.5L, 127.5L, 128.5L, 255.5L, 32767.5L, 65535.5L, 2147483647.5L, 4294967295.5L,
                          4294967296.0L, 9223372036854775807.0L, 18446744073709551615.0L, 16777217.0L})
      x.push_back(S(v)), x.push_back(S(-v));
    while (x.size() < 4096) {
      const S v = random_log_uniform<S>(rng, 1e-3L, 1e20L, true);
      x.push_back(rng() % 3 == 0 ? std::nearbyint(v) + S(0.5) : v);
    }
  } else {
    using L = std::numeric_limits<S>;
    for (S v : {S(0), S(1), S(-1), L::min(), L::max(), S(L::max() - 1), S(L::min() + 1), S(16777217), S(16777219),
                S(-16777219), S(9007199254740993ull), S(0x7fffff80u), S(0xffffff80u)})
      x.push_back(v);
    while (x.size() < 4096) x.push_back(static_cast<S>(rng() >> (rng() % 64)) * ((rng() & 1) ? 1 : S(-1)));
  }
  const size_t n = x.size();
  Launch launch(env, program.kernel("k"));
  launch.in(x).template out<uint64_t>(2 * list.size() * n).value(cl_uint(n));
  launch.run(n);
  auto out = launch.template result<uint64_t>(1);
  int failures = 0;
  for (size_t k = 0; k < list.size(); ++k)
    for (size_t g = 0; g < n; ++g) {
      uint64_t want = 0;
      bool nan = false;
      if (!expected(list[k], static_cast<long double>(x[g]), &want, &nan)) continue;
      for (int form = 0; form < 2; ++form) {
        const uint64_t got = out[(2 * k + form) * n + g];
        bool ok = got == want;
        if (nan) ok = list[k].dst == "float" ? std::isnan(from_bits<float>(uint32_t(got))) : std::isnan(from_bits<double>(got));
        if (!ok && ++failures <= 20)
          ADD_FAILURE() << "convert_" << list[k].dst << (form ? "8" : "") << (list[k].sat ? "_sat" : "") << list[k].mode
                        << "(" << src << " " << hex(x[g]) << "): got 0x" << std::hex << got << ", want 0x" << want;
      }
    }
}

TEST_P(Conversions, EveryPairFromChar) { check_all_conversions_from<int8_t>(env); }
TEST_P(Conversions, EveryPairFromUshort) { check_all_conversions_from<uint16_t>(env); }
TEST_P(Conversions, EveryPairFromInt) { check_all_conversions_from<int32_t>(env); }
TEST_P(Conversions, EveryPairFromUint) { check_all_conversions_from<uint32_t>(env); }
TEST_P(Conversions, EveryPairFromLong) { check_all_conversions_from<int64_t>(env); }
TEST_P(Conversions, EveryPairFromUlong) { check_all_conversions_from<uint64_t>(env); }
TEST_P(Conversions, EveryPairFromFloat) { check_all_conversions_from<float>(env); }
TEST_P(Conversions, EveryPairFromDouble) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_all_conversions_from<double>(env);
}

// as_type reinterprets bits, including between vectors of the same size.
TEST_P(Conversions, AsTypeReinterpretsBits) {
  BuiltProgram program(env, R"(
    kernel void k(global const float* f, global uint* r, global float* back, global uchar* bytes) {
      size_t g = get_global_id(0);
      r[g] = as_uint(f[g]);
      back[g] = as_float(as_int(f[g]) ^ (int)0x80000000);
      vstore4(as_uchar4(f[g]), g, bytes);
    })");
  const size_t n = 512;
  Random rng(4);
  std::vector<float> f(n);
  for (auto& v : f) v = random_bits<float>(rng);
  Launch launch(env, program.kernel("k"));
  launch.in(f).out<uint32_t>(n).out<float>(n).out<uint8_t>(4 * n);
  launch.run(n);
  auto r = launch.result<uint32_t>(1);
  auto back = launch.result<float>(2);
  auto bytes = launch.result<uint8_t>(3);
  for (size_t g = 0; g < n; ++g) {
    ASSERT_EQ(r[g], bits_of(f[g]));
    ASSERT_EQ(bits_of(back[g]), bits_of(f[g]) ^ 0x80000000u);
    uint32_t assembled = 0;
    std::memcpy(&assembled, &bytes[4 * g], 4);
    ASSERT_EQ(assembled, bits_of(f[g]));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Conversions, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

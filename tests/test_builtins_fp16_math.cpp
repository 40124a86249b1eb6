// Half-precision builtins (cl_khr_fp16) on every device that reports the extension: each
// math function (OpenCL C 3.0, 6.15.2) on every half (one argument) or edge and random
// inputs, within the half ULP limits of 7.4 or exactly where the spec asks for correct
// rounding; vector widths and output address spaces for a selection; and the common (6.15.4),
// geometric (6.15.5) and relational (6.15.6) functions of half.
#include "support/builtin_reference_fp16_math.h"

using namespace cucl_test;
using namespace cucl_test::builtin;
using namespace cucl_test::builtin::fp16;

namespace {

class Fp16Builtins : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!has_fp16(env.device)) GTEST_SKIP() << "the device does not report cl_khr_fp16";
  }
};

using L = long double;
using S = Shape;

Expected value_of(L v) { return Expected{v}; }

// Every math builtin with a half overload, with the limit of the spec's half table (0:
// correctly rounded). lgamma's is undefined there; cucl keeps it within 4 ulp away from
// its zeros.
std::vector<HalfCase> half_math_cases() {
  auto u1 = [](L (*f)(L)) { return [=](L x, L, L, int) { return value_of(f(x)); }; };
  auto u2 = [](L (*f)(L, L)) { return [=](L x, L y, L, int) { return value_of(f(x, y)); }; };
  const std::vector<int> all = {2, 3, 4, 8, 16};
  const auto wide = log_uniform_half(1e-7L, 6e4L), unit = uniform_half(-1, 1);
  const auto small = one_of({uniform_half(-20, 20), log_uniform_half(1e-3L, 1e3L)});
  std::vector<HalfCase> c = {
      {"acos", S::T_T, 2, u1(std::acos)},
      {"acosh", S::T_T, 2, u1(std::acosh)},
      {"acospi", S::T_T, 2, [](L x, L, L, int) { return value_of(std::acos(x) / reference::kPi); }},
      {"asin", S::T_T, 2, u1(std::asin)},
      {"asinh", S::T_T, 2, u1(std::asinh)},
      {"asinpi", S::T_T, 2, [](L x, L, L, int) { return value_of(std::asin(x) / reference::kPi); }},
      {"atan", S::T_T, 2, u1(std::atan)},
      {"atanh", S::T_T, 2, u1(std::atanh)},
      {"atanpi", S::T_T, 2, [](L x, L, L, int) { return value_of(std::atan(x) / reference::kPi); }},
      {"atan2", S::T_TT, 2, u2(std::atan2), {wide, wide}},
      {"atan2pi", S::T_TT, 2, [](L y, L x, L, int) { return value_of(std::atan2(y, x) / reference::kPi); },
       {wide, wide}},
      {"cbrt", S::T_T, 2, u1(std::cbrt)},
      {"ceil", S::T_T, 0, u1(std::ceil), {}, all},
      {"copysign", S::T_TT, 0, u2(std::copysign), {}, {4}},
      {"cos", S::T_T, 2, u1(std::cos)},
      {"cosh", S::T_T, 2, u1(std::cosh)},
      {"cospi", S::T_T, 2, u1(reference::cospi)},
      {"erf", S::T_T, 4, u1(std::erf)},
      {"erfc", S::T_T, 4, u1(std::erfc)},
      {"exp", S::T_T, 2, u1(std::exp), {}, all},
      {"exp2", S::T_T, 2, u1(std::exp2)},
      {"exp10", S::T_T, 2, [](L x, L, L, int) { return value_of(exp10l(x)); }},
      {"expm1", S::T_T, 2, u1(std::expm1)},
      {"fabs", S::T_T, 0, u1(std::fabs), {}, all},
      {"fdim", S::T_TT, 0, u2(std::fdim), {wide, wide}},
      {"floor", S::T_T, 0, u1(std::floor), {}, all},
      {"fma", S::T_TTT, 0,
       [](L a, L b, L c, int) { return value_of(value(exact_fma(nearest_half(a), nearest_half(b), nearest_half(c)))); },
       {}, all},
      // mad: a correctly rounded fma, or a multiply and an add each correctly rounded.
      {"mad", S::T_TTT, 0,
       [](L a, L b, L c, int) {
         Expected e = value_of(value(exact_fma(nearest_half(a), nearest_half(b), nearest_half(c))));
         e.alternative = value(nearest_half(value(nearest_half(a * b)) + c));
         return e;
       },
       {}, {4}},
      {"fmax", S::T_TT, 0, u2(reference::fmax<L>), {}, all},
      {"fmin", S::T_TT, 0, u2(reference::fmin<L>), {}, all},
      {"fmod", S::T_TT, 0, u2(std::fmod), {wide, wide}},
      {"fract", S::T_TpT, 0,
       [](L x, L, L, int) {
         const L f = std::floor(x);
         if (std::isnan(x)) return Expected{x, x};
         if (x == 0 || std::isinf(x)) return Expected{std::copysign(0.0L, x), f};
         // The fraction rounded to half, which can reach 1, then kept below 1.
         return Expected{std::min(value(nearest_half(x - f)), value(0x3bff)), f};
       },
       {}, all},
      {"frexp", S::T_Tpi, 0,
       [](L x, L, L, int) {
         int e = 0;
         const L m = std::frexp(x, &e);
         return Expected{m, 0, e, std::isfinite(x)};
       },
       {}, all},
      {"hypot", S::T_TT, 2, u2(std::hypot), {wide, wide}},
      {"ilogb", S::i_T, 0,
       [](L x, L, L, int) {
         Expected e;
         e.integer = std::isnan(x) ? INT32_MAX : x == 0 ? INT32_MIN : std::isinf(x) ? INT32_MAX : std::ilogb(x);
         return e;
       },
       {}, all},
      {"ldexp", S::T_Ti, 0, [](L x, L, L, int n) { return value_of(std::ldexp(x, n)); }, {}, all},
      {"lgamma", S::T_T, 4, u1(std::lgamma)},
      {"log", S::T_T, 2, u1(std::log), {}, all},
      {"log2", S::T_T, 2, u1(std::log2)},
      {"log10", S::T_T, 2, u1(std::log10)},
      {"log1p", S::T_T, 2, u1(std::log1p)},
      {"logb", S::T_T, 0, u1(std::logb)},
      {"maxmag", S::T_TT, 0, u2(reference::maxmag<L>)},
      {"minmag", S::T_TT, 0, u2(reference::minmag<L>)},
      {"modf", S::T_TpT, 0,
       [](L x, L, L, int) {
         L i = 0;
         const L f = std::modf(x, &i);
         return Expected{f, i};
       },
       {}, all},
      {"nextafter", S::T_TT, 0,
       [](L x, L y, L, int) { return value_of(value(next_half(nearest_half(x), nearest_half(y)))); }, {}, {2, 3}},
      {"pow", S::T_TT, 4, u2(std::pow),
       {one_of({log_uniform_half(1e-3L, 1e3L), uniform_half(-4, 4)}), one_of({uniform_half(-16, 16), small})}, all},
      {"pown", S::T_Ti, 4, [](L x, L, L, int n) { return value_of(std::pow(x, L(n))); },
       {one_of({uniform_half(-3, 3), log_uniform_half(1e-2L, 1e2L)})}},
      {"powr", S::T_TT, 4, u2(reference::powr), {log_uniform_half(1e-3L, 1e3L, false), uniform_half(-16, 16)}},
      {"remainder", S::T_TT, 0, u2(std::remainder), {wide, wide}},
      {"remquo", S::T_TTpi, 0,
       [](L x, L y, L, int) { return Expected{std::remainder(x, y), 0, reference::remquo_bits(x, y)}; },
       {one_of({wide, log_uniform_half(1e4L, 65504)}), one_of({wide, uniform_half(-8, 8)})}, all},
      {"rint", S::T_T, 0, u1(std::nearbyint), {}, all},
      {"rootn", S::T_Ti, 4, [](L x, L, L, int n) { return value_of(reference::rootn(x, n)); }, {wide}, all},
      {"round", S::T_T, 0, u1(std::round), {}, all},
      {"rsqrt", S::T_T, 1, [](L x, L, L, int) { return value_of(1 / std::sqrt(x)); }},
      {"sin", S::T_T, 2, u1(std::sin), {}, {4}},
      {"sincos", S::T_TpT, 2, [](L x, L, L, int) { return Expected{std::sin(x), std::cos(x)}; }, {}, all, 2},
      {"sinh", S::T_T, 2, u1(std::sinh)},
      {"sinpi", S::T_T, 2, u1(reference::sinpi)},
      {"sqrt", S::T_T, 0, u1(std::sqrt), {}, all},
      {"tan", S::T_T, 2, u1(std::tan)},
      {"tanh", S::T_T, 2, u1(std::tanh)},
      {"tanpi", S::T_T, 2, u1(reference::tanpi)},
      {"tgamma", S::T_T, 4, u1(std::tgamma)},
      {"trunc", S::T_T, 0, u1(std::trunc), {}, all},
  };
  for (auto& hc : c) {
    // IEEE maxNum/minNum leave the sign of a zero result open when both are zeros.
    if (hc.name == "fmax" || hc.name == "fmin" || hc.name == "maxmag" || hc.name == "minmag") hc.zero_sign_free = true;
    if (hc.name == "lgamma") hc.min_magnitude = 0x1p-4L;  // no relative limit is meaningful near its zeros
  }
  HalfCase lgamma_r{"lgamma_r", S::T_Tpi, 4,
                    [](L x, L, L, int) {
                      int sign = 0;
                      const L v = lgammal_r(x, &sign);
                      const bool pole = std::isnan(x) || std::isinf(x) || (x <= 0 && x == std::floor(x));
                      return Expected{v, 0, sign, !pole};
                    },
                    {}, all};
  lgamma_r.min_magnitude = 0x1p-4L;
  c.push_back(lgamma_r);
  return c;
}

TEST_P(Fp16Builtins, MathWithinHalfUlpLimits) { run_half_cases(env, half_math_cases(), ""); }

// OpenCL C 3.0 calls the generic-address-space overloads of fract, frexp, sincos, ...
TEST_P(Fp16Builtins, MathPointerFunctionsUnderOpenCLC30) {
  std::vector<HalfCase> cases;
  for (auto& hc : half_math_cases())
    if (has_pointer(hc.shape)) cases.push_back(hc);
  run_half_cases(env, cases, "-cl-std=CL3.0", 500);
}

// fma rounds a * b + c once: products of halves with short significands landing exactly
// between two halves, moved off the tie by the smallest subnormal (rounding the sum to float
// first, 24 bits, would land back on the tie), and huge products cancelled by c.
TEST_P(Fp16Builtins, FmaAndMadRoundOnce) {
  HalfCase fma{"fma", S::T_TTT, 0, [](L a, L b, L c, int) {
                 return value_of(value(exact_fma(nearest_half(a), nearest_half(b), nearest_half(c))));
               }};
  const auto short_significand = [](Random& rng) {
    return nearest_half(std::ldexp(1 + L(rng() % 64) / 64, int(rng() % 9) - 4) * ((rng() & 1) ? -1 : 1));
  };
  const auto tiny = [](Random& rng) {
    return static_cast<Half>((rng() % 4) | ((rng() & 1) ? 0x8000 : 0));  // 0 to 3 * 2^-24, either sign
  };
  fma.generators = {short_significand, short_significand, one_of({tiny, uniform_half(-4, 4)})};
  fma.widths = {4};
  HalfCase mad = fma;
  mad.name = "mad";
  mad.reference = [](L a, L b, L c, int) {
    Expected e = value_of(value(exact_fma(nearest_half(a), nearest_half(b), nearest_half(c))));
    e.alternative = value(nearest_half(value(nearest_half(a * b)) + c));
    return e;
  };
  run_half_cases(env, {fma, mad}, "", 20000);
}

// nan(ushort) is a quiet NaN in every component.
TEST_P(Fp16Builtins, NanFromCode) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(global const ushort* code, global half* out, global half* out4) {
      size_t i = get_global_id(0);
      out[i] = nan(code[i]);
      half4 v = nan((ushort4)(code[4 * i], code[4 * i + 1], code[4 * i + 2], code[4 * i + 3]));
      out4[4 * i] = v.x; out4[4 * i + 1] = v.y; out4[4 * i + 2] = v.z; out4[4 * i + 3] = v.w;
    })");
  ASSERT_TRUE(program);
  const std::vector<uint16_t> codes = {0, 1, 2, 0x1ff, 0x200, 0xffff, 12345, 7, 0, 0x8000, 0x3ff, 0x7c00};
  Launch launch(env, program.kernel("k"));
  launch.in(codes).out<Half>(codes.size()).out<Half>(codes.size());
  launch.run(3);
  const auto scalar = launch.result<Half>(1), vector = launch.result<Half>(2);
  for (size_t i = 0; i < codes.size(); ++i) {
    if (i < 3) {
      EXPECT_TRUE(is_nan(scalar[i])) << hex(scalar[i]) << " for code " << codes[i];
    }
    EXPECT_TRUE(is_nan(vector[i])) << hex(vector[i]) << " for code " << codes[i];
  }
}

// ---------------------------------------------------------------- common functions
TEST_P(Fp16Builtins, CommonFunctions) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(global const half* a, global const half* b, global const half* c, global half* r) {
      size_t i = get_global_id(0);
      half x = a[i], lo = fmin(b[i], c[i]), hi = fmax(b[i], c[i]);
      global half* o = r + 20 * i;
      o[0] = clamp(x, lo, hi);
      o[1] = degrees(x);
      o[2] = max(x, b[i]);
      o[3] = min(x, b[i]);
      o[4] = mix(x, b[i], c[i]);
      o[5] = radians(x);
      o[6] = step(b[i], x);
      o[7] = smoothstep(lo, hi, x);
      o[8] = sign(x);
      half4 v = (half4)(x, b[i], c[i], -x);
      half8 v8 = (half8)(v, -v);
      o[9] = clamp(v, lo, hi).y;
      o[10] = max(v, x).w;
      o[11] = min(v8, x).s6;
      o[12] = mix(v, v.wzyx, c[i]).x;
      o[13] = step(x, v).y;
      o[14] = smoothstep(lo, hi, v8).s3;
      o[15] = sign(v).w;
      o[16] = fmax(v, b[i]).x;
      o[17] = fmin(v8, b[i]).s7;
      o[18] = clamp(v8, (half8)lo, (half8)hi).s1;
      o[19] = ldexp(v, -3).z;
    })");
  ASSERT_TRUE(program);
  const size_t n = 6144;
  Random rng(16);
  const auto edges = core_edge_halves();
  std::vector<Half> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = i < edges.size() ? edges[i] : i % 3 ? uniform_half(-1000, 1000)(rng) : any_half()(rng);
    b[i] = i % 7 == 0 ? a[i] : uniform_half(-1000, 1000)(rng);
    c[i] = i % 5 == 0 ? edges[rng() % edges.size()] : uniform_half(-0.25L, 1.25L)(rng);
  }
  Launch launch(env, program.kernel("k"));
  launch.in(a).in(b).in(c).out<Half>(20 * n);
  launch.run(n);
  const auto r = launch.result<Half>(3);
  int failures = 0;
  auto check = [&](size_t i, int slot, const char* what, bool ok, L want) {
    if (!ok && ++failures <= 12)
      ADD_FAILURE() << what << " at a=" << hex(a[i]) << " b=" << hex(b[i]) << " c=" << hex(c[i]) << ": got "
                    << hex(r[20 * i + slot]) << " = " << value(r[20 * i + slot]) << ", want " << want;
  };
  // Exact results (max/min of equal zeros may give either sign).
  auto exact = [&](size_t i, int slot, const char* what, L want) {
    const Half got = r[20 * i + slot];
    check(i, slot, what, same_half(got, nearest_half(want)) || (want == 0 && value(got) == 0), want);
  };
  auto within = [&](size_t i, int slot, const char* what, L want, double ulps) {
    check(i, slot, what, ulp_error(r[20 * i + slot], want) <= ulps, want);
  };
  const L pi = reference::kPi;
  for (size_t i = 0; i < n; ++i) {
    const L x = value(a[i]), y = value(b[i]), t = value(c[i]);
    if (std::isnan(x) || std::isnan(y) || std::isnan(t)) continue;  // undefined for most of these
    const L lo = std::fmin(y, t), hi = std::fmax(y, t);
    auto clamped = [&](L v) { return std::fmin(std::fmax(v, lo), hi); };
    const L signed_unit = x > 0 ? 1 : x < 0 ? -1 : x;
    exact(i, 0, "clamp", clamped(x));
    within(i, 1, "degrees", x * 180 / pi, 2);
    exact(i, 2, "max", std::fmax(x, y));
    exact(i, 3, "min", std::fmin(x, y));
    within(i, 5, "radians", x * pi / 180, 2);
    exact(i, 6, "step", x < y ? 0 : 1);
    exact(i, 8, "sign", signed_unit);
    exact(i, 9, "clamp (vector, scalar bounds)", clamped(y));
    exact(i, 10, "max (vector, scalar)", std::fmax(-x, x));
    exact(i, 11, "min (vector, scalar)", std::fmin(-t, x));
    exact(i, 13, "step (scalar edge)", y < x ? 0 : 1);
    exact(i, 15, "sign (vector)", -signed_unit);
    exact(i, 16, "fmax (vector, scalar)", std::fmax(x, y));
    exact(i, 17, "fmin (vector, scalar)", std::fmin(x, y));
    exact(i, 18, "clamp (half8)", clamped(y));
    exact(i, 19, "ldexp (vector, scalar int)", std::ldexp(t, -3));
    if (std::isfinite(x) && std::isfinite(y) && std::isfinite(t)) {
      // mix is x + (y - x) * a: within an ulp of that, or of its rounding scale where it cancels.
      auto mixes = [&](int slot, const char* what, L p, L q, L s) {
        const L want = p + (q - p) * s, scale = 0x1p-20L * (std::fabs(p) + std::fabs((q - p) * s));
        const Half got = r[20 * i + slot];
        check(i, slot, what, ulp_error(got, want) <= 1 || std::fabs(value(got) - want) <= scale, want);
      };
      mixes(4, "mix", x, y, t);
      mixes(12, "mix (vector, scalar a)", x, -x, t);
    }
    if (std::isfinite(x) && lo < hi && std::isfinite(hi - lo)) {
      auto smooth = [&](int slot, const char* what, L v) {
        const L s = std::min(std::max((v - lo) / (hi - lo), L(0)), L(1)), want = s * s * (3 - 2 * s);
        check(i, slot, what, std::fabs(value(r[20 * i + slot]) - want) <= 0x1p-11L, want);
      };
      smooth(7, "smoothstep", x);
      smooth(14, "smoothstep (scalar edges)", -x);
    }
  }
}

// sign(NaN) is 0, sign(+-0) keeps the zero's sign, and the smallest subnormal counts.
TEST_P(Fp16Builtins, SignOfSpecialValues) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(global half* r) {
      r[0] = sign((half)NAN); r[1] = sign(-0.0h); r[2] = sign(0.0h); r[3] = sign(-(half)INFINITY);
      r[4] = sign(as_half((ushort)1)); r[5] = sign(as_half((ushort)0x8001));
    })");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.out<Half>(6);
  launch.run(1);
  const auto r = launch.result<Half>(0);
  EXPECT_EQ(r[0], 0x0000);
  EXPECT_EQ(r[1], 0x8000);
  EXPECT_EQ(r[2], 0x0000);
  EXPECT_EQ(r[3], 0xbc00);
  EXPECT_EQ(r[4], 0x3c00);
  EXPECT_EQ(r[5], 0xbc00);
}

// ---------------------------------------------------------------- geometric functions
// dot, length, distance, normalize and cross within the float tests' bounds in half ulps;
// each group of eight vectors has one huge (the squares overflow half) and one tiny (they
// underflow) vector, which a sum of squares in half would get wrong.
void check_geometric(const Env& env, int n) {
  const std::string V = n == 1 ? "half" : "half" + std::to_string(n), N = std::to_string(n);
  const std::string load_p = gather("half", "p", n), load_q = gather("half", "q", n);
  std::string source = std::string(kFp16Pragmas) + "kernel void k(global const half* p, global const half* q, " +
                       "global half* r, global half* nr, global half* cr) {\n  size_t i = get_global_id(0);\n  " + V +
                       " a = " + load_p + ", b = " + load_q + ";\n" +
                       "  r[3 * i] = dot(a, b);\n  r[3 * i + 1] = length(a);\n  r[3 * i + 2] = distance(a, b);\n  " +
                       scatter("half", "normalize(a)", "nr", n) + "\n";
  if (n >= 3) source += "  " + scatter("half", "cross(a, b)", "cr", n) + "\n";
  source += "}\n";
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  const size_t items = 4096;
  Random rng(100 + n);
  std::vector<Half> p(items * n), q(items * n);
  for (size_t i = 0; i < items; ++i) {
    const L scale = i % 8 == 0 ? 30000 : i % 8 == 1 ? 0x1p-16L : 100;
    for (int k = 0; k < n; ++k) {
      p[i * n + k] = uniform_half(-scale, scale)(rng);
      q[i * n + k] = uniform_half(-scale, scale)(rng);
    }
  }
  Launch launch(env, program.kernel("k"));
  launch.in(p).in(q).out<Half>(3 * items).out<Half>(items * n).out<Half>(items * n);
  launch.run(items);
  const auto r = launch.result<Half>(2), nr = launch.result<Half>(3), cr = launch.result<Half>(4);
  const L eps = 0x1p-10L;
  int failures = 0;
  auto fail = [&](size_t i, const std::string& what) {
    if (++failures <= 10) ADD_FAILURE() << what << " (" << V << ") item " << i << " p0=" << hex(p[i * n]);
  };
  for (size_t i = 0; i < items; ++i) {
    L dot = 0, len2 = 0, dist2 = 0, max = 0;
    const Half* a = &p[i * n];
    const Half* b = &q[i * n];
    for (int k = 0; k < n; ++k) {
      const L x = value(a[k]), y = value(b[k]);
      dot += x * y, len2 += x * x, dist2 += (x - y) * (x - y);
      max = std::max({max, std::fabs(x), std::fabs(y)});
    }
    const bool ordinary = i % 8 >= 2;
    if (ordinary && std::fabs(value(r[3 * i]) - dot) > max * max * (2 * n - 1) * eps)
      fail(i, "dot " + hex(r[3 * i]) + " want " + std::to_string(double(dot)));
    const L length = std::sqrt(len2), distance = std::sqrt(dist2);
    if (ulp_error(r[3 * i + 1], length) > 0.75 + 0.5 * n)
      fail(i, "length " + hex(r[3 * i + 1]) + " want " + std::to_string(double(length)));
    if (ulp_error(r[3 * i + 2], distance) > 2.5 + 2 * n)
      fail(i, "distance " + hex(r[3 * i + 2]) + " want " + std::to_string(double(distance)));
    for (int k = 0; k < n; ++k) {
      const L want = value(a[k]) / length;
      if (ulp_error(nr[i * n + k], want) > 2 + n && std::fabs(value(nr[i * n + k]) - want) > eps)
        fail(i, "normalize component " + std::to_string(k) + " " + hex(nr[i * n + k]) + " want " +
                    std::to_string(double(want)));
    }
    if (n >= 3 && ordinary) {
      L x[3], y[3];
      for (int k = 0; k < 3; ++k) x[k] = value(a[k]), y[k] = value(b[k]);
      const L want[4] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0], 0};
      for (int k = 0; k < n; ++k)
        if (std::fabs(value(cr[i * n + k]) - want[k]) > max * max * 3 * eps)
          fail(i, "cross component " + std::to_string(k) + " " + hex(cr[i * n + k]));
    }
  }
}

TEST_P(Fp16Builtins, GeometricFunctions) {
  for (int n = 1; n <= 4; ++n) {
    SCOPED_TRACE("width " + std::to_string(n));
    check_geometric(env, n);
  }
}

// normalize of a zero vector returns it; infinite components become +-1 (the rest 0); a
// NaN component makes the length NaN.
TEST_P(Fp16Builtins, GeometricSpecialVectors) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(global half* r) {
      half4 z = normalize((half4)(0.0h, -0.0h, 0.0h, 0.0h));
      half4 inf = normalize((half4)(INFINITY, 1.0h, -INFINITY, 2.0h));
      r[0] = z.x; r[1] = z.y; r[2] = inf.x; r[3] = inf.y; r[4] = inf.z; r[5] = inf.w;
      r[6] = length((half3)(1.0h, NAN, 2.0h));
      r[7] = length((half2)(3.0h, 4.0h));
      r[8] = distance((half2)(65504.0h, 0.0h), (half2)(-65504.0h, 0.0h));
    })");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.out<Half>(9);
  launch.run(1);
  const auto r = launch.result<Half>(0);
  EXPECT_EQ(r[0], 0x0000);
  EXPECT_EQ(r[1], 0x8000);
  EXPECT_NEAR(value(r[2]), 1 / std::sqrt(2.0L), 1e-3);
  EXPECT_EQ(value(r[3]), 0);
  EXPECT_NEAR(value(r[4]), -1 / std::sqrt(2.0L), 1e-3);
  EXPECT_EQ(value(r[5]), 0);
  EXPECT_TRUE(is_nan(r[6])) << hex(r[6]);
  EXPECT_EQ(r[7], nearest_half(5));
  EXPECT_EQ(r[8], 0x7c00);  // 131008 is past the largest half
}

// ---------------------------------------------------------------- relational functions
// Comparisons and classification: int 1/0 for a scalar, short -1/0 per component for a
// vector; bitselect picks bits, select components by the sign of a short or ushort mask.
TEST_P(Fp16Builtins, RelationalFunctions) {
  const char* names[] = {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
                         "islessgreater", "isordered", "isunordered", "isfinite", "isinf", "isnan",
                         "isnormal", "signbit"};
  // Work-item g tests the four pairs 4g ... 4g + 3: one by one, and as one half4.
  std::string source = std::string(kFp16Pragmas) +
                       "kernel void k(global const half* a, global const half* b, global int* rs, global short* rv) {\n"
                       "  size_t i = get_global_id(0);\n  half4 va = " + gather("half", "a", 4) +
                       ", vb = " + gather("half", "b", 4) + ";\n";
  for (int f = 0; f < 14; ++f) {
    const std::string name = names[f], vargs = f < 9 ? "(va, vb)" : "(va)";
    for (int k = 0; k < 4; ++k) {
      const std::string j = "4 * i + " + std::to_string(k);
      source += "  rs[14 * (" + j + ") + " + std::to_string(f) + "] = " + name + "(a[" + j + "]" +
                (f < 9 ? ", b[" + j + "])" : ")") + ";\n";
    }
    source += "  { short4 s = " + name + vargs + ";";
    for (int k = 0; k < 4; ++k) {
      const std::string j = "4 * i + " + std::to_string(k);
      source += " rv[14 * (" + j + ") + " + std::to_string(f) + "] = s.s" + std::to_string(k) + ";";
    }
    source += " }\n";
  }
  source += "}\n";
  source += "kernel void pick(global const half* a, global const half* b, global const ushort* m, global half* rb, "
            "global half* rs, global half* ru, global half* r1) {\n  size_t i = get_global_id(0);\n"
            "  half8 x = " + gather("half", "a", 8) + ", y = " + gather("half", "b", 8) + ";\n"
            "  ushort8 mask = " + gather("ushort", "m", 8) + ";\n  " +
            scatter("half", "bitselect(x, y, as_half8(mask))", "rb", 8) + "\n  " +
            scatter("half", "select(x, y, as_short8(mask))", "rs", 8) + "\n  " +
            scatter("half", "select(x, y, mask)", "ru", 8) + "\n"
            "  r1[i] = select(a[i], b[i], (short)(m[i] & 1));\n}\n";
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  const auto edges = core_edge_halves();
  std::vector<Half> a, b;
  for (Half x : edges)
    for (Half y : edges) a.push_back(x), b.push_back(y);
  while (a.size() % 4) a.push_back(0), b.push_back(0);
  const size_t n = a.size();
  Launch launch(env, program.kernel("k"));
  launch.in(a).in(b).out<int>(14 * n).out<int16_t>(14 * n);
  launch.run(n / 4);
  const auto rs = launch.result<int>(2);
  const auto rv = launch.result<int16_t>(3);
  auto truth = [](int f, L x, L y) { return relational_truth(f, x, y, 0x1p-14L); };
  int failures = 0;
  for (size_t j = 0; j < n; ++j) {
    for (int f = 0; f < 14; ++f) {
      const bool want = truth(f, value(a[j]), value(b[j]));
      const int scalar = rs[14 * j + f], vector = rv[14 * j + f];
      if ((scalar != (want ? 1 : 0) || vector != (want ? -1 : 0)) && ++failures <= 12)
        ADD_FAILURE() << names[f] << "(" << hex(a[j]) << ", " << hex(b[j]) << "): scalar " << scalar << ", vector "
                      << vector << ", want " << want;
    }
  }

  const size_t items = 64;
  Random rng(7);
  std::vector<Half> x(8 * items), y(8 * items);
  std::vector<uint16_t> mask(8 * items);
  for (size_t i = 0; i < x.size(); ++i) x[i] = any_half()(rng), y[i] = any_half()(rng), mask[i] = uint16_t(rng());
  Launch picks(env, program.kernel("pick"));
  picks.in(x).in(y).in(mask).out<Half>(x.size()).out<Half>(x.size()).out<Half>(x.size()).out<Half>(items);
  picks.run(items);
  const auto by_bits = picks.result<Half>(3), by_short = picks.result<Half>(4), by_ushort = picks.result<Half>(5);
  const auto scalar = picks.result<Half>(6);
  for (size_t i = 0; i < x.size(); ++i) {
    const Half bits = static_cast<Half>((x[i] & ~mask[i]) | (y[i] & mask[i]));
    const Half by_sign = (mask[i] & 0x8000) ? y[i] : x[i];
    EXPECT_EQ(by_bits[i], bits) << "bitselect " << i;
    EXPECT_EQ(by_short[i], by_sign) << "select (short mask) " << i;
    EXPECT_EQ(by_ushort[i], by_sign) << "select (ushort mask) " << i;
    if (i < items) {
      EXPECT_EQ(scalar[i], (mask[i] & 1) ? y[i] : x[i]) << "select (scalar) " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Fp16Builtins, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// Common builtins (OpenCL C 3.0, 6.15.4) for float and double, scalar and vector (including
// the forms with scalar arguments): clamp, degrees, max, min, mix, radians, step,
// smoothstep and sign, against host references.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Common : public DeviceTest {};

template <class T>
void check_common(const Env& env) {
  const std::string t = cl_name<T>();
  std::string source = std::string(kFp64Pragma) + R"(
    kernel void k(global const T* a, global const T* b, global const T* c, global T* r) {
      size_t i = get_global_id(0);
      T x = a[i], lo = fmin(b[i], c[i]), hi = fmax(b[i], c[i]);
      r[16 * i + 0] = clamp(x, lo, hi);
      r[16 * i + 1] = degrees(x);
      r[16 * i + 2] = max(x, b[i]);
      r[16 * i + 3] = min(x, b[i]);
      r[16 * i + 4] = mix(x, b[i], c[i]);
      r[16 * i + 5] = radians(x);
      r[16 * i + 6] = step(b[i], x);
      r[16 * i + 7] = smoothstep(lo, hi, x);
      r[16 * i + 8] = sign(x);
      T4 v = (T4)(x, b[i], c[i], -x);
      T4 cv = clamp(v, lo, hi);
      r[16 * i + 9] = cv.y;
      r[16 * i + 10] = max(v, x).w;
      r[16 * i + 11] = min(v, x).z;
      r[16 * i + 12] = mix(v, v * (T)2, (T)0.5).x;
      r[16 * i + 13] = step(x, v).y;
      r[16 * i + 14] = smoothstep(lo, hi, v).w;
      r[16 * i + 15] = sign(v).w;
    })";
  for (auto [from, to] : {std::pair<std::string, std::string>{"T4", t + "4"}, {"T", t}}) {
    for (size_t p = source.find(from); p != std::string::npos; p = source.find(from, p + to.size())) {
      if (std::isalnum(static_cast<unsigned char>(source[p + from.size()])) && from == "T") continue;
      source.replace(p, from.size(), to);
    }
  }
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  const size_t n = 4096;
  Random rng(3);
  std::vector<T> a(n), b(n), c(n);
  auto edges = edge_values<T>();
  for (size_t i = 0; i < n; ++i) {
    a[i] = i < edges.size() ? edges[i] : random_uniform<T>(rng, -1000, 1000);
    b[i] = (i % 7 == 0) ? a[i] : random_uniform<T>(rng, -1000, 1000);
    c[i] = random_uniform<T>(rng, -1, 2);
  }
  Launch launch(env, program.kernel("k"));
  launch.in(a).in(b).in(c).template out<T>(16 * n);
  launch.run(n);
  auto r = launch.template result<T>(3);
  using L = long double;
  int failures = 0;
  auto expect = [&](size_t i, int slot, L want, double ulps, const char* what, L alternative = NAN) {
    const T got = r[16 * i + slot];
    L err = ulp_error<T>(got, want);
    if (want == 0 && got == 0) err = 0;  // max/min of equal zeros may give either sign
    if (!std::isnan(alternative)) err = std::min(err, ulp_error<T>(got, alternative));
    if (err > (ulps == 0 ? 0.5 : ulps) && ++failures <= 10)
      ADD_FAILURE() << what << " (" << t << ") x=" << hex(a[i]) << " b=" << hex(b[i]) << " c=" << hex(c[i])
                    << ": got " << hex(got) << ", want " << std::hexfloat << want << " (" << err << " ulp)";
  };
  const L pi = 3.14159265358979323846264338327950288L;
  for (size_t i = 0; i < n; ++i) {
    const T x = a[i], lo = std::fmin(b[i], c[i]), hi = std::fmax(b[i], c[i]);
    if (std::isnan(x)) continue;  // results with NaN inputs are undefined for most of these
    auto clampf = [&](T v) { return std::fmin(std::fmax(v, lo), hi); };
    expect(i, 0, clampf(x), 0, "clamp");
    if (std::isfinite(x)) expect(i, 1, L(x) * 180 / pi, 2, "degrees"), expect(i, 5, L(x) * pi / 180, 2, "radians");
    expect(i, 2, std::fmax(x, b[i]), 0, "max");
    expect(i, 3, std::fmin(x, b[i]), 0, "min");
    // mix is x + (y - x) * a: the multiply and add may be fused (like mad) or not.
    const T d = b[i] - x;
    if (std::isfinite(x)) expect(i, 4, T(x + d * c[i]), 0, "mix", std::fma(d, c[i], x));
    expect(i, 6, x < b[i] ? 0 : 1, 0, "step");
    if (std::isfinite(x) && lo < hi) {
      const L t = std::min(std::max((L(x) - lo) / (L(hi) - lo), L(0)), L(1));
      const L want = t * t * (3 - 2 * t);
      if (std::fabs(r[16 * i + 7] - want) > 1e-5 && ++failures <= 10)
        ADD_FAILURE() << "smoothstep x=" << x << " got " << r[16 * i + 7] << " want " << double(want);
    }
    expect(i, 8, x > 0 ? 1 : x < 0 ? -1 : x, 0, "sign");
    expect(i, 9, clampf(b[i]), 0, "clamp (vector, scalar bounds)");
    expect(i, 10, std::fmax(-x, x), 0, "max (vector, scalar)");
    expect(i, 11, std::fmin(c[i], x), 0, "min (vector, scalar)");
    if (std::isfinite(x)) expect(i, 12, T(x + (x * 2 - x) * T(0.5)), 0, "mix (vector, scalar a)", std::fma(x * 2 - x, T(0.5), x));
    expect(i, 13, b[i] < x ? 0 : 1, 0, "step (scalar edge)");
    expect(i, 15, -x > 0 ? 1 : -x < 0 ? -1 : -x, 0, "sign (vector)");
  }
}

TEST_P(Common, Float) { check_common<float>(env); }
TEST_P(Common, Double) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_common<double>(env);
}

// sign(NaN) is 0 and sign(+-0) keeps the zero's sign.
TEST_P(Common, SignSpecialValues) {
  BuiltProgram program(env, R"(
    kernel void k(global float* r) {
      r[0] = sign(NAN); r[1] = sign(-0.0f); r[2] = sign(0.0f); r[3] = sign(-INFINITY); r[4] = sign(1e-45f);
    })");
  Launch launch(env, program.kernel("k"));
  launch.out<float>(5);
  launch.run(1);
  auto r = launch.result<float>(0);
  EXPECT_EQ(bits_of(r[0]), 0u);
  EXPECT_EQ(bits_of(r[1]), 0x80000000u);
  EXPECT_EQ(bits_of(r[2]), 0u);
  EXPECT_EQ(r[3], -1.0f);
  EXPECT_EQ(r[4], 1.0f);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Common, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

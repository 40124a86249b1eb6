// Geometric builtins (OpenCL C 3.0, 6.15.5) for float and double with 1 to 4 components:
// dot, cross, length, distance, normalize within the spec's error bounds (7.4), and the
// fast_ variants within 8192 ulp, including huge and tiny components (no overflow or
// underflow in the sum of squares).
#include <cmath>

#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Geometric : public DeviceTest {};

template <class T>
void check_geometric(const Env& env, int n) {
  const std::string t = cl_name<T>(), V = n == 1 ? t : t + std::to_string(n);
  const std::string load = n == 1 ? "p[i]" : "vload" + std::to_string(n) + "(i, p)";
  const std::string loadq = n == 1 ? "q[i]" : "vload" + std::to_string(n) + "(i, q)";
  const std::string store = n == 1 ? "nr[i] = normalize(a);" : "vstore" + std::to_string(n) + "(normalize(a), i, nr);";
  const std::string fstore =
      n == 1 ? "fn[i] = fast_normalize(a);" : "vstore" + std::to_string(n) + "(fast_normalize(a), i, fn);";
  const bool fast = std::is_same_v<T, float>;  // fast_ functions are float only
  std::string source = std::string(kFp64Pragma) + "kernel void k(global const " + t + "* p, global const " + t +
                       "* q, global " + t + "* r, global " + t + "* nr, global " + t + "* fn) {\n  size_t i = get_global_id(0);\n  " +
                       V + " a = " + load + ", b = " + loadq + ";\n  r[8 * i] = dot(a, b);\n  r[8 * i + 1] = length(a);\n" +
                       "  r[8 * i + 2] = distance(a, b);\n  " + store + "\n" +
                       (fast ? "  r[8 * i + 3] = fast_length(a);\n  r[8 * i + 4] = fast_distance(a, b);\n  " + fstore + "\n"
                             : "") +
                       "}\n";
  if (n == 3 || n == 4)
    source += "kernel void c(global const " + t + "* p, global const " + t + "* q, global " + t +
              "* r) {\n  size_t i = get_global_id(0);\n  vstore" + std::to_string(n) + "(cross(vload" +
              std::to_string(n) + "(i, p), vload" + std::to_string(n) + "(i, q)), i, r);\n}\n";
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  const size_t items = 2048;
  Random rng(n);
  std::vector<T> p(items * n), q(items * n);
  for (size_t i = 0; i < items; ++i) {
    // Each vector has one scale: ordinary, huge (squares overflow) or tiny (squares underflow).
    const long double scale = i % 8 == 0 ? std::numeric_limits<T>::max() / 4 : i % 8 == 1 ? std::numeric_limits<T>::min() * 8 : 100;
    for (int k = 0; k < n; ++k) {
      p[i * n + k] = random_uniform<T>(rng, -scale, scale);
      q[i * n + k] = i % 8 < 2 ? random_uniform<T>(rng, -scale, scale) : random_uniform<T>(rng, -100, 100);
    }
  }
  Launch launch(env, program.kernel("k"));
  launch.in(p).in(q).template out<T>(8 * items).template out<T>(items * n).template out<T>(items * n);
  launch.run(items);
  auto r = launch.template result<T>(2), nr = launch.template result<T>(3), fnr = launch.template result<T>(4);
  using L = long double;
  const L eps = std::numeric_limits<T>::epsilon();
  int failures = 0;
  auto fail = [&](size_t i, const std::string& what) {
    if (++failures <= 10) ADD_FAILURE() << what << " (" << V << ") item " << i << " p0=" << hex(p[i * n]);
  };
  for (size_t i = 0; i < items; ++i) {
    L dot = 0, len2 = 0, dist2 = 0, max = 0;
    for (int k = 0; k < n; ++k) {
      const L a = p[i * n + k], b = q[i * n + k];
      dot += a * b, len2 += a * a, dist2 += (a - b) * (a - b);
      max = std::max({max, std::fabs(a), std::fabs(b)});
    }
    const bool ordinary = i % 8 >= 2;
    if (ordinary && std::fabs(r[8 * i] - dot) > max * max * (2 * n - 1) * eps)
      fail(i, "dot " + hex(r[8 * i]) + " want " + std::to_string(double(dot)));
    const L length = std::sqrt(len2), distance = std::sqrt(dist2);
    if (ulp_error<T>(r[8 * i + 1], length) > 0.25 + 0.5 * n + 0.5)
      fail(i, "length " + hex(r[8 * i + 1]) + " want " + std::to_string(double(length)));
    if (ulp_error<T>(r[8 * i + 2], distance) > 2.5 + 2 * n)
      fail(i, "distance " + hex(r[8 * i + 2]) + " want " + std::to_string(double(distance)));
    for (int k = 0; k < n; ++k) {
      const L want = p[i * n + k] / length;
      if (ulp_error<T>(nr[i * n + k], want) > 2 + n && std::fabs(nr[i * n + k] - want) > eps)
        fail(i, "normalize component " + std::to_string(k) + " " + hex(nr[i * n + k]) + " want " +
                    std::to_string(double(want)));
      if (fast && ordinary && std::fabs(fnr[i * n + k] - want) > 8192 * eps)
        fail(i, "fast_normalize component " + std::to_string(k));
    }
    if (fast && ordinary) {
      if (ulp_error<T>(r[8 * i + 3], length) > 8192) fail(i, "fast_length " + hex(r[8 * i + 3]));
      if (ulp_error<T>(r[8 * i + 4], distance) > 8192) fail(i, "fast_distance " + hex(r[8 * i + 4]));
    }
  }
  if (n == 3 || n == 4) {
    Launch cross(env, program.kernel("c"));
    cross.in(p).in(q).template out<T>(items * n);
    cross.run(items);
    auto c = cross.template result<T>(2);
    for (size_t i = 0; i < items; ++i) {
      if (i % 8 < 2) continue;
      const T* a = &p[i * n];
      const T* b = &q[i * n];
      const L want[4] = {L(a[1]) * b[2] - L(a[2]) * b[1], L(a[2]) * b[0] - L(a[0]) * b[2], L(a[0]) * b[1] - L(a[1]) * b[0], 0};
      L max = 0;
      for (int k = 0; k < 3; ++k) max = std::max({max, std::fabs(L(a[k])), std::fabs(L(b[k]))});
      for (int k = 0; k < n; ++k)
        if (std::fabs(c[i * n + k] - want[k]) > max * max * 3 * eps) fail(i, "cross component " + std::to_string(k));
    }
  }
}

TEST_P(Geometric, Float) {
  for (int n = 1; n <= 4; ++n) check_geometric<float>(env, n);
}
TEST_P(Geometric, Double) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  for (int n = 1; n <= 4; ++n) check_geometric<double>(env, n);
}

// Special cases: normalize of a zero vector returns it, of a vector with infinities gives
// unit directions; length of an infinite vector is infinity.
TEST_P(Geometric, SpecialVectors) {
  BuiltProgram program(env, R"(
    kernel void k(global float* r) {
      vstore4(normalize((float4)(0.0f)), 0, r);
      vstore4(normalize((float4)(INFINITY, 1.0f, -INFINITY, 0.0f)), 1, r);
      r[8] = length((float2)(INFINITY, 1.0f));
      r[9] = length((float3)(3e38f, 4e38f, 0.0f));
      r[10] = length((float2)(3e-45f, 4e-45f));
    })");
  Launch launch(env, program.kernel("k"));
  launch.out<float>(11);
  launch.run(1);
  auto r = launch.result<float>(0);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(r[k], 0.0f);
  EXPECT_NEAR(r[4], 0.70710678f, 1e-6f);
  EXPECT_EQ(r[5], 0.0f);
  EXPECT_NEAR(r[6], -0.70710678f, 1e-6f);
  EXPECT_EQ(r[7], 0.0f);
  EXPECT_TRUE(std::isinf(r[8]));
  EXPECT_TRUE(std::isinf(r[9]));  // 5e38 > FLT_MAX
  EXPECT_NEAR(r[10], 5.6e-45f, 1.5e-45f);
}

// A NaN component makes a length NaN, unless another is infinite (the CTS's geom_length
// checks the scalar double case).
TEST_P(Geometric, NaNComponentsMakeTheLengthNaN) {
  if (device_string(env.device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") == std::string::npos) {
    GTEST_SKIP() << "no fp64";
  }
  BuiltProgram program(env, R"(
    kernel void k(global double* out) {
      out[0] = length((double)NAN);
      out[1] = length((double2)(NAN, 1.0));
      out[2] = length((double3)(INFINITY, NAN, 0.0));
      out[3] = length(-3.0);
      out[4] = length((float)NAN);
    })");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer out(env.context, 5 * sizeof(double));
  set_args(kernel, out.get());
  run_1d(env.queue, kernel, 1);
  const auto values = read_buffer<double>(env.queue, out.get(), 5);
  EXPECT_TRUE(std::isnan(values[0]));
  EXPECT_TRUE(std::isnan(values[1]));
  EXPECT_EQ(values[2], INFINITY);
  EXPECT_EQ(values[3], 3.0);
  EXPECT_TRUE(std::isnan(values[4]));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Geometric, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

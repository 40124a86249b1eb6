// Relational builtins (OpenCL C 3.0, 6.15.6): comparisons and classification return 1 for a
// true scalar and -1 (all bits set) for a true vector component; any/all look at the sign
// bit; select and bitselect pick per component and per bit.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Relational : public DeviceTest {};

template <class T, class I>
void check_float_relational(const Env& env) {
  const std::string t = cl_name<T>(), i = cl_name<I>();
  const char* names[] = {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
                         "islessgreater", "isordered", "isunordered", "isfinite", "isinf", "isnan",
                         "isnormal", "signbit"};
  std::string source = kFp64Pragma;
  source += "kernel void k(global const " + t + "* a, global const " + t + "* b, global int* rs, global " + i +
            "* rv) {\n  size_t g = get_global_id(0);\n";
  for (int f = 0; f < 14; ++f) {
    const std::string args = f < 9 ? "(a[g], b[g])" : "(a[g])";
    const std::string vargs = f < 9 ? "(vload4(g, a), vload4(g, b))" : "(vload4(g, a))";
    source += "  rs[14 * g + " + std::to_string(f) + "] = " + names[f] + args + ";\n";
    source += "  vstore4(" + std::string(names[f]) + vargs + ", 14 * g + " + std::to_string(f) + ", rv);\n";
  }
  source += "}\n";
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  auto edges = core_edge_values<T>();
  std::vector<T> a, b;
  for (T x : edges)
    for (T y : edges) a.push_back(x), b.push_back(y);
  while (a.size() % 4) a.push_back(0), b.push_back(0);
  const size_t n = a.size();
  Launch launch(env, program.kernel("k"));
  launch.in(a).in(b).template out<int>(14 * n).template out<I>(14 * n * 4 / 4 * 4);
  launch.run(n / 4);
  auto rs = launch.template result<int>(2);
  auto rv = launch.template result<I>(3);
  auto truth = [](int f, T x, T y) {
    return relational_truth(f, x, y, std::numeric_limits<T>::min());
  };
  for (size_t g = 0; g < n / 4; ++g)
    for (int f = 0; f < 14; ++f) {
      ASSERT_EQ(rs[14 * g + f], truth(f, a[g], b[g]) ? 1 : 0) << names[f] << " " << hex(a[g]) << ", " << hex(b[g]);
      for (int k = 0; k < 4; ++k) {
        const size_t j = 4 * g + k;
        ASSERT_EQ(rv[4 * (14 * g + f) + k], truth(f, a[j], b[j]) ? I(-1) : I(0))
            << names[f] << "(" << t << "4) " << hex(a[j]) << ", " << hex(b[j]);
      }
    }
}

TEST_P(Relational, FloatComparisonsAndClasses) { check_float_relational<float, int32_t>(env); }
TEST_P(Relational, DoubleComparisonsAndClasses) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_float_relational<double, int64_t>(env);
}

// any/all on the sign bits, select on the sign (vector) or non-zero (scalar) condition,
// bitselect on bits; for integer and floating element types.
TEST_P(Relational, AnyAllSelectBitselect) {
  BuiltProgram program(env, std::string(kFp64Pragma) + R"(
    kernel void k(global const int* a, global const long* l, global const float* f, global int* r,
                  global float* rf, global long* rl) {
      size_t g = get_global_id(0);
      int4 v = vload4(g, a);
      r[8 * g + 0] = any(v);
      r[8 * g + 1] = all(v);
      r[8 * g + 2] = any(v.x);
      r[8 * g + 3] = all(vload16(0, a));
      r[8 * g + 4] = any((char3)((char)v.x, (char)v.y, (char)v.z));
      r[8 * g + 5] = select(10, 20, v.x);              /* scalar: non-zero picks b */
      r[8 * g + 6] = select((int2)(10), (int2)(20), v.xy).y;  /* vector: sign bit picks b */
      r[8 * g + 7] = bitselect(v.x, v.y, v.z);
      rf[2 * g] = select(1.5f, 2.5f, v.w);
      rf[2 * g + 1] = bitselect(f[g], -f[g], -0.0f);   /* takes the sign of -f */
      rl[g] = select((long2)(l[g]), (long2)(-l[g]), (ulong2)(0x8000000000000000ul, 1)).x;
    })");
  ASSERT_TRUE(program);
  const size_t n = 256;
  Random rng(5);
  std::vector<int32_t> a(4 * n + 16);
  std::vector<int64_t> l(n);
  std::vector<float> f(n);
  for (auto& v : a) v = (rng() % 4 == 0) ? 0 : int32_t(rng());
  for (auto& v : l) v = int64_t(rng() >> 2);
  for (auto& v : f) v = random_uniform<float>(rng, -10, 10);
  Launch launch(env, program.kernel("k"));
  launch.in(a).in(l).in(f).out<int32_t>(8 * n).out<float>(2 * n).out<int64_t>(n);
  launch.run(n);
  auto r = launch.result<int32_t>(3);
  auto rf = launch.result<float>(4);
  auto rl = launch.result<int64_t>(5);
  bool all16 = true;
  for (int k = 0; k < 16; ++k) all16 &= a[k] < 0;
  for (size_t g = 0; g < n; ++g) {
    const int32_t* v = &a[4 * g];
    ASSERT_EQ(r[8 * g + 0], (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0) ? 1 : 0) << g;
    ASSERT_EQ(r[8 * g + 1], (v[0] < 0 && v[1] < 0 && v[2] < 0 && v[3] < 0) ? 1 : 0) << g;
    ASSERT_EQ(r[8 * g + 2], v[0] < 0 ? 1 : 0) << g;
    ASSERT_EQ(r[8 * g + 3], all16 ? 1 : 0) << g;
    ASSERT_EQ(r[8 * g + 4], (int8_t(v[0]) < 0 || int8_t(v[1]) < 0 || int8_t(v[2]) < 0) ? 1 : 0) << g;
    ASSERT_EQ(r[8 * g + 5], v[0] != 0 ? 20 : 10) << g;
    ASSERT_EQ(r[8 * g + 6], v[1] < 0 ? 20 : 10) << g;
    ASSERT_EQ(r[8 * g + 7], (v[0] & ~v[2]) | (v[1] & v[2])) << g;
    ASSERT_EQ(rf[2 * g], v[3] != 0 ? 2.5f : 1.5f) << g;
    ASSERT_EQ(rf[2 * g + 1], std::copysign(f[g], -f[g])) << g;
    ASSERT_EQ(rl[g], -l[g]) << g;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Relational, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

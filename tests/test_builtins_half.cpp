// Half-precision loads and stores (OpenCL C 3.0, 6.15.7): vload_half of every one of the
// 65536 half values, and vstore_half in every rounding mode (_rte, _rtz, _rtp, _rtn and the
// default) from float and from double, on edge values (ties, overflow, subnormals, NaN)
// and random ones, exactly against a reference conversion written in the test.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Half : public DeviceTest {};

TEST_P(Half, LoadEveryHalfValue) {
  BuiltProgram program(env, R"(
    kernel void k(global const half* h, global float* r, global float* r4) {
      size_t g = get_global_id(0);
      r[g] = vload_half(g, h);
      if (g % 4 == 0) vstore4(vload_half4(g / 4, h), g / 4, r4);
    })");
  std::vector<uint16_t> halves(65536);
  for (size_t i = 0; i < halves.size(); ++i) halves[i] = uint16_t(i);
  Launch launch(env, program.kernel("k"));
  launch.in(halves).out<float>(65536).out<float>(65536);
  launch.run(65536);
  auto r = launch.result<float>(1);
  auto r4 = launch.result<float>(2);
  for (size_t i = 0; i < halves.size(); ++i) {
    const double want = half_to_double(uint16_t(i));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(r[i]) && std::isnan(r4[i])) << std::hex << i;
    } else {
      ASSERT_EQ(bits_of(r[i]), bits_of(float(want))) << std::hex << i;
      ASSERT_EQ(bits_of(r4[i]), bits_of(float(want))) << std::hex << i;
    }
  }
}

template <class T>
void check_store_half(const Env& env) {
  const std::string t = cl_name<T>();
  const char* modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
  const Rounding rounding[] = {Rounding::kNearestEven, Rounding::kNearestEven, Rounding::kTowardZero, Rounding::kUp,
                               Rounding::kDown};
  std::string source = std::string(kFp64Pragma) + "kernel void k(global const " + t +
                       "* x, global half* out, uint n) {\n  size_t g = get_global_id(0);\n";
  for (int m = 0; m < 5; ++m) {
    source += "  vstore_half" + std::string(modes[m]) + "(x[g], g, out + " + std::to_string(2 * m) + " * n);\n";
    source += "  if (g % 8 == 0) vstore_half8" + std::string(modes[m]) + "(vload8(g / 8, x), g / 8, out + " +
              std::to_string(2 * m + 1) + " * n);\n";
  }
  source += "}\n";
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  std::vector<T> x;
  for (uint32_t h = 0; h < 0x7c00; h += 7) {  // every 7th half, its neighbours and midpoints
    const double v = half_to_double(uint16_t(h)), next = half_to_double(uint16_t(h + 1));
    for (double value : {v, (v + next) / 2, std::nextafter((v + next) / 2, 0.0), std::nextafter((v + next) / 2, 1e9)})
      x.push_back(T(value)), x.push_back(T(-value));
  }
  for (T v : edge_values<T>()) x.push_back(v);
  for (T v : {T(65504), T(65519.99), T(65520), T(65535), T(65536), T(1e6), T(0x1p-25), T(0x1.8p-25), T(0x1p-26)})
    x.push_back(v), x.push_back(-v);
  Random rng(21);
  while (x.size() % 64 || x.size() < 40000) x.push_back(random_log_uniform<T>(rng, 1e-9L, 1e6L, true));
  const cl_uint n = cl_uint(x.size());
  Launch launch(env, program.kernel("k"));
  launch.in(x).template out<uint16_t>(10 * n).value(n);
  launch.run(n);
  auto out = launch.result<uint16_t>(1);
  int failures = 0;
  for (int m = 0; m < 5; ++m)
    for (cl_uint i = 0; i < n; ++i) {
      const uint16_t want = double_to_half(double(x[i]), rounding[m]);
      for (int form = 0; form < 2; ++form) {
        const uint16_t got = out[(2 * m + form) * n + i];
        const bool ok = std::isnan(x[i]) ? ((got & 0x7c00) == 0x7c00 && (got & 0x3ff)) : got == want;
        if (!ok && ++failures <= 10)
          ADD_FAILURE() << "vstore_half" << (form ? "8" : "") << modes[m] << "(" << t << " " << hex(x[i])
                        << "): got 0x" << std::hex << got << ", want 0x" << want;
      }
    }
}

TEST_P(Half, StoreFromFloatEveryRoundingMode) { check_store_half<float>(env); }
TEST_P(Half, StoreFromDoubleEveryRoundingMode) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_store_half<double>(env);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Half, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// shuffle and shuffle2 (OpenCL C 3.0, 6.15.14) for every source and result width, on
// integer and floating element types; only the low bits of each mask component count.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Shuffle : public DeviceTest {};

template <class T, class M>
void check_shuffles(const Env& env) {
  const std::string t = cl_name<T>(), m = cl_name<M>();
  const int widths[] = {2, 4, 8, 16};
  std::string source = kFp64Pragma;
  for (int n : widths)
    for (int w : widths) {
      const std::string N = std::to_string(n), W = std::to_string(w), name = "_" + N + "_" + W;
      source += "kernel void s" + name + "(global const " + t + "* x, global const " + t + "* y, global const " + m +
                "* mask, global " + t + "* r, global " + t + "* r2) {\n  size_t i = get_global_id(0);\n  vstore" + W +
                "(shuffle(vload" + N + "(i, x), vload" + W + "(i, mask)), i, r);\n  vstore" + W + "(shuffle2(vload" + N +
                "(i, x), vload" + N + "(i, y), vload" + W + "(i, mask)), i, r2);\n}\n";
    }
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  const size_t items = 64;
  Random rng(9);
  std::vector<T> x(items * 16), y(items * 16);
  std::vector<M> mask(items * 16);
  for (size_t k = 0; k < x.size(); ++k) x[k] = T(k), y[k] = T(1000 + k), mask[k] = M(rng());
  for (int n : widths)
    for (int w : widths) {
      Launch launch(env, program.kernel("s_" + std::to_string(n) + "_" + std::to_string(w)));
      launch.in(x).in(y).in(mask).template out<T>(items * w).template out<T>(items * w);
      launch.run(items);
      auto r = launch.template result<T>(3), r2 = launch.template result<T>(4);
      for (size_t i = 0; i < items; ++i)
        for (int k = 0; k < w; ++k) {
          const M sel = mask[i * w + k];
          ASSERT_EQ(r[i * w + k], x[i * n + (sel & (n - 1))]) << t << n << " -> " << w << " item " << i;
          const int s2 = sel & (2 * n - 1);
          ASSERT_EQ(r2[i * w + k], s2 < n ? x[i * n + s2] : y[i * n + s2 - n]) << "shuffle2 " << t << n << " -> " << w;
        }
    }
}

TEST_P(Shuffle, Char) { check_shuffles<int8_t, uint8_t>(env); }
TEST_P(Shuffle, Int) { check_shuffles<int32_t, uint32_t>(env); }
TEST_P(Shuffle, Ulong) { check_shuffles<uint64_t, uint64_t>(env); }
TEST_P(Shuffle, Float) { check_shuffles<float, uint32_t>(env); }
TEST_P(Shuffle, Double) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_shuffles<double, uint64_t>(env);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Shuffle, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// Double precision math builtins (OpenCL C 3.0, 6.15.2) on every device with fp64: each
// function on edge cases and random inputs over its domain, against a long double reference
// within the full-profile ULP limits for double; vector widths and output-pointer address
// spaces for a selection.
#include "support/builtin_reference_math.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class MathDouble : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  }
};

TEST_P(MathDouble, EveryFunctionWithinItsUlpLimit) {
  run_math_cases<double>(env, standard_math_cases<double>(), "", 2000);
}

TEST_P(MathDouble, PointerFunctionsUnderOpenCLC30) {
  std::vector<MathCase<double>> cases;
  for (auto& mc : standard_math_cases<double>())
    if (has_pointer(mc.shape)) cases.push_back(mc);
  run_math_cases<double>(env, cases, "-cl-std=CL3.0", 500);
}

// Near the largest double, hypot stays finite exactly when its value does (the ULP measure
// above counts infinity as one ulp past the largest double; the CTS counts it as infinitely
// wrong). CUDA's libdevice rounded the second case up to infinity.
TEST_P(MathDouble, HypotNearTheLargestDoubleOverflowsOnlyWhenItsValueDoes) {
  using L = std::numeric_limits<double>;
  const std::vector<double> x = {L::max(), -0x1.0000000000001p+64, L::max(), L::max() / 2, -L::max(), L::max(), 0x1p+1023};
  const std::vector<double> y = {1.0, -L::max(), 0x1p+990, L::max() / 2, 0x1.6p+1022, L::max(), 0x1p+1023};
  BuiltProgram program(env, R"(
    kernel void h(global const double* x, global const double* y, global double* out) {
      size_t i = get_global_id(0);
      out[i] = hypot(x[i], y[i]);
    })");
  cl_kernel kernel = program.kernel("h");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer xs(env.context, x.size() * sizeof(double), x.data()), ys(env.context, y.size() * sizeof(double), y.data());
  DeviceBuffer out(env.context, x.size() * sizeof(double));
  set_args(kernel, xs.get(), ys.get(), out.get());
  run_1d(env.queue, kernel, x.size());
  const auto got = read_buffer<double>(env.queue, out.get(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const long double want = std::hypot(static_cast<long double>(x[i]), static_cast<long double>(y[i]));
    if (want > static_cast<long double>(L::max())) {
      EXPECT_TRUE(std::isinf(got[i]) && got[i] > 0) << "hypot(" << x[i] << ", " << y[i] << ") = " << got[i];
    } else {
      EXPECT_TRUE(std::isfinite(got[i])) << "hypot(" << x[i] << ", " << y[i] << ") = " << got[i];
      EXPECT_LE(ulp_error(got[i], want), 4.0L) << "hypot(" << x[i] << ", " << y[i] << ") = " << got[i];
    }
  }
}

// Where CTS math_brute_force found SLEEF's double functions wrong on the host device: pow,
// pown and powr of results just below the largest double overflowed to infinity, and tgamma
// below -170, near the negative integers, was off by over a thousand ulp.
TEST_P(MathDouble, PowNearTheLargestDoubleAndTgammaBelowMinus170) {
  using L = std::numeric_limits<double>;
  const std::vector<double> x = {-L::max(), L::max(), 0x1.fffffffffffp+1023, -0x1p+1023, 0x1p-1022, 3.0,
                                 -0x1.0000000000001p-1, -0x1.0000000000001p-1};
  const std::vector<double> y = {1.0, 1.0, 1.0, 1.0, -1.0, 645.0, -1024.0, -1023.0};
  const std::vector<double> g = {-0x1.5800000000200p+7, -0x1.5800000001p+7, -170.5, -172.25, -184.75,
                                 -0x1.57fffffffff00p+7, -0x1.55000000006p+7, -171.5};
  BuiltProgram program(env, R"(
    kernel void k(global const double* x, global const double* y, global const double* g, global double* out) {
      size_t i = get_global_id(0);
      out[4 * i] = pow(x[i], y[i]);
      out[4 * i + 1] = pown(x[i], (int)y[i]);
      out[4 * i + 2] = powr(fabs(x[i]), y[i]);
      out[4 * i + 3] = tgamma(g[i]);
    })");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer xs(env.context, x.size() * sizeof(double), x.data()), ys(env.context, y.size() * sizeof(double), y.data());
  DeviceBuffer gs(env.context, g.size() * sizeof(double), g.data()), out(env.context, 4 * x.size() * sizeof(double));
  set_args(kernel, xs.get(), ys.get(), gs.get(), out.get());
  run_1d(env.queue, kernel, x.size());
  const auto got = read_buffer<double>(env.queue, out.get(), 4 * x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const long double p = std::pow(static_cast<long double>(x[i]), static_cast<long double>(y[i]));
    const long double pr = std::pow(std::fabs(static_cast<long double>(x[i])), static_cast<long double>(y[i]));
    // ulp_error counts infinity as one ulp past the largest double: finite values stay finite.
    for (int f = 0; f < 3; ++f) EXPECT_TRUE(std::isfinite(got[4 * i + f])) << f << ": " << x[i] << ", " << y[i];
    EXPECT_LE(ulp_error(got[4 * i], p), 16.0L) << "pow(" << x[i] << ", " << y[i] << ") = " << got[4 * i];
    EXPECT_LE(ulp_error(got[4 * i + 1], p), 16.0L) << "pown(" << x[i] << ", " << y[i] << ") = " << got[4 * i + 1];
    EXPECT_LE(ulp_error(got[4 * i + 2], pr), 16.0L) << "powr(" << x[i] << ", " << y[i] << ") = " << got[4 * i + 2];
    const long double t = std::tgamma(static_cast<long double>(g[i]));
    EXPECT_LE(ulp_error(got[4 * i + 3], t), 16.0L) << "tgamma(" << g[i] << ") = " << got[4 * i + 3] << ", not " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, MathDouble, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

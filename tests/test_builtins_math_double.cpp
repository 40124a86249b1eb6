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

INSTANTIATE_TEST_SUITE_P(EveryDevice, MathDouble, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

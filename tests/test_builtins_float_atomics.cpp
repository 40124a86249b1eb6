// cl_ext_float_atomics on every device: the device queries, add and sub of atomic_float and
// atomic_double under heavy contention (integer-valued operands, so that every sum is exact
// and every lost update shows), min and max with negative values, NaNs, zeros and
// infinities as the extension defines them, in global, local and generic memory, and the
// C11 load, store, exchange and compare-exchange of both types. Also the SPIR-V forms
// (OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT).
#include <algorithm>
#include <cmath>
#include <limits>

#include "support/builtin_reference.h"
#include "support/spirv_tools.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

// cl_ext_float_atomics 1.0.0, from its specification (Debian's headers lack it).
constexpr cl_device_info kSingleFpAtomicCapabilities = 0x4231, kDoubleFpAtomicCapabilities = 0x4232;
constexpr cl_bitfield kGlobalLoadStore = 1 << 0, kGlobalAdd = 1 << 1, kGlobalMinMax = 1 << 2,
                      kLocalLoadStore = 1 << 16, kLocalAdd = 1 << 17, kLocalMinMax = 1 << 18;
constexpr cl_bitfield kEveryCapability =
    kGlobalLoadStore | kGlobalAdd | kGlobalMinMax | kLocalLoadStore | kLocalAdd | kLocalMinMax;

constexpr size_t kItems = 1 << 20, kGroup = 256;
// For the tests where every work-item updates one location with a compare-and-swap loop (float
// add on GPUs, see atomic_support.h; a compare-exchange loop in the kernel): their retries
// grow with the number of threads contending, which a GPU has by the hundred thousand.
constexpr size_t kContendingItems = 1 << 14;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

class FloatAtomics : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!lists_extension(env.device, "cl_ext_float_atomics")) GTEST_SKIP() << "no cl_ext_float_atomics";
  }
};

// float and double have every capability (half's are tested in test_fp16_atomics.cpp).
TEST_P(FloatAtomics, DeviceReportsEveryFp32AndFp64Atomic) {
  for (cl_device_info param : {kSingleFpAtomicCapabilities, kDoubleFpAtomicCapabilities}) {
    EXPECT_EQ(info_value<cl_bitfield>(clGetDeviceInfo, env.device, param), kEveryCapability) << param;
  }
  EXPECT_EQ(extension_version(env.device, "cl_ext_float_atomics"), CL_MAKE_VERSION(1, 0, 0));
  for (const char* type : {"fp32", "fp64"}) {
    for (const char* operation : {"global_atomic_add", "local_atomic_add", "global_atomic_min_max",
                                  "local_atomic_min_max"}) {
      EXPECT_TRUE(lists_feature(env.device, std::string("__opencl_c_ext_") + type + "_" + operation)) << operation;
    }
  }
}

// Every work-item adds and subtracts small integers on float and double locations; the
// tickets (what atomic_fetch_add of 1 returned) are each count exactly once.
TEST_P(FloatAtomics, AddAndSubCountEveryUpdateUnderContention) {
  BuiltProgram program(env, R"(
    float add_through_generic(volatile atomic_float* p, float v) { return atomic_fetch_add(p, v); }
    kernel void k(volatile global atomic_float* f, volatile global atomic_double* d, global uint* tickets) {
      size_t i = get_global_id(0);
      float ticket = atomic_fetch_add(&f[0], 1.0f);
      tickets[(uint)ticket] += 1;
      atomic_fetch_add_explicit(&f[1], (float)(i % 4), memory_order_relaxed);
      atomic_fetch_sub_explicit(&f[2], 2.0f, memory_order_acq_rel, memory_scope_device);
      add_through_generic(&f[3], -3.0f);
      for (int k = 0; k < 16; ++k) atomic_fetch_add_explicit(&f[4], 1.0f, memory_order_relaxed);
      atomic_fetch_add_explicit(&d[0], (double)i, memory_order_seq_cst, memory_scope_device);
      atomic_fetch_sub(&d[1], (double)(i % 7));
      atomic_fetch_add_explicit(&d[2], 0.5, memory_order_release, memory_scope_work_group);
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.in(std::vector<float>{0, 0, 100, 0, 0}).in(std::vector<double>{0, 1e9, 0}).out<uint32_t>(kContendingItems);
  launch.run(kContendingItems, kGroup);
  const auto f = launch.result<float>(0);
  const auto d = launch.result<double>(1);
  const auto tickets = launch.result<uint32_t>(2);
  const double n = kContendingItems;
  EXPECT_EQ(f[0], n);
  EXPECT_EQ(f[1], 1.5 * n);  // 0+1+2+3 every four items
  EXPECT_EQ(f[2], 100 - 2 * n);
  EXPECT_EQ(f[3], -3 * n);
  EXPECT_EQ(f[4], 16 * n);
  EXPECT_EQ(d[0], n * (n - 1) / 2);
  double sevens = 0;
  for (size_t i = 0; i < kContendingItems; ++i) sevens += double(i % 7);
  EXPECT_EQ(d[1], 1e9 - sevens);
  EXPECT_EQ(d[2], n / 2);
  EXPECT_EQ(std::count(tickets.begin(), tickets.end(), 1u), std::ptrdiff_t(kContendingItems));
}

// The same in local memory: each work-group sums into its own __local atomics, which one
// work-item then copies out.
TEST_P(FloatAtomics, LocalAddSubMinMaxCountEveryUpdate) {
  BuiltProgram program(env, R"(
    kernel void k(global float* f, global double* d) {
      local atomic_float lf[4];
      local atomic_double ld[4];
      size_t l = get_local_id(0), g = get_group_id(0);
      if (l == 0) {
        atomic_init(&lf[0], 0.0f); atomic_init(&lf[1], 0.0f); atomic_init(&lf[2], 0.0f); atomic_init(&lf[3], 0.0f);
        atomic_init(&ld[0], 0.0); atomic_init(&ld[1], 0.0); atomic_init(&ld[2], 0.0); atomic_init(&ld[3], 0.0);
      }
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      float v = (float)l - 100.0f;  /* -100 .. kGroup - 101 */
      atomic_fetch_add_explicit(&lf[0], 1.0f, memory_order_relaxed, memory_scope_work_group);
      atomic_fetch_sub(&lf[1], v);
      atomic_fetch_min_explicit(&lf[2], v, memory_order_relaxed, memory_scope_work_group);
      atomic_fetch_max(&lf[3], -v);
      volatile atomic_double* any_space = &ld[0];
      atomic_fetch_add(any_space, (double)l * 0.25);
      atomic_fetch_sub_explicit(&ld[1], 1.0, memory_order_acq_rel, memory_scope_work_group);
      atomic_fetch_min(&ld[2], (double)g - (double)l);
      atomic_fetch_max_explicit(&ld[3], (double)g * 1000.0 + (double)l, memory_order_seq_cst,
                                memory_scope_work_group);
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      if (l == 0) {
        for (int j = 0; j < 4; ++j) {
          f[g * 4 + j] = atomic_load_explicit(&lf[j], memory_order_relaxed, memory_scope_work_group);
          d[g * 4 + j] = atomic_load_explicit(&ld[j], memory_order_relaxed, memory_scope_work_group);
        }
      }
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  constexpr size_t kGroups = 512;
  Launch launch(env, program.kernel("k"));
  launch.out<float>(kGroups * 4, -1.0f).out<double>(kGroups * 4, -1.0);
  launch.run(kGroups * kGroup, kGroup);
  const auto f = launch.result<float>(0);
  const auto d = launch.result<double>(1);
  double values_sum = 0, quarters = 0;
  for (size_t l = 0; l < kGroup; ++l) values_sum += double(l) - 100, quarters += double(l) * 0.25;
  for (size_t g = 0; g < kGroups; ++g) {
    SCOPED_TRACE("group " + std::to_string(g));
    EXPECT_EQ(f[g * 4 + 0], float(kGroup));
    EXPECT_EQ(f[g * 4 + 1], float(-values_sum));
    EXPECT_EQ(f[g * 4 + 2], -100.0f);
    EXPECT_EQ(f[g * 4 + 3], 100.0f);
    EXPECT_EQ(d[g * 4 + 0], quarters);
    EXPECT_EQ(d[g * 4 + 1], -double(kGroup));
    EXPECT_EQ(d[g * 4 + 2], std::min(0.0, double(g) - double(kGroup - 1)));
    EXPECT_EQ(d[g * 4 + 3], double(g) * 1000.0 + double(kGroup - 1));
  }
}

// Global min and max across every work-item, with negative values on both sides of the first
// value, and through a generic pointer.
TEST_P(FloatAtomics, GlobalMinMaxFindTheExtremes) {
  BuiltProgram program(env, R"(
    double max_through_generic(volatile atomic_double* p, double v) {
      return atomic_fetch_max_explicit(p, v, memory_order_relaxed);
    }
    kernel void k(volatile global atomic_float* f, volatile global atomic_double* d) {
      size_t i = get_global_id(0);
      /* a permutation of 0 .. n-1 spreads the extremes over the range */
      float v = (float)((i * 7919u) % (uint)get_global_size(0)) - 300000.0f;
      atomic_fetch_min(&f[0], v);
      atomic_fetch_max_explicit(&f[1], v, memory_order_acq_rel, memory_scope_device);
      atomic_fetch_min_explicit(&f[2], -v, memory_order_relaxed);
      atomic_fetch_max(&f[3], -v);
      atomic_fetch_min_explicit(&d[0], (double)v * 1e-3, memory_order_seq_cst, memory_scope_device);
      max_through_generic(&d[1], (double)v * 1e-3);
      atomic_fetch_max(&d[2], -(double)v);
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.in(std::vector<float>{0, 0, 0, 0}).in(std::vector<double>{0, 0, 1e7});
  launch.run(kItems, kGroup);
  const auto f = launch.result<float>(0);
  const auto d = launch.result<double>(1);
  const float lowest = -300000.0f, highest = float(kItems - 1) - 300000.0f;
  EXPECT_EQ(f[0], lowest);
  EXPECT_EQ(f[1], highest);
  EXPECT_EQ(f[2], -highest);
  EXPECT_EQ(f[3], -lowest);
  EXPECT_EQ(d[0], double(lowest) * 1e-3);
  EXPECT_EQ(d[1], double(highest) * 1e-3);
  EXPECT_EQ(d[2], 1e7);  // no operand is larger than the first value
}

// One work-item per case: min and max of a stored value and an operand, each case on its own
// location. A NaN operand leaves a number, a number replaces a stored NaN, two NaNs give a
// NaN, infinities order as numbers; each call returns the value it found.
TEST_P(FloatAtomics, MinMaxOfNaNsZerosAndInfinitiesFollowTheExtension) {
  BuiltProgram program(env, R"(
    kernel void k(volatile global atomic_float* f, global const float* operands, global float* old,
                  volatile global atomic_double* d, global double* old_d) {
      size_t i = get_global_id(0);
      if (i % 2 == 0) {
        old[i] = atomic_fetch_min(&f[i], operands[i]);
        old_d[i] = atomic_fetch_min_explicit(&d[i], (double)operands[i], memory_order_relaxed);
      } else {
        old[i] = atomic_fetch_max(&f[i], operands[i]);
        old_d[i] = atomic_fetch_max_explicit(&d[i], (double)operands[i], memory_order_relaxed);
      }
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  struct Case {
    float stored, operand, result;  // even index: min, odd: max
  };
  const std::vector<Case> cases = {
      {kNaN, 3.0f, 3.0f},    {kNaN, -3.0f, -3.0f},  // a number replaces a stored NaN
      {3.0f, kNaN, 3.0f},    {-3.0f, kNaN, -3.0f},  // a NaN operand leaves a number
      {kNaN, kNaN, kNaN},    {kNaN, kNaN, kNaN},
      {kInf, -kInf, -kInf},  {-kInf, kInf, kInf},
      {-kInf, kNaN, -kInf},  {kNaN, -kInf, -kInf},
      {-2.5f, -2.0f, -2.5f}, {-2.5f, -2.0f, -2.0f},
      {1e-40f, 0.0f, 0.0f},  {-1e-40f, 0.0f, 0.0f},  // denormals, unless flushed (checked below)
      {0.0f, -0.0f, 0.0f},   {-0.0f, 0.0f, 0.0f},   // either zero may stay (checked below)
  };
  std::vector<float> stored, operands;
  std::vector<double> stored_d;
  for (const Case& c : cases) stored.push_back(c.stored), operands.push_back(c.operand), stored_d.push_back(c.stored);
  Launch launch(env, program.kernel("k"));
  launch.in(stored).in(operands).out<float>(cases.size()).in(stored_d).out<double>(cases.size());
  launch.run(cases.size(), 1);
  const auto f = launch.result<float>(0);
  const auto old = launch.result<float>(2);
  const auto d = launch.result<double>(3);
  const auto old_d = launch.result<double>(4);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE(std::string(i % 2 ? "max(" : "min(") + std::to_string(c.stored) + ", " +
                 std::to_string(c.operand) + ")");
    EXPECT_TRUE(bits_of(old[i]) == bits_of(c.stored)) << old[i];
    EXPECT_TRUE(old_d[i] == double(c.stored) || (std::isnan(old_d[i]) && std::isnan(c.stored))) << old_d[i];
    if (std::isnan(c.result)) {
      EXPECT_TRUE(std::isnan(f[i])) << f[i];
      EXPECT_TRUE(std::isnan(d[i])) << d[i];
    } else if (c.result == 0 && (c.stored == 0 || std::fabs(c.stored) < 1e-38f)) {
      // Zeros, and denormals a flushing device compares as zeros: the result is one of the two.
      EXPECT_TRUE(bits_of(f[i]) == bits_of(c.stored) || bits_of(f[i]) == bits_of(c.operand)) << f[i];
      EXPECT_TRUE(d[i] == double(c.stored) || d[i] == double(c.operand)) << d[i];
    } else {
      EXPECT_EQ(f[i], c.result);
      EXPECT_EQ(d[i], double(c.result));
    }
  }
}

// Add and sub keep subnormal operands and results on a device that computes with subnormals
// (CL_FP_DENORM): PTX's atom.add.f32 would flush them (the CTS's c11_atomics caught it).
TEST_P(FloatAtomics, AddAndSubKeepSubnormals) {
  cl_device_fp_config config = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof config, &config, nullptr), CL_SUCCESS);
  if (!(config & CL_FP_DENORM)) GTEST_SKIP() << "the device flushes float subnormals";
  BuiltProgram program(env, R"(
    kernel void k(volatile global atomic_float* f, global const float* operands, global float* old) {
      size_t i = get_global_id(0);
      old[i] = i % 2 ? atomic_fetch_sub(&f[i], operands[i]) : atomic_fetch_add(&f[i], operands[i]);
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const float tiny = std::numeric_limits<float>::denorm_min(), smallest_normal = std::numeric_limits<float>::min();
  // (stored, operand): even indices add, odd ones subtract.
  // The GPU adds operands of magnitude 2^-100 and up with its flushing instruction: those meet
  // subnormals (stored ones, or sums near zero) and must still come out as IEEE's.
  const float big = 0x1p-100f;
  const std::vector<std::pair<float, float>> cases = {
      {0.0f, tiny}, {0.0f, tiny}, {tiny, tiny}, {smallest_normal, tiny}, {smallest_normal, -tiny * 3}, {3 * tiny, tiny},
      {tiny, 0.0f}, {tiny * 5, 0.0f}, {tiny * 7, 1.0f}, {tiny * 7, 1.0f}, {tiny * 7, big}, {-tiny, big},
      {big * 1.5f, -big}, {big * 1.5f, big}, {-big, big}, {big, big}};
  std::vector<float> stored, operands;
  for (const auto& [s, o] : cases) stored.push_back(s), operands.push_back(o);
  Launch launch(env, program.kernel("k"));
  launch.in(stored).in(operands).out<float>(cases.size());
  launch.run(cases.size(), 1);
  const auto f = launch.result<float>(0);
  const auto old = launch.result<float>(2);
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto [s, o] = cases[i];
    const float want = i % 2 ? s - o : s + o;
    EXPECT_EQ(bits_of(f[i]), bits_of(want)) << i << ": " << s << (i % 2 ? " - " : " + ") << o << " gave " << f[i];
    EXPECT_EQ(bits_of(old[i]), bits_of(s)) << i;
  }
}

// C11 load, store, exchange and compare-exchange of atomic_float and atomic_double, global and
// local: a compare-exchange loop that adds 1.5 counts every update, exchange hands every
// value on exactly once, and compare-exchange compares representations (the OpenCL C
// specification describes it as a memcmp), so a NaN matches itself and +0 does not match -0.
TEST_P(FloatAtomics, LoadStoreExchangeAndCompareExchange) {
  BuiltProgram program(env, R"(
    kernel void k(volatile global atomic_float* f, volatile global atomic_double* d, global float* got,
                  global int* flags) {
      local atomic_float lf;
      local atomic_double ld;
      size_t i = get_global_id(0), l = get_local_id(0);
      if (l == 0) { atomic_store(&lf, 0.0f); atomic_store_explicit(&ld, 0.0, memory_order_relaxed); }
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      float e = atomic_load(&f[0]);
      while (!atomic_compare_exchange_weak(&f[0], &e, e + 1.5f)) {}
      double e64 = atomic_load_explicit(&d[0], memory_order_acquire, memory_scope_device);
      while (!atomic_compare_exchange_strong_explicit(&d[0], &e64, e64 + 1.5, memory_order_acq_rel,
                                                      memory_order_acquire, memory_scope_device)) {}
      got[i] = atomic_exchange(&f[1], (float)(i + 1));
      float le = atomic_load_explicit(&lf, memory_order_relaxed, memory_scope_work_group);
      while (!atomic_compare_exchange_weak_explicit(&lf, &le, le + 1.0f, memory_order_relaxed,
                                                    memory_order_relaxed, memory_scope_work_group)) {}
      atomic_exchange_explicit(&ld, 7.0, memory_order_relaxed, memory_scope_work_group);
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      if (i == 0) {
        float nan = atomic_load_explicit(&f[2], memory_order_relaxed);  /* the stored NaN's bits */
        flags[0] = atomic_compare_exchange_strong(&f[2], &nan, 5.0f);
        float zero = 0.0f;  /* +0 against a stored -0: different representations */
        flags[1] = atomic_compare_exchange_strong(&f[3], &zero, 6.0f);
        flags[2] = zero == 0.0f && signbit(zero);  /* expected now holds the stored -0 */
      }
      if (l == 0) {
        atomic_fetch_add(&f[4], atomic_load(&lf));
        atomic_fetch_add(&d[1], atomic_load(&ld));
      }
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.in(std::vector<float>{0, 0, kNaN, -0.0f, 0}).in(std::vector<double>{0, 0}).out<float>(kContendingItems);
  launch.out<int>(3);
  launch.run(kContendingItems, kGroup);
  const auto f = launch.result<float>(0);
  const auto d = launch.result<double>(1);
  const auto got = launch.result<float>(2);
  const auto flags = launch.result<int>(3);
  EXPECT_EQ(f[0], 1.5f * kContendingItems);
  EXPECT_EQ(d[0], 1.5 * kContendingItems);
  std::vector<float> seen = got;
  seen.push_back(f[1]);
  std::sort(seen.begin(), seen.end());
  for (size_t i = 0; i <= kContendingItems; ++i) ASSERT_EQ(seen[i], float(i)) << "exchange lost or repeated a value";
  EXPECT_EQ(flags[0], 1) << "a NaN did not match its own representation";
  EXPECT_EQ(f[2], 5.0f);
  EXPECT_EQ(flags[1], 0) << "+0 matched a stored -0";
  EXPECT_EQ(flags[2], 1);
  EXPECT_EQ(f[3], -0.0f);
  EXPECT_EQ(f[4], float(kContendingItems));
  EXPECT_EQ(d[1], 7.0 * (kContendingItems / kGroup));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, FloatAtomics, ::testing::ValuesIn(all_devices()), device_name);

// The SPIR-V instructions of SPV_EXT_shader_atomic_float_add and _min_max, made by
// llvm-spirv-15 from OpenCL C, on CrossWorkgroup and Workgroup pointers.
class FloatAtomicsSpirv : public SpirvDeviceTest {};

TEST_P(FloatAtomicsSpirv, AddMinMaxInstructionsRun) {
  if (!lists_extension(env.device, "cl_ext_float_atomics")) GTEST_SKIP() << "no cl_ext_float_atomics";
  const std::string il = spirv_from_opencl_c(R"(
    kernel void k(volatile global atomic_float* f, volatile global atomic_double* d, global float* out) {
      local atomic_float l[2];
      size_t i = get_global_id(0);
      if (i == 0) {
        atomic_store_explicit(&l[0], 0.0f, memory_order_relaxed, memory_scope_work_group);
        atomic_store_explicit(&l[1], -1000.0f, memory_order_relaxed, memory_scope_work_group);
      }
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      float v = (float)i - 20.0f;
      atomic_fetch_add_explicit(&f[0], v, memory_order_relaxed, memory_scope_device);
      atomic_fetch_sub_explicit(&f[1], 1.0f, memory_order_relaxed, memory_scope_device);
      atomic_fetch_min_explicit(&f[2], v, memory_order_relaxed, memory_scope_device);
      atomic_fetch_max_explicit(&f[3], v, memory_order_relaxed, memory_scope_device);
      atomic_fetch_add_explicit(&d[0], (double)v, memory_order_relaxed, memory_scope_device);
      atomic_fetch_min_explicit(&d[1], (double)v, memory_order_relaxed, memory_scope_device);
      atomic_fetch_max_explicit(&d[2], (double)v, memory_order_relaxed, memory_scope_device);
      atomic_fetch_add_explicit(&l[0], 2.0f, memory_order_relaxed, memory_scope_work_group);
      atomic_fetch_max_explicit(&l[1], v, memory_order_relaxed, memory_scope_work_group);
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      if (i == 0) {
        out[0] = atomic_load_explicit(&l[0], memory_order_relaxed, memory_scope_work_group);
        out[1] = atomic_load_explicit(&l[1], memory_order_relaxed, memory_scope_work_group);
      }
    })", "CL3.0", "--spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max");
  ASSERT_FALSE(il.empty());
  BuiltProgram program = BuiltProgram::from_il(env, il);
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t kCount = 64;
  {
    Launch launch(env, kernel);
    launch.in(std::vector<float>{0, 0, 0, 0}).in(std::vector<double>{0, 0, 0}).out<float>(2);
    launch.run(kCount, kCount);
    const auto f = launch.result<float>(0);
    const auto d = launch.result<double>(1);
    const double sum = kCount * (kCount - 1) / 2.0 - 20.0 * kCount;
    EXPECT_EQ(f[0], float(sum));
    EXPECT_EQ(f[1], -float(kCount));
    EXPECT_EQ(f[2], -20.0f);
    EXPECT_EQ(f[3], float(kCount) - 21.0f);
    EXPECT_EQ(d[0], sum);
    EXPECT_EQ(d[1], -20.0);
    EXPECT_EQ(d[2], double(kCount) - 21.0);
    const auto local = launch.result<float>(2);
    EXPECT_EQ(local[0], 2.0f * kCount);
    EXPECT_EQ(local[1], float(kCount) - 21.0f);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, FloatAtomicsSpirv, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

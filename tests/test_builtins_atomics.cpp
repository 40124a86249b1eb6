// Atomic builtins (OpenCL C 3.0, 6.15.12 and the 1.x atomic_/atom_ functions) under heavy
// contention: many work-items in many work-groups (run on several host threads) update the
// same global or local words, and every update is counted exactly. 32- and 64-bit, fetch
// operations, exchange, compare-exchange (strong and weak), min/max, flags, load/store/init,
// with explicit memory orders and scopes.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Atomics : public DeviceTest {};

constexpr size_t kItems = 1 << 20, kGroup = 256;

// OpenCL 1.x functions on global and local memory, 32-bit and 64-bit (atom_*).
TEST_P(Atomics, LegacyFunctionsCountEveryUpdate) {
  BuiltProgram program(env, R"(
    #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
    #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
    kernel void k(volatile global int* g, volatile global long* g64, volatile global uint* ids,
                  volatile global float* f) {
      local int l[4];
      local long l64;
      size_t i = get_global_id(0);
      if (get_local_id(0) == 0) { l[0] = 0; l[1] = 0; l[2] = 0; l[3] = 0; l64 = 0; }
      barrier(CLK_LOCAL_MEM_FENCE);
      atomic_inc(&g[0]);
      atomic_add(&g[1], 3);
      atomic_sub(&g[2], 2);
      atomic_max(&g[3], (int)i);
      atomic_min(&g[4], -(int)i);
      atomic_or(&g[5], 1 << (i % 31));
      atomic_xor(&g[6], (int)i);
      atomic_and(&g[7], ~(1 << (i % 29)) | (i % 2 ? 0 : -1));
      atom_add(&g64[0], 0x100000001l);
      atom_inc(&g64[1]);
      atom_max(&g64[2], (long)i << 32);
      atom_dec(&g64[3]);
      /* every work-item takes a unique ticket */
      uint ticket = atomic_inc((volatile global uint*)&g[8]);
      atomic_xchg(&ids[ticket], (uint)i + 1);
      atom_add(&l64, 0x300000000l);
      atom_max(&l64, 1l);  /* never larger than the sum */
      atomic_xchg(&f[0], (float)i);
      atomic_inc(&l[0]);
      atomic_add(&l[1], 2);
      atom_cmpxchg(&l[2], 0, 1);  /* exactly one of the group wins */
      int old;
      do { old = l[3]; } while (atomic_cmpxchg(&l[3], old, old + 5) != old);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) {
        atomic_add(&g[9], l[0]);
        atomic_add(&g[10], l[1]);
        atomic_add(&g[11], l[2]);
        atomic_add(&g[12], l[3]);
        atom_add(&g64[4], l64);
      }
    })");
  std::vector<int32_t> g(13, 0);
  g[3] = -1, g[4] = 1, g[6] = 0, g[7] = -1;
  std::vector<int64_t> g64 = {0, 0, 0, int64_t(kItems), 0};
  std::vector<float> f(1, -1.0f);
  Launch launch(env, program.kernel("k"));
  launch.in(g).in(g64).out<uint32_t>(kItems).in(f);
  launch.run(kItems, kGroup);
  const float last = launch.result<float>(3)[0];
  EXPECT_TRUE(last >= 0 && last < kItems && last == std::floor(last)) << last;
  auto r = launch.result<int32_t>(0);
  auto r64 = launch.result<int64_t>(1);
  auto ids = launch.result<uint32_t>(2);
  const int64_t n = kItems;
  EXPECT_EQ(r[0], n);
  EXPECT_EQ(r[1], 3 * n);
  EXPECT_EQ(r[2], -2 * n);
  EXPECT_EQ(r[3], n - 1);
  EXPECT_EQ(r[4], -(n - 1));
  EXPECT_EQ(uint32_t(r[5]), 0x7fffffffu);
  int32_t x = 0;
  for (int64_t i = 0; i < n; ++i) x ^= int32_t(i);
  EXPECT_EQ(r[6], x);
  EXPECT_EQ(uint32_t(r[7]), ~((1u << 29) - 1));  // odd items clear bit i % 29: every bit below 29
  EXPECT_EQ(r[8], n);
  EXPECT_EQ(r[9], n);
  EXPECT_EQ(r[10], 2 * n);
  EXPECT_EQ(r[11], n / int64_t(kGroup));
  EXPECT_EQ(r[12], 5 * n);
  EXPECT_EQ(r64[0], n * 0x100000001ll);
  EXPECT_EQ(r64[1], n);
  EXPECT_EQ(r64[2], (n - 1) << 32);
  EXPECT_EQ(r64[3], 0);
  EXPECT_EQ(r64[4], n * 0x300000000ll);
  std::vector<bool> seen(kItems + 1);
  for (uint32_t id : ids) {
    ASSERT_TRUE(id >= 1 && id <= kItems && !seen[id]) << id;
    seen[id] = true;
  }
}

// C11 atomics (OpenCL C 2.0+): fetch ops with every order and scope that the device supports,
// compare-exchange strong and weak loops, atomic_flag spin locks, load/store/init, on global
// and local memory, 32- and 64-bit.
TEST_P(Atomics, C11FunctionsCountEveryUpdate) {
  BuiltProgram program(env, std::string(kWidestAtomicScope) + R"(
    kernel void k(volatile global atomic_int* g, volatile global atomic_long* g64, volatile global atomic_flag* lock,
                  global int* guarded, volatile global atomic_uint* u) {
      local atomic_int l;
      local atomic_long l64;
      size_t i = get_global_id(0);
      if (get_local_id(0) == 0) { atomic_init(&l, 0); atomic_init(&l64, 0); }
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      atomic_fetch_add(&g[0], 1);
      atomic_fetch_add_explicit(&g[1], 2, memory_order_relaxed);
      atomic_fetch_sub_explicit(&g[2], 1, memory_order_acq_rel, memory_scope_device);
      atomic_fetch_max_explicit(&g[3], (int)i, memory_order_seq_cst, WIDEST_SCOPE);
      atomic_fetch_min_explicit(&g[4], -(int)i, memory_order_release, memory_scope_work_group);
      atomic_fetch_or(&g[5], 1 << (i % 31));
      atomic_fetch_xor(&g[6], (int)i);
      atomic_fetch_and(&g[7], ~(1 << (i % 17)));
      atomic_fetch_max(&u[0], (uint)i * 4000u);  /* unsigned order: wraps past INT_MAX */
      int expected = atomic_load_explicit(&g[8], memory_order_acquire);
      while (!atomic_compare_exchange_weak(&g[8], &expected, expected + 3)) {}
      long e64 = atomic_load(&g64[0]);
      while (!atomic_compare_exchange_strong_explicit(&g64[0], &e64, e64 + 0x100000000l, memory_order_acq_rel,
                                                        memory_order_relaxed, memory_scope_device)) {}
      atomic_fetch_add(&g64[1], 1l);
      atomic_exchange(&g[9], (int)i);
      /* a spin lock made of a flag guards a plain read-modify-write */
      while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device)) {}
      guarded[0] = guarded[0] + 1;
      atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
      atomic_fetch_add_explicit(&l, 1, memory_order_relaxed, memory_scope_work_group);
      atomic_fetch_add_explicit(&l64, 1l << 33, memory_order_relaxed, memory_scope_work_group);
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) {
        atomic_fetch_add(&g[10], atomic_load(&l));
        atomic_fetch_add(&g64[2], atomic_load_explicit(&l64, memory_order_relaxed));
        atomic_store(&g[11], 42);
      }
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  std::vector<int32_t> g(12, 0);
  g[3] = -1, g[4] = 1, g[7] = -1;
  std::vector<int64_t> g64(3, 0);
  std::vector<int32_t> lock(1, 0), guarded(1, 0);
  Launch launch(env, program.kernel("k"));
  launch.in(g).in(g64).in(lock).in(guarded).out<uint32_t>(1);
  launch.run(kItems, kGroup);
  auto r = launch.result<int32_t>(0);
  auto r64 = launch.result<int64_t>(1);
  auto guard = launch.result<int32_t>(3);
  auto u = launch.result<uint32_t>(4);
  const int64_t n = kItems;
  EXPECT_EQ(r[0], n);
  EXPECT_EQ(r[1], 2 * n);
  EXPECT_EQ(r[2], -n);
  EXPECT_EQ(r[3], n - 1);
  EXPECT_EQ(r[4], -(n - 1));
  EXPECT_EQ(uint32_t(r[5]), 0x7fffffffu);
  int32_t x = 0;
  for (int64_t i = 0; i < n; ++i) x ^= int32_t(i);
  EXPECT_EQ(r[6], x);
  EXPECT_EQ(uint32_t(r[7]), ~((1u << 17) - 1));
  uint32_t umax = 0;
  for (int64_t i = 0; i < n; ++i) umax = std::max(umax, uint32_t(i) * 4000u);
  EXPECT_EQ(u[0], umax);
  EXPECT_EQ(r[8], 3 * n);
  EXPECT_EQ(r64[0], n << 32);
  EXPECT_EQ(r64[1], n);
  EXPECT_GE(r[9], 0);
  EXPECT_LT(r[9], n);
  EXPECT_EQ(guard[0], n);
  EXPECT_EQ(r[10], n);
  EXPECT_EQ(r64[2], n << 33);
  EXPECT_EQ(r[11], 42);
}

// The C11 atomics without _explicit need the atomic order and scope features, which clang
// 15 defines for non-SPIR targets only when the front end passes them itself.
TEST_P(Atomics, C11AtomicsUnderOpenCLC30) {
  BuiltProgram program(env, R"(
    kernel void k(volatile global atomic_int* g) {
      atomic_fetch_add(g, 1);
      atomic_fetch_add_explicit(g, 1, memory_order_relaxed);
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  std::vector<int32_t> g(1, 0);
  Launch launch(env, program.kernel("k"));
  launch.in(g);
  launch.run(1000, 100);
  EXPECT_EQ(launch.result<int32_t>(0)[0], 2000);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Atomics, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

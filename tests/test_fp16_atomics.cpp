// atomic_half (cl_ext_float_atomics with cl_khr_fp16) on every device that reports it: the
// queries and feature macros, add and sub under contention (operands and counts chosen so
// every partial sum is exact in half, so a lost update shows), add rounded once to nearest
// with subnormals kept, min and max with NaNs, zeros and infinities, store, load and
// exchange in global and local memory, and the SPIR-V forms (OpAtomicFAddEXT, FMin, FMax,
// and OpAtomicLoad/Store/Exchange of a 16-bit float).
#include <algorithm>
#include <cmath>

#include "support/builtin_reference.h"
#include "support/spirv_tools.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

// cl_ext_float_atomics 1.0.0, from its specification (Debian's headers lack it).
constexpr cl_device_info kHalfFpAtomicCapabilities = 0x4233;
constexpr cl_bitfield kEveryCapability = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 16) | (1 << 17) | (1 << 18);
constexpr cl_uint kAtomicFloat16AddEXT = 6095, kAtomicFloat16MinMaxEXT = 5616;

constexpr uint16_t kHalfNaN = 0x7e00, kHalfInf = 0x7c00, kNegativeInf = 0xfc00, kDenormMin = 0x0001,
                   kMinNormal = 0x0400, kHalfMax = 0x7bff, kNegativeZero = 0x8000;

uint16_t half_bits(double value) { return double_to_half(value, Rounding::kNearestEven); }
bool is_nan(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

cl_bitfield half_atomic_capabilities(cl_device_id device) {
  return info_value<cl_bitfield>(clGetDeviceInfo, device, kHalfFpAtomicCapabilities);
}

class Fp16Atomics : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!has_fp16(env.device)) GTEST_SKIP() << "the device does not report cl_khr_fp16";
    if (half_atomic_capabilities(env.device) == 0) GTEST_SKIP() << "the device has no half atomics";
  }
};

// Every capability or none, with the six feature macros (in the query and in kernels) and the
// SPIR-V capabilities. The host device always has them (a GPU from sm_70 on).
TEST_P(Fp16Atomics, QueriesFeatureMacrosAndSpirvCapabilitiesAgree) {
  EXPECT_EQ(half_atomic_capabilities(env.device), kEveryCapability);
  std::string checks;
  for (const char* operation : {"global_atomic_load_store", "local_atomic_load_store", "global_atomic_add",
                                "local_atomic_add", "global_atomic_min_max", "local_atomic_min_max"}) {
    const std::string feature = std::string("__opencl_c_ext_fp16_") + operation;
    EXPECT_TRUE(lists_feature(env.device, feature)) << feature;
    checks += "#ifndef " + feature + "\n#error " + feature + " is not defined\n#endif\n";
  }
  BuiltProgram program(env, checks + "kernel void k(global int* out) { out[0] = 1; }\n", "-cl-std=CL3.0");
  EXPECT_TRUE(program);
  if (lists_spirv(env.device)) {
    const std::vector<cl_uint> capabilities = spirv_capabilities(env.device);
    for (cl_uint capability : {kAtomicFloat16AddEXT, kAtomicFloat16MinMaxEXT}) {
      EXPECT_NE(std::find(capabilities.begin(), capabilities.end(), capability), capabilities.end()) << capability;
    }
  }
}

// Every work-item adds or subtracts on a few halves at once; counts and operands keep each
// partial sum a multiple of the operand below 2048 of them, where half is exact. The tickets
// (what the first 2048 work-items' adds of 1 returned) are each handed out once.
TEST_P(Fp16Atomics, AddAndSubCountEveryUpdateUnderContention) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    half add_through_generic(volatile atomic_half* p, half v) { return atomic_fetch_add(p, v); }
    kernel void k(volatile global atomic_half* h, global uint* tickets) {
      size_t i = get_global_id(0);
      if (i < 2048) tickets[(uint)atomic_fetch_add(&h[0], 1.0h)] += 1;
      atomic_fetch_add_explicit(&h[1 + i % 8], 0.5h, memory_order_relaxed);
      atomic_fetch_sub_explicit(&h[9 + i % 8], 1.0h, memory_order_acq_rel, memory_scope_device);
      add_through_generic(&h[17 + i % 8], 0.25h);
    #ifdef __opencl_c_atomic_scope_all_devices
      if (i < 2048) atomic_fetch_add_explicit(&h[25], 1.0h, memory_order_relaxed, memory_scope_all_devices);
    #else
      if (i < 2048) atomic_fetch_add(&h[25], 1.0h);
    #endif
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  constexpr size_t kItems = 16384;
  Launch launch(env, program.kernel("k"));
  launch.in(std::vector<uint16_t>(26, 0)).out<uint32_t>(2048);
  launch.run(kItems, 256);
  const auto h = launch.result<uint16_t>(0);
  const auto tickets = launch.result<uint32_t>(1);
  EXPECT_EQ(h[0], half_bits(2048));
  for (size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(h[1 + k], half_bits(kItems / 8 * 0.5)) << k;
    EXPECT_EQ(h[9 + k], half_bits(-double(kItems / 8))) << k;
    EXPECT_EQ(h[17 + k], half_bits(kItems / 8 * 0.25)) << k;
  }
  EXPECT_EQ(h[25], half_bits(2048));
  EXPECT_EQ(std::count(tickets.begin(), tickets.end(), 1u), 2048);
}

// One work-item per case: add (even index) or sub (odd) rounds the exact result once to the
// nearest half, ties to even, keeps subnormals, overflows to infinity and propagates NaNs;
// each call returns the value it found.
TEST_P(Fp16Atomics, AddAndSubRoundOnceAndKeepSubnormals) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(volatile global atomic_half* h, global const half* operands, global half* old) {
      size_t i = get_global_id(0);
      old[i] = i % 2 ? atomic_fetch_sub(&h[i], operands[i]) : atomic_fetch_add(&h[i], operands[i]);
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const std::vector<std::pair<uint16_t, uint16_t>> cases = {
      {0, kDenormMin},          {0, kDenormMin},           {kDenormMin, kDenormMin}, {kMinNormal, kDenormMin},
      {kMinNormal, kDenormMin}, {0x0003, kDenormMin},      {half_bits(2048), half_bits(1)},  // tie: to even
      {half_bits(2048), half_bits(-3)},                    {half_bits(2048), half_bits(3)},
      {half_bits(2050), half_bits(1)},                     {kHalfMax, half_bits(8)},  // rounds back
      {kHalfMax, half_bits(-32)},                          {kHalfMax, half_bits(32)},  // to infinity
      {kNegativeZero, 0},       {kNegativeZero, 0},        {half_bits(1), kHalfNaN},
      {kHalfInf, kHalfInf},     {kHalfInf, kNegativeInf},  {half_bits(0.1), half_bits(0.2)},
      {half_bits(-0.1), half_bits(0.3)}};
  std::vector<uint16_t> stored, operands;
  for (const auto& [s, o] : cases) stored.push_back(s), operands.push_back(o);
  Launch launch(env, program.kernel("k"));
  launch.in(stored).in(operands).out<uint16_t>(cases.size());
  launch.run(cases.size(), 1);
  const auto h = launch.result<uint16_t>(0);
  const auto old = launch.result<uint16_t>(2);
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto [s, o] = cases[i];
    const double a = half_to_double(s), b = half_to_double(o);
    const uint16_t want = half_bits(i % 2 ? a - b : a + b);  // exact in double, rounded once
    SCOPED_TRACE(std::to_string(i) + ": " + std::to_string(a) + (i % 2 ? " - " : " + ") + std::to_string(b));
    if (is_nan(want)) {
      EXPECT_TRUE(is_nan(h[i])) << std::hex << h[i];
    } else {
      EXPECT_EQ(h[i], want) << std::hex << h[i] << " want " << want;
    }
    EXPECT_EQ(old[i], s);
  }
}

// NaN results carry the same bits on every device (the host CPU's rules, which the CTS's
// reference follows): the stored NaN quieted, else the operand's, and 0xfe00 for inf - inf.
TEST_P(Fp16Atomics, NaNResultsHaveTheHostsBits) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(volatile global atomic_half* h, global const half* operands) {
      size_t i = get_global_id(0);
      if (i % 2) atomic_fetch_sub(&h[i], operands[i]); else atomic_fetch_add(&h[i], operands[i]);
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  struct Case {
    uint16_t stored, operand, result;  // even index: add, odd: sub
  };
  const uint16_t one = half_bits(1);
  const std::vector<Case> cases = {
      {0xffff, one, 0xffff},       {0xffff, one, 0xffff},          // a stored NaN stays
      {one, 0xfd00, 0xff00},       {one, 0x7c01, 0x7e01},          // the operand's NaN, quieted
      {0x7d00, 0xfe00, 0x7f00},    {0xfe01, 0x7e00, 0xfe01},       // of two NaNs the stored one
      {kHalfInf, kNegativeInf, 0xfe00}, {kHalfInf, kHalfInf, 0xfe00},  // inf - inf
      {kHalfNaN, one, kHalfNaN},   {0x7fff, one, 0x7fff}};
  std::vector<uint16_t> stored, operands;
  for (const Case& c : cases) stored.push_back(c.stored), operands.push_back(c.operand);
  Launch launch(env, program.kernel("k"));
  launch.in(stored).in(operands);
  launch.run(cases.size(), 1);
  const auto h = launch.result<uint16_t>(0);
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(h[i], cases[i].result) << std::hex << cases[i].stored << (i % 2 ? " - " : " + ") << cases[i].operand
                                     << " gave " << h[i];
  }
}

// One work-item per case: min (even index) and max (odd). A NaN operand leaves a number, a
// number replaces a stored NaN, infinities and subnormals order as numbers, and of two zeros
// either may stay.
TEST_P(Fp16Atomics, MinMaxOfNaNsZerosInfinitiesAndSubnormals) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(volatile global atomic_half* h, global const half* operands, global half* old) {
      size_t i = get_global_id(0);
      old[i] = i % 2 ? atomic_fetch_max_explicit(&h[i], operands[i], memory_order_relaxed)
                     : atomic_fetch_min_explicit(&h[i], operands[i], memory_order_relaxed, memory_scope_device);
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  struct Case {
    uint16_t stored, operand, result;
  };
  const uint16_t three = half_bits(3), minus_three = half_bits(-3);
  const std::vector<Case> cases = {
      {kHalfNaN, three, three},         {kHalfNaN, minus_three, minus_three},
      {three, kHalfNaN, three},         {minus_three, kHalfNaN, minus_three},
      {kHalfNaN, kHalfNaN, kHalfNaN},   {kHalfNaN, kHalfNaN, kHalfNaN},
      {kHalfInf, kNegativeInf, kNegativeInf}, {kNegativeInf, kHalfInf, kHalfInf},
      {kDenormMin, 0, 0},               {0x8001, 0, 0},
      {kDenormMin, 0x0002, kDenormMin}, {kDenormMin, 0x0002, 0x0002},
      {half_bits(-2.5), half_bits(-2), half_bits(-2.5)}, {half_bits(-2.5), half_bits(-2), half_bits(-2)},
      {0, kNegativeZero, 0},            {kNegativeZero, 0, 0}};
  std::vector<uint16_t> stored, operands;
  for (const Case& c : cases) stored.push_back(c.stored), operands.push_back(c.operand);
  Launch launch(env, program.kernel("k"));
  launch.in(stored).in(operands).out<uint16_t>(cases.size());
  launch.run(cases.size(), 1);
  const auto h = launch.result<uint16_t>(0);
  const auto old = launch.result<uint16_t>(2);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE(std::string(i % 2 ? "max(" : "min(") + std::to_string(c.stored) + ", " + std::to_string(c.operand) + ")");
    EXPECT_EQ(old[i], c.stored);
    if (is_nan(c.result)) {
      EXPECT_TRUE(is_nan(h[i])) << std::hex << h[i];
    } else if ((c.stored & 0x7fff) == 0 && (c.operand & 0x7fff) == 0) {
      EXPECT_TRUE(h[i] == c.stored || h[i] == c.operand) << std::hex << h[i];
    } else {
      EXPECT_EQ(h[i], c.result) << std::hex << h[i];
    }
  }
}

// Store, load and exchange in global and local memory, with add, min and max in local memory:
// each work-group's exchanges hand every value on exactly once.
TEST_P(Fp16Atomics, LocalAndGlobalStoreLoadExchange) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(volatile global atomic_half* g, global half* got, global half* sums) {
      local atomic_half l[4];
      size_t li = get_local_id(0), group = get_group_id(0), i = get_global_id(0);
      if (li == 0) {
        atomic_store(&l[0], 0.0h);
        atomic_store_explicit(&l[1], 100.0h, memory_order_relaxed);
        atomic_store_explicit(&l[2], -100.0h, memory_order_release, memory_scope_work_group);
        atomic_store_explicit(&l[3], 0.0h, memory_order_seq_cst, memory_scope_work_group);
      }
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      half v = (half)li - 64.0h;
      atomic_fetch_add(&l[0], 1.0h);
      atomic_fetch_min(&l[1], v);
      atomic_fetch_max_explicit(&l[2], v, memory_order_relaxed, memory_scope_work_group);
      got[i] = atomic_exchange_explicit(&l[3], (half)(li + 1), memory_order_acq_rel);
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      if (li == 0) {
        for (int k = 0; k < 4; ++k) sums[group * 4 + k] = atomic_load_explicit(&l[k], memory_order_acquire);
        atomic_store_explicit(&g[group], (half)group, memory_order_relaxed, memory_scope_device);
      }
      if (i == 0) sums[64] = atomic_exchange(&g[64], atomic_load(&g[65]));
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  constexpr size_t kGroup = 256, kGroups = 16;
  std::vector<uint16_t> global(66, 0);
  global[64] = half_bits(7), global[65] = half_bits(-9);
  Launch launch(env, program.kernel("k"));
  launch.in(global).out<uint16_t>(kGroup * kGroups).out<uint16_t>(65);
  launch.run(kGroup * kGroups, kGroup);
  const auto g = launch.result<uint16_t>(0);
  const auto got = launch.result<uint16_t>(1);
  const auto sums = launch.result<uint16_t>(2);
  for (size_t group = 0; group < kGroups; ++group) {
    SCOPED_TRACE("group " + std::to_string(group));
    EXPECT_EQ(sums[group * 4], half_bits(kGroup));
    EXPECT_EQ(sums[group * 4 + 1], half_bits(-64));
    EXPECT_EQ(sums[group * 4 + 2], half_bits(kGroup - 65.0));
    std::vector<double> seen = {half_to_double(sums[group * 4 + 3])};
    for (size_t li = 0; li < kGroup; ++li) seen.push_back(half_to_double(got[group * kGroup + li]));
    std::sort(seen.begin(), seen.end());
    for (size_t k = 0; k <= kGroup; ++k) ASSERT_EQ(seen[k], double(k)) << "exchange lost or repeated a value";
    EXPECT_EQ(g[group], half_bits(double(group)));
  }
  EXPECT_EQ(sums[64], half_bits(7));
  EXPECT_EQ(g[64], half_bits(-9));
}

// Exchanges under contention, from diverged work-items on two addresses of one 32-bit word,
// repeated: every value is handed on exactly once (on GPUs a compare-and-swap loop that
// pauses between attempts, see atomic_support.h).
TEST_P(Fp16Atomics, ContendedExchangesHandEveryValueOnOnce) {
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(volatile global atomic_half* h, global half* got) {
      size_t i = get_global_id(0);
      if (i % 3 == 2) return;
      half mine = atomic_exchange(&h[i % 3], (half)(i + 1));
      for (int k = 0; k < 100; ++k) {
        mine = atomic_exchange_explicit(&h[i % 3], mine, memory_order_acq_rel, memory_scope_device);
      }
      got[i] = mine;
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  constexpr size_t kItems = 1536;  // values up to 1536: exact in half
  Launch launch(env, program.kernel("k"));
  launch.in(std::vector<uint16_t>{half_bits(0), half_bits(-1)}).out<uint16_t>(kItems);
  launch.run(kItems, 256);
  const auto h = launch.result<uint16_t>(0);
  const auto got = launch.result<uint16_t>(1);
  for (size_t address = 0; address < 2; ++address) {
    SCOPED_TRACE("address " + std::to_string(address));
    std::vector<double> seen = {half_to_double(h[address])}, want = {address ? -1.0 : 0.0};
    for (size_t i = address; i < kItems; i += 3) {
      seen.push_back(half_to_double(got[i]));
      want.push_back(double(i + 1));
    }
    std::sort(seen.begin(), seen.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(seen, want);
  }
}

// The SPIR-V forms: OpAtomicFAddEXT, OpAtomicFMinEXT and OpAtomicFMaxEXT on 16-bit floats
// (SPV_EXT_shader_atomic_float16_add, SPV_EXT_shader_atomic_float_min_max) and
// OpAtomicLoad, OpAtomicStore and OpAtomicExchange of one, in CrossWorkgroup memory.
TEST_P(Fp16Atomics, SpirvInstructionsRun) {
  if (!lists_spirv(env.device)) GTEST_SKIP() << "no SPIR-V";
  const std::string il = spirv_from_assembly(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Float16
               OpCapability AtomicFloat16AddEXT
               OpCapability AtomicFloat16MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float16_add"
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %half = OpTypeFloat 16
     %v3long = OpTypeVector %ulong 3
   %v3ptr_in = OpTypePointer Input %v3long
     %hptr_g = OpTypePointer CrossWorkgroup %half
         %fn = OpTypeFunction %void %hptr_g %hptr_g
        %gid = OpVariable %v3ptr_in Input
     %device = OpConstant %uint 1
    %relaxed = OpConstant %uint 0
      %ulong1 = OpConstant %ulong 1
      %ulong2 = OpConstant %ulong 2
      %ulong3 = OpConstant %ulong 3
      %ulong4 = OpConstant %ulong 4
     %half_1 = OpConstant %half 1
     %half_5 = OpConstant %half 5
          %k = OpFunction %void None %fn
          %h = OpFunctionParameter %hptr_g
        %out = OpFunctionParameter %hptr_g
      %entry = OpLabel
        %ids = OpLoad %v3long %gid
         %id = OpCompositeExtract %ulong %ids 0
       %idf = OpConvertUToF %half %id
        %add = OpAtomicFAddEXT %half %h %device %relaxed %half_1
      %p_min = OpInBoundsPtrAccessChain %hptr_g %h %ulong1
        %min = OpAtomicFMinEXT %half %p_min %device %relaxed %idf
      %p_max = OpInBoundsPtrAccessChain %hptr_g %h %ulong2
        %max = OpAtomicFMaxEXT %half %p_max %device %relaxed %idf
      %p_xch = OpInBoundsPtrAccessChain %hptr_g %h %ulong3
        %xch = OpAtomicExchange %half %p_xch %device %relaxed %half_5
      %p_st = OpInBoundsPtrAccessChain %hptr_g %h %ulong4
        %ld = OpAtomicLoad %half %p_st %device %relaxed
      %p_out = OpInBoundsPtrAccessChain %hptr_g %out %id
               OpAtomicStore %p_out %device %relaxed %ld
               OpReturn
               OpFunctionEnd
)");
  ASSERT_FALSE(il.empty());
  BuiltProgram program = BuiltProgram::from_il(env, il);
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  {
    Launch launch(env, kernel);
    launch.in(std::vector<uint16_t>{0, half_bits(1000), half_bits(-1000), 0, half_bits(3)}).out<uint16_t>(64);
    launch.run(64, 8);
    const auto h = launch.result<uint16_t>(0);
    const auto out = launch.result<uint16_t>(1);
    EXPECT_EQ(std::count(out.begin(), out.end(), half_bits(3)), 64);
    EXPECT_EQ(h[0], half_bits(64));
    EXPECT_EQ(h[1], half_bits(0));
    EXPECT_EQ(h[2], half_bits(63));
    EXPECT_EQ(h[3], half_bits(5));
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, Fp16Atomics, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

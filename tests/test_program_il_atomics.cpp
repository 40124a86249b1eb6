// Every SPIR-V atomic instruction of the OpenCL environment (OpAtomicLoad ... OpAtomicFlagClear),
// on 32- and 64-bit integers, through CrossWorkgroup, Workgroup and Generic pointers, assembled
// by spirv-as, built and run on every device that lists SPIR-V. 32 work-items of one
// work-group apply the instruction to one location; the final value (and, where it is
// determined, what each work-item got back) is checked.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>

#include "support/kernel_support.h"
#include "support/spirv_tools.h"

using namespace cucl_test;

namespace {

constexpr uint64_t kItems = 32;

enum class Space { CrossWorkgroup, Workgroup, Generic };

struct Width {
  unsigned bits;
  const char* type;  // the SPIR-V type id of the atomic's integer
  uint64_t mask() const { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
  int64_t as_signed(uint64_t v) const {
    return bits == 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(static_cast<int32_t>(v));
  }
};

// One instruction: the SPIR-V that computes %r (the work-item's result, of the integer type)
// from %p (the pointer), %v (the work-item's operand) and %init; the location's first value;
// and the check of the final value and of what the work-items got back.
struct AtomicCase {
  const char* name;
  const char* operand;  // SPIR-V computing %v from %iT (the work-item id in the integer type)
  const char* body;
  uint64_t init;
  bool only_32_bits;  // the flag instructions take a pointer to a 32-bit integer
  std::function<void(const Width&, uint64_t final_value, const std::vector<uint64_t>& got)> check;
};

// The value after every work-item applied `op` to the location, in any order.
uint64_t folded(const Width& w, uint64_t init, const std::function<uint64_t(uint64_t, uint64_t)>& op,
                const std::function<uint64_t(uint64_t)>& operand) {
  uint64_t value = init;
  for (uint64_t i = 0; i < kItems; ++i) value = op(value, operand(i) & w.mask()) & w.mask();
  return value;
}

std::function<void(const Width&, uint64_t, const std::vector<uint64_t>&)> final_is(
    std::function<uint64_t(uint64_t, uint64_t, const Width&)> op, std::function<uint64_t(uint64_t)> operand,
    uint64_t init) {
  return [=](const Width& w, uint64_t final_value, const std::vector<uint64_t>&) {
    EXPECT_EQ(final_value, folded(w, init, [&](uint64_t a, uint64_t b) { return op(a, b, w); }, operand));
  };
}

uint64_t plus_one(uint64_t i) { return i + 1; }
uint64_t minus_twenty(uint64_t i) { return i - 20; }
uint64_t bit(uint64_t i) { return uint64_t{1} << i; }
uint64_t all_but_bit(uint64_t i) { return ~bit(i); }

// Exactly one work-item (or, for a weak exchange that may fail spuriously, at most one) saw
// the first value and stored its own.
void one_winner(const Width&, uint64_t final_value, const std::vector<uint64_t>& got, uint64_t init, bool weak) {
  const auto winners = std::count(got.begin(), got.end(), init);
  if (weak && winners == 0) {
    EXPECT_EQ(final_value, init);
    return;
  }
  ASSERT_EQ(winners, 1);
  const size_t winner = std::find(got.begin(), got.end(), init) - got.begin();
  EXPECT_EQ(final_value, winner + 1);
}

std::vector<AtomicCase> atomic_cases() {
  constexpr uint64_t kInit = 1000;
  const char* kIdPlusOne = "%v = OpIAdd %T %iT %T_1";
  const char* kIdMinusTwenty = "%v = OpISub %T %iT %T_20";
  const char* kBit = "%v = OpShiftLeftLogical %T %T_1 %iT";
  const char* kAllButBit = "%b = OpShiftLeftLogical %T %T_1 %iT\n%v = OpNot %T %b";
  auto add = [](uint64_t a, uint64_t b, const Width&) { return a + b; };
  auto smin = [](uint64_t a, uint64_t b, const Width& w) { return w.as_signed(a) < w.as_signed(b) ? a : b; };
  auto smax = [](uint64_t a, uint64_t b, const Width& w) { return w.as_signed(a) > w.as_signed(b) ? a : b; };
  return {
      {"load", kIdPlusOne, "%r = OpAtomicLoad %T %p %scope %sem", kInit, false,
       [](const Width&, uint64_t final_value, const std::vector<uint64_t>& got) {
         EXPECT_EQ(final_value, 1000u);
         for (uint64_t r : got) EXPECT_EQ(r, 1000u);
       }},
      {"store", kIdPlusOne, "OpAtomicStore %p %scope %sem %v\n%r = OpCopyObject %T %T_0", kInit, false,
       [](const Width&, uint64_t final_value, const std::vector<uint64_t>&) {
         EXPECT_GE(final_value, 1u);
         EXPECT_LE(final_value, kItems);
       }},
      {"exchange", kIdPlusOne, "%r = OpAtomicExchange %T %p %scope %sem %v", kInit, false,
       [](const Width&, uint64_t final_value, const std::vector<uint64_t>& got) {
         std::vector<uint64_t> seen = got, expected(kItems + 1);
         seen.push_back(final_value);
         std::sort(seen.begin(), seen.end());
         std::iota(expected.begin(), expected.end() - 1, 1);
         expected.back() = 1000;
         EXPECT_EQ(seen, expected);
       }},
      {"compare_exchange", kIdPlusOne, "%r = OpAtomicCompareExchange %T %p %scope %sem %sem %v %T_init", kInit, false,
       [](const Width& w, uint64_t final_value, const std::vector<uint64_t>& got) {
         one_winner(w, final_value, got, 1000, false);
       }},
      {"compare_exchange_weak", kIdPlusOne, "%r = OpAtomicCompareExchangeWeak %T %p %scope %sem %sem %v %T_init",
       kInit, false,
       [](const Width& w, uint64_t final_value, const std::vector<uint64_t>& got) {
         one_winner(w, final_value, got, 1000, true);
       }},
      {"increment", kIdPlusOne, "%r = OpAtomicIIncrement %T %p %scope %sem", kInit, false,
       [](const Width&, uint64_t final_value, const std::vector<uint64_t>& got) {
         EXPECT_EQ(final_value, 1000 + kItems);
         std::vector<uint64_t> sorted = got, expected(kItems);
         std::sort(sorted.begin(), sorted.end());
         std::iota(expected.begin(), expected.end(), 1000);
         EXPECT_EQ(sorted, expected);
       }},
      {"decrement", kIdPlusOne, "%r = OpAtomicIDecrement %T %p %scope %sem", kInit, false,
       [](const Width&, uint64_t final_value, const std::vector<uint64_t>& got) {
         EXPECT_EQ(final_value, 1000 - kItems);
         std::vector<uint64_t> sorted = got, expected(kItems);
         std::sort(sorted.begin(), sorted.end());
         std::iota(expected.begin(), expected.end(), 1000 - kItems + 1);
         EXPECT_EQ(sorted, expected);
       }},
      {"add", kIdPlusOne, "%r = OpAtomicIAdd %T %p %scope %sem %v", kInit, false, final_is(add, plus_one, kInit)},
      {"sub", kIdPlusOne, "%r = OpAtomicISub %T %p %scope %sem %v", kInit, false,
       final_is([](uint64_t a, uint64_t b, const Width&) { return a - b; }, plus_one, kInit)},
      {"smin", kIdMinusTwenty, "%r = OpAtomicSMin %T %p %scope %sem %v", kInit, false,
       final_is(smin, minus_twenty, kInit)},
      {"umin", kIdMinusTwenty, "%r = OpAtomicUMin %T %p %scope %sem %v", kInit, false,
       final_is([](uint64_t a, uint64_t b, const Width&) { return std::min(a, b); }, minus_twenty, kInit)},
      {"smax", kIdMinusTwenty, "%r = OpAtomicSMax %T %p %scope %sem %v", kInit, false,
       final_is(smax, minus_twenty, kInit)},
      {"umax", kIdMinusTwenty, "%r = OpAtomicUMax %T %p %scope %sem %v", kInit, false,
       final_is([](uint64_t a, uint64_t b, const Width&) { return std::max(a, b); }, minus_twenty, kInit)},
      {"and", kAllButBit, "%r = OpAtomicAnd %T %p %scope %sem %v", ~uint64_t{0}, false,
       final_is([](uint64_t a, uint64_t b, const Width&) { return a & b; }, all_but_bit, ~uint64_t{0})},
      {"or", kBit, "%r = OpAtomicOr %T %p %scope %sem %v", kInit << 32, false,
       final_is([](uint64_t a, uint64_t b, const Width&) { return a | b; }, bit, kInit << 32)},
      {"xor", kBit, "%r = OpAtomicXor %T %p %scope %sem %v", kInit, false,
       final_is([](uint64_t a, uint64_t b, const Width&) { return a ^ b; }, bit, kInit)},
      {"flag_test_and_set", kIdPlusOne, "%set = OpAtomicFlagTestAndSet %bool %p %scope %sem\n%r = OpSelect %T %set %T_1 %T_0",
       0, true,
       [](const Width&, uint64_t final_value, const std::vector<uint64_t>& got) {
         EXPECT_NE(final_value, 0u);
         EXPECT_EQ(std::count(got.begin(), got.end(), 0u), 1);
       }},
      {"flag_clear", kIdPlusOne, "OpAtomicFlagClear %p %scope %sem\n%r = OpCopyObject %T %T_0", 1, true,
       [](const Width&, uint64_t final_value, const std::vector<uint64_t>&) { EXPECT_EQ(final_value, 0u); }},
  };
}

// `text` with the integer type's id for each %T (but not in %T_0, %T_init, ...).
std::string with_type(std::string text, const std::string& type) {
  for (size_t at = text.find("%T"); at != std::string::npos; at = text.find("%T", at + 1)) {
    if (at + 2 < text.size() && text[at + 2] != ' ' && text[at + 2] != '\n') continue;
    text.replace(at, 2, type);
  }
  return text;
}

// Kernel <case name>(global T* got, global T* location): for Workgroup, a __local copy of
// the location is set to the first value, used, and copied back after a barrier.
std::string kernel_assembly(const AtomicCase& c, const Width& w, Space space) {
  const bool local = space == Space::Workgroup;
  std::string a;
  a += "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n";
  if (w.bits == 64) a += "OpCapability Int64Atomics\n";
  if (space == Space::Generic) a += "OpCapability GenericPointer\n";
  a += "OpMemoryModel Physical64 OpenCL\n";
  a += std::string("OpEntryPoint Kernel %kernel \"") + c.name + "\" %gid\n";
  a += "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n";
  a += "%void = OpTypeVoid\n%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n";
  a += "%v3ulong = OpTypeVector %ulong 3\n%ptr_input = OpTypePointer Input %v3ulong\n";
  a += "%gid = OpVariable %ptr_input Input\n";
  const std::string T = w.type;
  a += "%ptr_cross = OpTypePointer CrossWorkgroup " + T + "\n";
  a += "%ptr_local = OpTypePointer Workgroup " + T + "\n";
  if (space == Space::Generic) a += "%ptr_generic = OpTypePointer Generic " + T + "\n";
  a += "%fn = OpTypeFunction %void %ptr_cross %ptr_cross\n";
  a += std::string("%scope = OpConstant %uint ") + (local ? "2" : "1") + "\n";
  a += "%scope_group = OpConstant %uint 2\n%sem = OpConstant %uint 0\n%sem_barrier = OpConstant %uint 264\n";
  a += "%T_0 = OpConstant " + T + " 0\n%T_1 = OpConstant " + T + " 1\n%T_20 = OpConstant " + T + " 20\n";
  a += "%T_init = OpConstant " + T + " " + std::to_string(c.init & w.mask()) + "\n";
  if (local) a += "%location_local = OpVariable %ptr_local Workgroup\n";
  a += "%kernel = OpFunction %void None %fn\n%got = OpFunctionParameter %ptr_cross\n";
  a += "%location = OpFunctionParameter %ptr_cross\n%entry = OpLabel\n";
  a += "%ids = OpLoad %v3ulong %gid\n%i = OpCompositeExtract %ulong %ids 0\n";
  a += w.bits == 64 ? "%iT = OpCopyObject %ulong %i\n" : "%iT = OpUConvert %uint %i\n";
  a += with_type(c.operand, T) + "\n";
  switch (space) {
    case Space::CrossWorkgroup: a += "%p = OpCopyObject %ptr_cross %location\n"; break;
    case Space::Generic: a += "%p = OpPtrCastToGeneric %ptr_generic %location\n"; break;
    case Space::Workgroup:
      a += "%p = OpCopyObject %ptr_local %location_local\n";
      a += "OpAtomicStore %p %scope %sem %T_init\n";
      a += "OpControlBarrier %scope_group %scope_group %sem_barrier\n";
      break;
  }
  a += with_type(c.body, T) + "\n";
  if (local) {
    a += "OpControlBarrier %scope_group %scope_group %sem_barrier\n";
    a += "%final = OpAtomicLoad " + T + " %p %scope %sem\nOpStore %location %final\n";
  }
  a += "%slot = OpInBoundsPtrAccessChain %ptr_cross %got %i\nOpStore %slot %r\nOpReturn\nOpFunctionEnd\n";
  return a;
}

class SpirvAtomics : public SpirvDeviceTest {
 protected:
  void run_every_instruction(const Width& w, Space space) {
    for (const AtomicCase& c : atomic_cases()) {
      if (c.only_32_bits && w.bits != 32) continue;
      SCOPED_TRACE(std::string(c.name) + " on " + std::to_string(w.bits) + "-bit integers");
      const std::string il = spirv_from_assembly(kernel_assembly(c, w, space));
      ASSERT_FALSE(il.empty());
      cl_program program = build_from_il(il);
      ASSERT_NE(program, nullptr);
      cl_int status = CL_OUT_OF_RESOURCES;
      cl_kernel kernel = clCreateKernel(program, c.name, &status);
      EXPECT_EQ(status, CL_SUCCESS);
      if (kernel) check_kernel(c, w, kernel);
      if (kernel) clReleaseKernel(kernel);
      clReleaseProgram(program);
    }
  }

 private:
  void check_kernel(const AtomicCase& c, const Width& w, cl_kernel kernel) {
    const size_t bytes = w.bits / 8;
    const uint64_t init = c.init & w.mask();
    DeviceBuffer got(env.context, kItems * bytes), location(env.context, bytes, &init);
    set_args(kernel, got.get(), location.get());
    run_1d(env.queue, kernel, kItems, kItems);
    std::vector<uint64_t> values(kItems);
    uint64_t final_value = 0;
    if (w.bits == 64) {
      values = read_buffer<uint64_t>(env.queue, got.get(), kItems);
      final_value = read_buffer<uint64_t>(env.queue, location.get(), 1)[0];
    } else {
      const auto narrow = read_buffer<uint32_t>(env.queue, got.get(), kItems);
      std::copy(narrow.begin(), narrow.end(), values.begin());
      final_value = read_buffer<uint32_t>(env.queue, location.get(), 1)[0];
    }
    c.check(w, final_value, values);
  }
};

const Width kWidths[] = {{32, "%uint"}, {64, "%ulong"}};

TEST_P(SpirvAtomics, EveryInstructionOnCrossWorkgroupPointers) {
  for (const Width& w : kWidths) run_every_instruction(w, Space::CrossWorkgroup);
}

TEST_P(SpirvAtomics, EveryInstructionOnWorkgroupPointers) {
  for (const Width& w : kWidths) run_every_instruction(w, Space::Workgroup);
}

TEST_P(SpirvAtomics, EveryInstructionOnGenericPointers) {
  if (!info_value<cl_bool>(clGetDeviceInfo, env.device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT)) {
    GTEST_SKIP() << "this device has no generic address space";
  }
  for (const Width& w : kWidths) run_every_instruction(w, Space::Generic);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, SpirvAtomics, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

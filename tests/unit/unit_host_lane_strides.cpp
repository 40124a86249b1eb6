// How the host vectoriser's divergence analysis (backends/host/codegen/work_item_divergence.h)
// says a value steps from one lane to the next, for vectors of 8 work-items whose first local
// id x is a multiple of 8: remainders and quotients of ids by multiples of 8, masks and
// shifts, narrowing and sign extension, and phis. Each fact it claims is one the vector form
// builds on (a vector load instead of a gather), so the cases where it must not claim it
// matter as much.
#include <gtest/gtest.h>

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <optional>
#include <string>

#include "backends/host/codegen/work_item_divergence.h"
#include "tests/support/llvm_ir_text.h"

namespace {

using cucl::backend::host::LaneStride;
using cucl::backend::host::WorkItemDivergence;

constexpr unsigned kLanes = 8;

// The strides of the values of `wi(args, context, x, y, z)` with `body`.
class Strides {
 public:
  explicit Strides(const std::string& body, const std::string& leaving = "") {
    const std::string text = "define void @wi(ptr noalias %args, ptr noalias %context, i64 %x, i64 %y, i64 %z) {\n" +
                             body + "}\n";
    module_ = cucl::test::parse_ir(text, context_);
    if (!module_) return;
    llvm::Function& function = *module_->getFunction("wi");
    llvm::DenseSet<const llvm::Value*> seeds;
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      if (!leaving.empty() && instruction.getName() == leaving) seeds.insert(&instruction);
    }
    divergence_.emplace(function, *function.getArg(2), seeds);
    divergence_->set_lanes(kLanes);
  }

  LaneStride of(const std::string& name) {
    for (llvm::Instruction& instruction : llvm::instructions(*module_->getFunction("wi"))) {
      if (instruction.getName() == name) return divergence_->stride(&instruction);
    }
    ADD_FAILURE() << "no value %" << name;
    return {};
  }

 private:
  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
  std::optional<WorkItemDivergence> divergence_;
};

void expect_steps(const LaneStride& stride, int64_t step, bool proven) {
  EXPECT_TRUE(stride.affine);
  EXPECT_EQ(stride.step, step);
  EXPECT_EQ(stride.proven, proven);
}

// CLBlast's `tid % MDIMA`, `tid / MDIMA` with tid = x + 8 * y, as LLVM leaves them once it
// knows ids are small: masks and shifts of the 32-bit id.
TEST(HostLaneStrides, RemaindersAndQuotientsOfIdsByMultiplesOfTheWidth) {
  Strides s(R"(
  entry:
    %row = shl i64 %y, 3
    %tid64 = add i64 %row, %x
    %tid = trunc i64 %tid64 to i32
    %rem16 = and i32 %tid, 15
    %div16 = lshr i32 %tid, 4
    %urem24 = urem i32 %tid, 24
    %udiv24 = udiv i32 %tid, 24
    %rem4 = and i32 %tid, 3
    %div4 = lshr i32 %tid, 2
    %div16x4 = and i32 %div4, 16380
    ret void
  )");
  expect_steps(s.of("tid"), 1, true);  // 8 lanes from a multiple of 8: no wrap in 32 bits
  expect_steps(s.of("rem16"), 1, true);
  expect_steps(s.of("div16"), 0, true);
  expect_steps(s.of("urem24"), 1, true);
  expect_steps(s.of("udiv24"), 0, true);
  // Remainders by 4 and quotients by 4 change within 8 lanes...
  EXPECT_FALSE(s.of("rem4").affine);
  EXPECT_FALSE(s.of("div4").affine);
  // ... but (tid >> 2) & ~3 keeps only bits in which the 8 lanes agree.
  expect_steps(s.of("div16x4"), 0, true);
}

TEST(HostLaneStrides, NothingIsClaimedOfValuesThatCrossABlock) {
  Strides s(R"(
  entry:
    %offset = load i64, ptr %args
    %global = add i64 %offset, %x
    %narrow = trunc i64 %global to i32
    %rem = and i32 %narrow, 15
    %shifted = add i64 %x, 3
    %rem.shifted = and i64 %shifted, 15
    %quadruple = shl i64 %x, 2
    %rem.quadruple = and i64 %quadruple, 15
    %down = sub i64 0, %x
    %rem.down = and i64 %down, 15
    ret void
  )");
  // An offset of unknown alignment: the 32-bit index may wrap between lanes (a run-time check).
  expect_steps(s.of("narrow"), 1, false);
  EXPECT_FALSE(s.of("rem").affine);
  EXPECT_FALSE(s.of("rem.shifted").affine);  // lanes x0+3 .. x0+10 cross a multiple of 16
  EXPECT_FALSE(s.of("rem.quadruple").affine);  // 0, 4, 8, 12, then 16 wraps to 0
  EXPECT_FALSE(s.of("rem.down").affine);     // lanes stepping down leave the block
}

// A char2 loaded as an i16 and its low byte sign-extended, as mad_sat(char2) is written:
// the zext's high bits agree in every lane, but the shift moves the bits that differ into
// them. Claiming the lanes agree made the vector form compute lane 0's value for all.
TEST(HostLaneStrides, ShiftsThatMoveDifferingBitsUpClaimNothing) {
  Strides s(R"(
  entry:
    %p = getelementptr inbounds i16, ptr %args, i64 %x
    %pair = load i16, ptr %p
    %wide = zext i16 %pair to i32
    %low = shl i32 %wide, 24
    %byte = ashr exact i32 %low, 24
    %high = lshr i32 %wide, 16
    ret void
  )");
  EXPECT_EQ(s.of("wide").agree_from, 16u);
  EXPECT_FALSE(s.of("low").affine);
  EXPECT_FALSE(s.of("byte").affine);
  expect_steps(s.of("high"), 0, true);  // only the zeros above bit 16 are left
}

// An address of a uniform base plus a per-lane offset: the base's lanes all agree, the sum's
// do not. Once the sum was taken to agree like its base, an address space cast of it (vload3
// of the generic address space) counted as the same in every lane, and the vector form
// loaded and stored lane 0's float3 for all lanes (the CTS's math tests of 3-element vectors).
TEST(HostLaneStrides, AddressesOfAUniformBaseDoNotAgreeLikeIt) {
  Strides s(R"(
  entry:
    %base = load ptr addrspace(1), ptr %args
    %triple = mul i64 %x, 3
    %element = getelementptr inbounds float, ptr addrspace(1) %base, i64 %triple
    %generic = addrspacecast ptr addrspace(1) %element to ptr addrspace(4)
    ret void
  )");
  expect_steps(s.of("element"), 12, true);
  EXPECT_NE(s.of("element").agree_from, 0u);
  expect_steps(s.of("generic"), 12, true);
}

// A hash's multiplier times the id: a step past 2^62. Sums of such steps would overflow
// int64_t; they are refused rather than wrapped.
TEST(HostLaneStrides, StepsThatWouldOverflowAreRefused) {
  Strides s(R"(
  entry:
    %hash = mul i64 %x, -7046029254386353131
    %twice = add i64 %hash, %hash
    %less = sub i64 %hash, %twice
    ret void
  )");
  expect_steps(s.of("hash"), -7046029254386353131, true);
  EXPECT_FALSE(s.of("twice").affine);
  EXPECT_FALSE(s.of("less").affine);
}

// `(long)(int)i` as InstCombine writes it: shl then ashr exact by 32.
TEST(HostLaneStrides, SignExtensionOfAnAlignedIndexIsExact) {
  Strides s(R"(
  entry:
    %k = load i64, ptr %args
    %tile = shl i64 %k, 3
    %index = add i64 %tile, %x
    %high = shl i64 %index, 32
    %extended = ashr exact i64 %high, 32
    %offset = load i64, ptr %context
    %unaligned = add i64 %offset, %x
    %high.unaligned = shl i64 %unaligned, 32
    %extended.unaligned = ashr exact i64 %high.unaligned, 32
    ret void
  )");
  expect_steps(s.of("extended"), 1, true);
  expect_steps(s.of("extended.unaligned"), 1, false);
}

TEST(HostLaneStrides, PhisOfValuesThatStepAlikeStepSoToo) {
  Strides s(R"(
  entry:
    %pick = load i1, ptr %args
    br i1 %pick, label %left, label %right
  left:
    %a = add i64 %x, 16
    br label %join
  right:
    %b = add i64 %x, 32
    %c = mul i64 %x, 2
    br label %join
  join:
    %same = phi i64 [ %a, %left ], [ %b, %right ]
    %different = phi i64 [ %a, %left ], [ %c, %right ]
    br label %loop
  loop:
    %i = phi i64 [ %x, %join ], [ %next, %loop ]
    %next = add i64 %i, 1
    %doubled = phi i64 [ %x, %join ], [ %doubled.next, %loop ]
    %doubled.next = add i64 %doubled, %x
    %kept = phi i64 [ %same, %join ], [ %kept, %loop ]
    %done = icmp eq i64 %next, 100
    br i1 %done, label %exit, label %loop
  exit:
    ret void
  )");
  expect_steps(s.of("same"), 1, true);
  EXPECT_FALSE(s.of("different").affine);
  // Inductions: assumed to step as their start does, which the loop then confirms...
  expect_steps(s.of("i"), 1, true);
  expect_steps(s.of("next"), 1, true);
  expect_steps(s.of("kept"), 1, true);
  // ... or not: each iteration adds another step.
  EXPECT_FALSE(s.of("doubled").affine);
  EXPECT_FALSE(s.of("doubled.next").affine);
}

// x + k where k counts a loop's iterations: each lane leaves the loop (run under a mask) at
// an iteration of its own, so after it the lanes' sums do not step by 1 even though x does
// and k is the same for the lanes still inside.
TEST(HostLaneStrides, WhatLeavesAMaskedLoopStepsByNothingKnown) {
  Strides s(R"(
  entry:
    br label %loop
  loop:
    %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
    %sum = add i64 %x, %k
    %k.next = add i64 %k, 1
    %limit = load i64, ptr %args
    %done = icmp uge i64 %sum, %limit
    br i1 %done, label %exit, label %loop
  exit:
    %after = add i64 %sum, 4
    ret void
  )", "sum");
  EXPECT_FALSE(s.of("sum").affine);
  EXPECT_FALSE(s.of("after").affine);
}

}  // namespace

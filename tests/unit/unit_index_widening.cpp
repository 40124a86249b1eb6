// 64-bit index arithmetic from nsw int arithmetic (backends/codegen/index_widening.h):
// which sign extensions are rewritten and into what, and the reason it exists: after LLVM's
// function simplification reassociates an index (dropping the nsw flags), the divergence
// analysis still proves that neighbouring work-items' addresses step without wrapping.
#include <gtest/gtest.h>

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>

#include "backends/codegen/index_widening.h"
#include "backends/codegen/module_tools.h"
#include "backends/host/codegen/work_item_divergence.h"
#include "tests/support/llvm_ir_text.h"

namespace {

using cucl::backend::host::LaneStride;
using cucl::backend::host::WorkItemDivergence;
using cucl::backend::widen_signed_index_arithmetic;

llvm::Instruction* named(llvm::Function& function, const std::string& name) {
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    if (instruction.getName() == name) return &instruction;
  }
  return nullptr;
}

// The address a GEP named `address` takes as its (only) index, after widening.
llvm::Value* index_of(llvm::Function& function, const std::string& address) {
  auto* gep = llvm::dyn_cast_or_null<llvm::GetElementPtrInst>(named(function, address));
  return gep ? gep->getOperand(1) : nullptr;
}

std::string text_of(const llvm::Value* value) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  value->print(stream);
  return stream.str();
}

TEST(IndexWidening, NswArithmeticUnderASignExtensionIsDoneIn64Bits) {
  llvm::LLVMContext context;
  auto module = cucl::test::parse_ir(R"(
    define void @f(ptr %p, i32 %a, i32 %b, i32 %c) {
      %sum = add nsw i32 %a, %b
      %scaled = mul nsw i32 %sum, %c
      %shifted = shl nsw i32 %scaled, 2
      %less = sub nsw i32 %shifted, 7
      %index = sext i32 %less to i64
      %address = getelementptr float, ptr %p, i64 %index
      store float 0.0, ptr %address
      ret void
    })", context);
  ASSERT_TRUE(module);
  llvm::Function& f = *module->getFunction("f");
  widen_signed_index_arithmetic(f);
  EXPECT_EQ(named(f, "index"), nullptr);
  auto* less = llvm::dyn_cast<llvm::BinaryOperator>(index_of(f, "address"));
  ASSERT_NE(less, nullptr);
  EXPECT_EQ(less->getOpcode(), llvm::Instruction::Sub);
  EXPECT_TRUE(less->getType()->isIntegerTy(64));
  EXPECT_TRUE(less->hasNoSignedWrap());
  EXPECT_EQ(text_of(less->getOperand(1)), "i64 7");
  auto* shifted = llvm::dyn_cast<llvm::BinaryOperator>(less->getOperand(0));
  ASSERT_NE(shifted, nullptr);
  EXPECT_EQ(shifted->getOpcode(), llvm::Instruction::Shl);
  EXPECT_EQ(text_of(shifted->getOperand(1)), "i64 2");
  auto* scaled = llvm::dyn_cast<llvm::BinaryOperator>(shifted->getOperand(0));
  ASSERT_NE(scaled, nullptr);
  EXPECT_EQ(scaled->getOpcode(), llvm::Instruction::Mul);
  auto* extended = llvm::dyn_cast<llvm::SExtInst>(scaled->getOperand(1));
  ASSERT_NE(extended, nullptr);
  EXPECT_EQ(extended->getOperand(0), f.getArg(3));
  auto* sum = llvm::dyn_cast<llvm::BinaryOperator>(scaled->getOperand(0));
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->getOpcode(), llvm::Instruction::Add);
  EXPECT_TRUE(llvm::isa<llvm::SExtInst>(sum->getOperand(0)));
  EXPECT_TRUE(llvm::isa<llvm::SExtInst>(sum->getOperand(1)));
  EXPECT_TRUE(cucl::backend::verify_module(*module).empty());
}

// Arithmetic that may wrap (no nsw: unsigned in OpenCL C, or flags already dropped), shifts by
// a variable amount, and extensions of anything else are left as they are; an nsw operation
// above a wrapping one extends the wrapping one's result.
TEST(IndexWidening, WrappingArithmeticKeepsItsWidth) {
  llvm::LLVMContext context;
  auto module = cucl::test::parse_ir(R"(
    define void @f(ptr %p, i32 %a, i32 %b) {
      %wraps = add i32 %a, %b
      %index1 = sext i32 %wraps to i64
      %address1 = getelementptr float, ptr %p, i64 %index1
      store float 0.0, ptr %address1
      %variable = shl nsw i32 %a, %b
      %index2 = sext i32 %variable to i64
      %address2 = getelementptr float, ptr %p, i64 %index2
      store float 0.0, ptr %address2
      %above = add nsw i32 %wraps, 1
      %index3 = sext i32 %above to i64
      %address3 = getelementptr float, ptr %p, i64 %index3
      store float 0.0, ptr %address3
      ret void
    })", context);
  ASSERT_TRUE(module);
  llvm::Function& f = *module->getFunction("f");
  widen_signed_index_arithmetic(f);
  EXPECT_EQ(index_of(f, "address1"), named(f, "index1"));
  EXPECT_EQ(index_of(f, "address2"), named(f, "index2"));
  auto* above = llvm::dyn_cast<llvm::BinaryOperator>(index_of(f, "address3"));
  ASSERT_NE(above, nullptr);
  EXPECT_TRUE(above->getType()->isIntegerTy(64));
  auto* extended = llvm::dyn_cast<llvm::SExtInst>(above->getOperand(0));
  ASSERT_NE(extended, nullptr);
  EXPECT_EQ(extended->getOperand(0), named(f, "wraps"));
  EXPECT_TRUE(cucl::backend::verify_module(*module).empty());
}

// Trees that share operands (x + x, 40 times over) are widened once per value, and a sum of
// 5000 terms is widened only near its root: the function grows by a bounded amount, stays
// valid, and the build does not recurse 5000 calls deep.
TEST(IndexWidening, SharedAndDeepTreesStayBounded) {
  std::string body = "define void @f(ptr %p, i32 %a) {\n  %x0 = add nsw i32 %a, 1\n";
  for (int i = 1; i <= 40; ++i) {
    body += "  %x" + std::to_string(i) + " = add nsw i32 %x" + std::to_string(i - 1) + ", %x" + std::to_string(i - 1) + "\n";
  }
  body += "  %s0 = add nsw i32 %a, 2\n";
  for (int i = 1; i <= 5000; ++i) {
    body += "  %s" + std::to_string(i) + " = add nsw i32 %s" + std::to_string(i - 1) + ", %a\n";
  }
  body += "  %i1 = sext i32 %x40 to i64\n  %g1 = getelementptr float, ptr %p, i64 %i1\n  store float 0.0, ptr %g1\n";
  body += "  %i2 = sext i32 %s5000 to i64\n  %g2 = getelementptr float, ptr %p, i64 %i2\n  store float 0.0, ptr %g2\n";
  body += "  ret void\n}\n";
  llvm::LLVMContext context;
  auto module = cucl::test::parse_ir(body, context);
  ASSERT_TRUE(module);
  llvm::Function& f = *module->getFunction("f");
  const size_t before = f.getInstructionCount();
  widen_signed_index_arithmetic(f);
  EXPECT_LE(f.getInstructionCount(), before + 41 + 65 + 4);
  EXPECT_TRUE(cucl::backend::verify_module(*module).empty());
  auto* shared = llvm::dyn_cast<llvm::BinaryOperator>(index_of(f, "g1"));
  ASSERT_NE(shared, nullptr);
  EXPECT_EQ(shared->getOperand(0), shared->getOperand(1)) << "x39 widened once, used twice";
}

// A work-item's float at k*ld + (first + x) for k = 0..n-1, all int arithmetic as OpenCL C
// writes it. Once widened and simplified (loop-invariant parts hoisted, the sum reassociated),
// the lanes' addresses are proven to step by 4 bytes. In CLBlast's Xgemm the narrow form lost
// its nsw flags in simplification and 32 accesses of its vector form were checked at run time;
// widened, none is.
LaneStride widened_address_stride() {
  llvm::LLVMContext context;
  auto module = cucl::test::parse_ir(R"(
    define void @wi(ptr noalias %args, ptr noalias %context, i64 %x, i64 %y, i64 %z, ptr %p, i32 %n, i32 %ld, i32 %first) {
    entry:
      %any = icmp sgt i32 %n, 0
      br i1 %any, label %loop, label %exit
    loop:
      %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
      %id = trunc i64 %x to i32
      %column = add nsw i32 %first, %id
      %start = mul nsw i32 %k, %ld
      %sum = add nsw i32 %start, %column
      %index = sext i32 %sum to i64
      %address = getelementptr inbounds float, ptr %p, i64 %index
      store float 1.0, ptr %address
      %k.next = add nsw i32 %k, 1
      %done = icmp eq i32 %k.next, %n
      br i1 %done, label %exit, label %loop
    exit:
      ret void
    })", context);
  if (!module) return {};
  llvm::Function& wi = *module->getFunction("wi");
  cucl::backend::simplify_function(wi, [](llvm::Function& f) { widen_signed_index_arithmetic(f); });
  WorkItemDivergence divergence(wi, *wi.getArg(2), {});
  divergence.set_lanes(8);
  for (llvm::Instruction& instruction : llvm::instructions(wi)) {
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) return divergence.stride(store->getPointerOperand());
  }
  return {};
}

TEST(IndexWidening, WidenedIndicesStepProvenlyAfterSimplification) {
  const LaneStride widened = widened_address_stride();
  EXPECT_TRUE(widened.affine);
  EXPECT_EQ(widened.step, 4);
  EXPECT_TRUE(widened.proven);
}

// A GPU's widening (multiplications = false) keeps products and shifts in 32 bits and widens
// the additions around them.
TEST(IndexWidening, WithoutMultiplicationsOnlyAdditionsAreWidened) {
  llvm::LLVMContext context;
  auto module = cucl::test::parse_ir(R"(
    define void @f(ptr %p, i32 %a, i32 %b, i32 %c) {
      %scaled = mul nsw i32 %a, %c
      %sum = add nsw i32 %scaled, %b
      %index = sext i32 %sum to i64
      %address = getelementptr float, ptr %p, i64 %index
      store float 0.0, ptr %address
      ret void
    })", context);
  ASSERT_TRUE(module);
  llvm::Function& f = *module->getFunction("f");
  widen_signed_index_arithmetic(f, cucl::backend::IndexWidening{.multiplications = false});
  auto* sum = llvm::dyn_cast<llvm::BinaryOperator>(index_of(f, "address"));
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->getOpcode(), llvm::Instruction::Add);
  EXPECT_TRUE(sum->getType()->isIntegerTy(64));
  auto* scaled = llvm::dyn_cast<llvm::SExtInst>(sum->getOperand(0));
  ASSERT_NE(scaled, nullptr) << text_of(sum);
  EXPECT_EQ(scaled->getOperand(0), named(f, "scaled"));
}

// int column = get_local_id(1) + i * 8 truncates a 64-bit sum; where that sum's range fits
// in an int (a thread index below 1024, a loop counter below 8), the sum itself is the
// widened value. Without the thread index's range it may not fit, and stays extended.
std::string column_source(bool thread_index_has_range) {
  return std::string(R"(
    declare i32 @thread_index()
    define void @f(ptr %p, i32 %n) {
    entry:
      %tid = call i32 @thread_index())") +
         (thread_index_has_range ? ", !range !0" : "") + R"(
      %tid.wide = zext i32 %tid to i64
      br label %loop
    loop:
      %i = phi i32 [ 0, %entry ], [ %next, %loop ]
      %step = mul nsw i32 %i, 8
      %step.wide = sext i32 %step to i64
      %sum = add i64 %tid.wide, %step.wide
      %column = trunc i64 %sum to i32
      %shifted = add nsw i32 %column, %n
      %index = sext i32 %shifted to i64
      %address = getelementptr float, ptr %p, i64 %index
      store float 0.0, ptr %address
      %next = add nuw nsw i32 %i, 1
      %done = icmp eq i32 %next, 8
      br i1 %done, label %exit, label %loop
    exit:
      ret void
    }
    !0 = !{i32 0, i32 1024})";
}

TEST(IndexWidening, TruncationsThatFitAreTheirWideValue) {
  for (bool ranged : {true, false}) {
    llvm::LLVMContext context;
    auto module = cucl::test::parse_ir(column_source(ranged), context);
    ASSERT_TRUE(module);
    llvm::Function& f = *module->getFunction("f");
    widen_signed_index_arithmetic(f, cucl::backend::IndexWidening{.multiplications = false});
    auto* shifted = llvm::dyn_cast<llvm::BinaryOperator>(index_of(f, "address"));
    ASSERT_NE(shifted, nullptr);
    EXPECT_TRUE(shifted->getType()->isIntegerTy(64));
    if (ranged) {
      EXPECT_EQ(shifted->getOperand(0), named(f, "sum")) << text_of(shifted);
    } else {
      auto* extended = llvm::dyn_cast<llvm::SExtInst>(shifted->getOperand(0));
      ASSERT_NE(extended, nullptr) << text_of(shifted);
      EXPECT_EQ(extended->getOperand(0), named(f, "column"));
    }
  }
}

}  // namespace

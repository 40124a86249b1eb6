// Component rejoining (backends/host/codegen/component_rejoining.h) on functions written in
// LLVM IR: component-wise computations that build a whole vector become one vector
// operation, through chains of operations below the inserts (a loop unrolled twice), and
// from chains that overwrite a vector's last value; what is not one stays as it was.
#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

#include "backends/host/codegen/component_rejoining.h"
#include "tests/support/llvm_ir_text.h"

namespace {

using cucl::test::occurrences;

// `f(<4 x float> %a, <4 x float> %b, <4 x float> %c, float %s)` with `body`, rejoined.
class Rejoined {
 public:
  explicit Rejoined(const std::string& body) {
    const std::string text = "define <4 x float> @f(<4 x float> %a, <4 x float> %b, <4 x float> %c, float %s) {\n" + body +
                             "}\ndeclare float @llvm.fmuladd.f32(float, float, float)\n";
    module_ = cucl::test::parse_ir(text, context_);
    if (!module_) return;
    changed_ = cucl::backend::host::rejoin_component_operations(*module_->getFunction("f"));
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    EXPECT_FALSE(llvm::verifyModule(*module_, &stream)) << problems;
  }

  bool changed() const { return changed_; }
  std::string text() const {
    std::string text;
    llvm::raw_string_ostream stream(text);
    if (module_) module_->getFunction("f")->print(stream);
    return text;
  }

 private:
  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
  bool changed_ = false;
};

// mad(a, s, c) then mad(b, s, that), component by component.
std::string two_mads(const char* start) {
  std::string body;
  for (int k = 0; k < 4; ++k) {
    const std::string i = std::to_string(k);
    body += "  %a" + i + " = extractelement <4 x float> %a, i64 " + i + "\n";
    body += "  %b" + i + " = extractelement <4 x float> %b, i64 " + i + "\n";
    body += "  %c" + i + " = extractelement <4 x float> %c, i64 " + i + "\n";
    body += "  %m" + i + " = call float @llvm.fmuladd.f32(float %a" + i + ", float %s, float %c" + i + ")\n";
    body += "  %n" + i + " = call float @llvm.fmuladd.f32(float %b" + i + ", float %s, float %m" + i + ")\n";
  }
  std::string last = start;
  for (int k = 0; k < 4; ++k) {
    const std::string i = std::to_string(k);
    body += "  %v" + i + " = insertelement <4 x float> " + last + ", float %n" + i + ", i64 " + i + "\n";
    last = "%v" + i;
  }
  return body + "  ret <4 x float> %v3\n";
}

TEST(HostComponentRejoining, OperationsBelowTheInsertsJoinToo) {
  Rejoined r(two_mads("poison"));
  EXPECT_TRUE(r.changed());
  const std::string text = r.text();
  EXPECT_EQ(occurrences(text, "call <4 x float> @llvm.fmuladd.v4f32"), 2u) << text;
  EXPECT_EQ(occurrences(text, "call float @llvm.fmuladd.f32"), 0u) << text;
  EXPECT_NE(text.find("insertelement <4 x float> poison, float %s"), std::string::npos) << text;  // the shared scalar's splat
}

TEST(HostComponentRejoining, ChainsThatOverwriteEveryComponentJoin) {
  Rejoined r(two_mads("%c"));
  EXPECT_TRUE(r.changed());
  EXPECT_EQ(occurrences(r.text(), "call <4 x float> @llvm.fmuladd.v4f32"), 2u) << r.text();
}

TEST(HostComponentRejoining, ChainsThatKeepAComponentOfTheirStartStay) {
  Rejoined r(R"(
    %a0 = extractelement <4 x float> %a, i64 0
    %a1 = extractelement <4 x float> %a, i64 1
    %a2 = extractelement <4 x float> %a, i64 2
    %x0 = fadd float %a0, %s
    %x1 = fadd float %a1, %s
    %x2 = fadd float %a2, %s
    %v0 = insertelement <4 x float> %c, float %x0, i64 0
    %v1 = insertelement <4 x float> %v0, float %x1, i64 1
    %v2 = insertelement <4 x float> %v1, float %x2, i64 2
    ret <4 x float> %v2
  )");
  EXPECT_FALSE(r.changed());
  EXPECT_EQ(occurrences(r.text(), "fadd float"), 3u) << r.text();
}

TEST(HostComponentRejoining, ValuesUsedElsewhereAreNotJoined) {
  Rejoined r(R"(
    %a0 = extractelement <4 x float> %a, i64 0
    %a1 = extractelement <4 x float> %a, i64 1
    %x0 = fmul float %a0, %s
    %x1 = fmul float %a1, %s
    %y0 = fadd float %x0, 1.0
    %y1 = fadd float %x1, 1.0
    %v0 = insertelement <4 x float> poison, float %y0, i64 0
    %v1 = insertelement <4 x float> %v0, float %y1, i64 1
    %v2 = insertelement <4 x float> %v1, float %x0, i64 2
    %v3 = insertelement <4 x float> %v2, float %x1, i64 3
    ret <4 x float> %v3
  )");
  EXPECT_FALSE(r.changed());
  EXPECT_EQ(occurrences(r.text(), "fmul float"), 2u) << r.text();
}

TEST(HostComponentRejoining, MixedOperationsStay) {
  Rejoined r(R"(
    %a0 = extractelement <4 x float> %a, i64 0
    %a1 = extractelement <4 x float> %a, i64 1
    %x0 = fadd float %a0, %s
    %x1 = fmul float %a1, %s
    %v0 = insertelement <2 x float> poison, float %x0, i64 0
    %v1 = insertelement <2 x float> %v0, float %x1, i64 1
    %w = shufflevector <2 x float> %v1, <2 x float> poison, <4 x i32> <i32 0, i32 1, i32 0, i32 1>
    ret <4 x float> %w
  )");
  EXPECT_FALSE(r.changed());
}

}  // namespace

// The host device's whole-function vectoriser (backends/host/codegen/work_item_vectorizer.h)
// on work-item functions written in LLVM IR: what becomes a vector operation, what a gather,
// what runs lane by lane, where lanes that part ways are handed to the resume function, and
// what keeps a kernel scalar. The OpenCL-level results of the same shapes are checked
// against references in tests/test_host_vectorization.cpp.
#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

#include "backends/host/codegen/sleef_vector_calls.h"
#include "backends/host/codegen/work_item_vectorizer.h"
#include "tests/support/llvm_ir_text.h"

namespace {

using cucl::test::occurrences;

using cucl::backend::host::vectorize_work_item;
using cucl::backend::host::WorkItemVectorization;

constexpr unsigned kWidth = 16;

// A work-item function `wi(args, context, x, y, z)` with `body` (which may use %args and %x).
class Vectorized {
 public:
  explicit Vectorized(const std::string& body, const std::string& declarations = "") {
    const std::string text = "define void @wi(ptr noalias %args, ptr noalias %context, i64 %x, i64 %y, i64 %z) {\n" +
                             body + "}\n" + "declare float @llvm.fmuladd.f32(float, float, float)\n" + declarations;
    module_ = cucl::test::parse_ir(text, context_);
    if (!module_) return;
    result_ = vectorize_work_item(*module_->getFunction("wi"), kWidth);
  }

  const WorkItemVectorization& result() const { return result_; }

  std::string text_of(const char* name) const {
    std::string text;
    llvm::raw_string_ostream stream(text);
    if (llvm::Function* function = module_ ? module_->getFunction(name) : nullptr) function->print(stream);
    return text;
  }
  std::string vector_text() const { return result_.function ? text_of(result_.function->getName().str().c_str()) : ""; }

 private:
  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
  WorkItemVectorization result_;
};

TEST(HostVectorizer, ConsecutiveAccessesAreVectorLoadsAndStores) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %a = getelementptr inbounds float, ptr %base, i64 %x
    %value = load float, ptr %a
    %twice = fmul float %value, 2.0
    store float %twice, ptr %a
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  EXPECT_EQ(v.result().width, kWidth);
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "load <16 x float>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "store <16 x float>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "fmul <16 x float>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "gather"), 0u) << text;
  // The base pointer is the same for every work-item: one scalar load.
  EXPECT_EQ(occurrences(text, "load ptr, ptr %args"), 1u) << text;
}

// `int i = get_global_id(0)`: 32-bit indices might wrap between lanes (the group's offset
// is not known), so the first and last lane's addresses pick between a vector access and a
// gather at run time.
TEST(HostVectorizer, ThirtyTwoBitIndicesAreCheckedAtRunTime) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %offset = load i64, ptr %context
    %global = add i64 %offset, %x
    %narrow = trunc i64 %global to i32
    %index = sext i32 %narrow to i64
    %a = getelementptr inbounds i32, ptr %base, i64 %index
    store i32 %narrow, ptr %a
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "store <16 x i32>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "@llvm.masked.scatter"), 1u) << text;
  EXPECT_NE(text.find("consecutive:"), std::string::npos) << text;
}

// `int i = get_local_id(0)`: the vector's first id is a multiple of its width, so its 16
// lanes cannot wrap in 32 bits: no check.
TEST(HostVectorizer, ThirtyTwoBitLocalIdsNeedNoCheck) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %narrow = trunc i64 %x to i32
    %index = sext i32 %narrow to i64
    %a = getelementptr inbounds i32, ptr %base, i64 %index
    store i32 %narrow, ptr %a
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "store <16 x i32>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "@llvm.masked.scatter"), 0u) << text;
  EXPECT_EQ(text.find("consecutive:"), std::string::npos) << text;
}

TEST(HostVectorizer, StridedAndIndirectAccessesAreGathersAndScatters) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %triple = mul i64 %x, 3
    %a = getelementptr inbounds float, ptr %base, i64 %triple
    %value = load float, ptr %a
    %index.at = getelementptr inbounds i64, ptr %base, i64 %x
    %index = load i64, ptr %index.at
    %b = getelementptr inbounds float, ptr %base, i64 %index
    store float %value, ptr %b
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "call <16 x float> @llvm.masked.gather"), 1u) << text;
  EXPECT_EQ(occurrences(text, "load <16 x i64>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "call void @llvm.masked.scatter"), 1u) << text;
}

// OpenCL vectors that are not consecutive between lanes (a transposed tile's float4s) move
// one lane's vector at a time, with its own address: lane 0's plus its steps where they are
// known, each lane's otherwise. Under a mask they stay gathers and scatters.
TEST(HostVectorizer, StridedOpenClVectorsMoveALaneAtATime) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %triple = mul i64 %x, 3
    %a = getelementptr inbounds <4 x float>, ptr %base, i64 %triple
    %value = load <4 x float>, ptr %a
    %index.at = getelementptr inbounds i64, ptr %base, i64 %x
    %index = load i64, ptr %index.at
    %b = getelementptr inbounds <4 x float>, ptr %base, i64 %index
    store <4 x float> %value, ptr %b
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const unsigned width = v.result().width;
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "= load <4 x float>, ptr"), width) << text;
  EXPECT_EQ(occurrences(text, "store <4 x float>"), width) << text;
  EXPECT_EQ(occurrences(text, "gather"), 0u) << text;
  EXPECT_EQ(occurrences(text, "scatter"), 0u) << text;
  EXPECT_EQ(occurrences(text, "getelementptr i8, ptr %a, i64 48"), 1u) << text;  // lane 1: 3 float4s on
}

// A loop whose trip count is the same for every work-item stays a loop; what it carries
// becomes a vector.
TEST(HostVectorizer, UniformLoopsCarryVectors) {
  Vectorized v(R"(
  entry:
    %n.at = getelementptr inbounds i32, ptr %args, i64 2
    %n = load i32, ptr %n.at
    %start = uitofp i64 %x to float
    br label %loop
  loop:
    %i = phi i32 [ 0, %entry ], [ %next, %loop ]
    %acc = phi float [ %start, %entry ], [ %mad, %loop ]
    %mad = call float @llvm.fmuladd.f32(float %acc, float 0.5, float 1.0)
    %next = add i32 %i, 1
    %more = icmp slt i32 %next, %n
    br i1 %more, label %loop, label %done
  done:
    %base = load ptr, ptr %args
    %a = getelementptr inbounds float, ptr %base, i64 %x
    store float %mad, ptr %a
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const std::string text = v.vector_text();
  EXPECT_NE(text.find("phi <16 x float>"), std::string::npos) << text;
  EXPECT_NE(text.find("phi i32"), std::string::npos) << text;
  EXPECT_NE(text.find("@llvm.fmuladd.v16f32"), std::string::npos) << text;
  EXPECT_EQ(occurrences(text, "lanes_part"), 0u) << text;
}

// Lanes that may take a branch different ways: when they agree the vector goes on, else each
// lane finishes in the resume function, handed its live values.
TEST(HostVectorizer, DivergentBranchesHandLanesToTheResumeFunction) {
  Vectorized v(R"(
  entry:
    %odd.bit = and i64 %x, 1
    %odd = icmp ne i64 %odd.bit, 0
    %base = load ptr, ptr %args
    %a = getelementptr inbounds i64, ptr %base, i64 %x
    br i1 %odd, label %then, label %join
  then:
    %old = atomicrmw add ptr %a, i64 %odd.bit monotonic
    br label %join
  join:
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  EXPECT_EQ(v.result().masked_branches, 0u);  // an atomic: not under a mask
  const std::string text = v.vector_text();
  EXPECT_NE(text.find("@llvm.vector.reduce.and.v16i1"), std::string::npos) << text;
  EXPECT_EQ(occurrences(text, "call void @wi.resume("), 1u) << text;  // in a loop over the lanes
  const std::string resume = v.text_of("wi.resume");
  ASSERT_FALSE(resume.empty());
  // It starts at the branch, with the live values (the bit and the address) loaded from the state.
  EXPECT_NE(resume.find("enter0:"), std::string::npos) << resume;
  EXPECT_EQ(occurrences(resume, "load i64, ptr"), 1u) << resume;
  EXPECT_EQ(occurrences(resume, "load ptr, ptr"), 1u) << resume;
  EXPECT_EQ(occurrences(resume, "load i1, ptr"), 0u) << resume;  // booleans travel as bytes
  EXPECT_EQ(occurrences(resume, "trunc i8"), 1u) << resume;
}

// An if without else whose condition differs between lanes: its block runs for all lanes
// when any goes there, its loads and stores masked to those that do, and the value that
// meets after it is chosen lane by lane. No lane is handed to the resume function.
TEST(HostVectorizer, IfWithoutElseRunsUnderAMask) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %limit = load i64, ptr %context
    %a = getelementptr inbounds float, ptr %base, i64 %x
    %inside = icmp ult i64 %x, %limit
    br i1 %inside, label %then, label %join
  then:
    %value = load float, ptr %a
    %twice = fmul float %value, 2.0
    store float %twice, ptr %a
    br label %join
  join:
    %result = phi float [ %twice, %then ], [ 0.0, %entry ]
    %out = getelementptr inbounds float, ptr %a, i64 4096
    store float %result, ptr %out
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  EXPECT_EQ(v.result().masked_branches, 1u);
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "@llvm.masked.load.v16f32"), 1u) << text;
  EXPECT_EQ(occurrences(text, "@llvm.masked.store.v16f32"), 1u) << text;
  EXPECT_EQ(occurrences(text, "store <16 x float> %result"), 1u) << text;  // after the join: every lane
  EXPECT_EQ(occurrences(text, "select <16 x i1>"), 1u) << text;
  EXPECT_NE(text.find("@llvm.vector.reduce.or.v16i1"), std::string::npos) << text;  // skipped where no lane goes
  EXPECT_TRUE(v.text_of("wi.resume").empty());
}

// An if with an else: each side runs (masked) where any lane goes there, and the values that
// meet after it are chosen lane by lane.
TEST(HostVectorizer, IfWithElseRunsBothSidesUnderMasks) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %a = getelementptr inbounds float, ptr %base, i64 %x
    %value = load float, ptr %a
    %negative = fcmp olt float %value, 0.0
    br i1 %negative, label %then, label %else
  then:
    %flipped = fneg float %value
    store float %flipped, ptr %a
    br label %join
  else:
    %halved = fmul float %value, 0.5
    br label %join
  join:
    %result = phi float [ %flipped, %then ], [ %halved, %else ]
    %out = getelementptr inbounds float, ptr %a, i64 4096
    store float %result, ptr %out
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  EXPECT_EQ(v.result().masked_branches, 1u);
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "@llvm.masked.store.v16f32"), 1u) << text;
  EXPECT_EQ(occurrences(text, "fneg <16 x float>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "fmul <16 x float>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "select <16 x i1>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "@llvm.vector.reduce.or.v16i1"), 2u) << text;  // each side skipped where no lane goes
  EXPECT_TRUE(v.text_of("wi.resume").empty());
}

// A store of one address in the guarded block would need the last lane that runs it: such a
// branch keeps the fallback, as do atomics there.
TEST(HostVectorizer, IfWithoutElseStoringToOneAddressLetsLanesPart) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %odd.bit = and i64 %x, 1
    %odd = icmp ne i64 %odd.bit, 0
    br i1 %odd, label %then, label %join
  then:
    store i64 %x, ptr %base
    br label %join
  join:
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  EXPECT_EQ(v.result().masked_branches, 0u);
  EXPECT_FALSE(v.text_of("wi.resume").empty());
}

// A loop that lanes leave at iterations of their own (a trip count of each work-item), writing
// no memory: the vector iterates while any lane is inside, its load masked to those lanes,
// and each lane's counter and sum are kept from the iteration it left in. No lane is handed
// to the resume function.
TEST(HostVectorizer, LoopsLeftByEachLaneRunUnderAMask) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %n = trunc i64 %x to i32
    br label %loop
  loop:
    %i = phi i32 [ 0, %entry ], [ %next, %loop ]
    %sum = phi i32 [ 0, %entry ], [ %added, %loop ]
    %wide = sext i32 %i to i64
    %at = getelementptr inbounds i32, ptr %base, i64 %wide
    %value = load i32, ptr %at
    %added = add i32 %sum, %value
    %next = add i32 %i, 1
    %more = icmp slt i32 %next, %n
    br i1 %more, label %loop, label %done
  done:
    %out = getelementptr inbounds i32, ptr %base, i64 %x
    %both = add i32 %added, %next
    store i32 %both, ptr %out
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  EXPECT_EQ(v.result().masked_loops, 1u);
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "lanes_part"), 0u) << text;
  EXPECT_TRUE(v.text_of("wi.resume").empty());
  EXPECT_NE(text.find("@llvm.vector.reduce.or.v16i1"), std::string::npos) << text;  // any lane still inside
  EXPECT_NE(text.find("phi <16 x i1>"), std::string::npos) << text;                 // the lanes inside
  EXPECT_NE(text.find("@llvm.masked.gather.v16i32"), std::string::npos) << text;     // all lanes read one address
  EXPECT_NE(text.find("phi <16 x i32>"), std::string::npos) << text;                // the counter, per lane
  EXPECT_GE(occurrences(text, "select <16 x i1>"), 2u) << text;                     // what each lane keeps
}

// A loop with a store keeps the fallback: lanes that part finish one by one.
TEST(HostVectorizer, LoopsThatWriteMemoryAreNotMasked) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %n = trunc i64 %x to i32
    br label %loop
  loop:
    %i = phi i32 [ 0, %entry ], [ %next, %loop ]
    %wide = sext i32 %i to i64
    %at = getelementptr inbounds i32, ptr %base, i64 %wide
    store i32 %i, ptr %at
    %next = add i32 %i, 1
    %more = icmp slt i32 %next, %n
    br i1 %more, label %loop, label %done
  done:
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  EXPECT_EQ(v.result().masked_loops, 0u);
  EXPECT_NE(v.vector_text().find("lanes_part"), std::string::npos) << v.vector_text();
}

// SLEEF's scalar functions (pure, as host_codegen marks them) become calls of their vector
// forms, a register's lanes at a time (8 floats or 4 doubles with AVX, 4 or 2 without);
// a function SLEEF has no vector form of stays a call per lane.
TEST(HostVectorizer, MathLibraryCallsUseItsVectorForms) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %a = getelementptr inbounds float, ptr %base, i64 %x
    %value = load float, ptr %a
    %sine = call float @Sleef_sinf_u10(float %value)
    %power = call float @Sleef_powf_u10(float %sine, float %value)
    %remainder = call float @Sleef_fmodf(float %power, float 3.0)
    %own = call float @Sleef_madeupf_u10(float %remainder)
    store float %own, ptr %a
    %d = getelementptr inbounds double, ptr %base, i64 %x
    %wide = load double, ptr %d
    %cosine = call double @Sleef_cos_u10(double %wide)
    store double %cosine, ptr %d
    ret void
  )", R"(
  declare float @Sleef_sinf_u10(float) readnone nounwind willreturn
  declare float @Sleef_powf_u10(float, float) readnone nounwind willreturn
  declare float @Sleef_fmodf(float, float) readnone nounwind willreturn
  declare float @Sleef_madeupf_u10(float) readnone nounwind willreturn
  declare double @Sleef_cos_u10(double) readnone nounwind willreturn
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const std::string text = v.vector_text();
  const unsigned floats = cucl::backend::host::host_register_bytes() / 4, doubles = floats / 2;
  const std::string f = std::to_string(floats), d = std::to_string(doubles);
  EXPECT_EQ(occurrences(text, "call <" + f + " x float> @Sleef_sinf" + f + "_u10("), kWidth / floats) << text;
  EXPECT_EQ(occurrences(text, "call <" + f + " x float> @Sleef_powf" + f + "_u10("), kWidth / floats) << text;
  EXPECT_EQ(occurrences(text, "call <" + f + " x float> @Sleef_fmodf" + f + "("), kWidth / floats) << text;
  EXPECT_EQ(occurrences(text, "call <" + d + " x double> @Sleef_cosd" + d + "_u10("), kWidth / doubles) << text;
  EXPECT_EQ(occurrences(text, "call float @Sleef_madeupf_u10("), kWidth) << text;
  EXPECT_EQ(occurrences(text, "call float @Sleef_sinf_u10("), 0u) << text;
}

TEST(HostVectorizer, MathLibraryVectorNames) {
  using cucl::backend::host::sleef_vector_name;
  EXPECT_EQ(sleef_vector_name("Sleef_sinf_u10", true, 8), "Sleef_sinf8_u10");
  EXPECT_EQ(sleef_vector_name("Sleef_sin_u10", false, 4), "Sleef_sind4_u10");
  EXPECT_EQ(sleef_vector_name("Sleef_erfcf_u15", true, 4), "Sleef_erfcf4_u15");
  EXPECT_EQ(sleef_vector_name("Sleef_fmodf", true, 8), "Sleef_fmodf8");
  EXPECT_EQ(sleef_vector_name("Sleef_remainder", false, 2), "Sleef_remainderd2");
  EXPECT_EQ(sleef_vector_name("Sleef_erf_u10", false, 4), "Sleef_erfd4_u10");
  EXPECT_EQ(sleef_vector_name("Sleef_hypot_u05_libdevice", false, 4), "");  // not SLEEF's own name
  EXPECT_EQ(sleef_vector_name("Sleef_sin_u10", true, 8), "");               // a float call of a double name
  EXPECT_EQ(sleef_vector_name("sinf", true, 8), "");
  EXPECT_EQ(sleef_vector_name("Sleef_sinf_u10", true, 1), "");
  EXPECT_TRUE(cucl::backend::host::host_has_function("Sleef_sinf4_u10"));
  EXPECT_FALSE(cucl::backend::host::host_has_function("Sleef_madeupf4_u10"));
}

TEST(HostVectorizer, AtomicsRunOncePerLane) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %old = atomicrmw add ptr %base, i64 1 seq_cst
    %a = getelementptr inbounds i64, ptr %base, i64 %old
    store i64 %x, ptr %a
    %b = getelementptr inbounds i64, ptr %base, i64 %x
    %c = load i64, ptr %b
    %d = mul i64 %c, %c
    %e = add i64 %d, %c
    store i64 %e, ptr %b
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "atomicrmw add"), kWidth) << text;
  EXPECT_EQ(occurrences(text, "call void @llvm.masked.scatter"), 1u) << text;
}

// OpenCL vectors that differ between work-items are carried lane by lane in one long vector;
// a float4 kernel takes 4 work-items at a time (16 elements).
TEST(HostVectorizer, OpenClVectorsNarrowTheWidth) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %a = getelementptr inbounds <4 x float>, ptr %base, i64 %x
    %value = load <4 x float>, ptr %a
    %swapped = shufflevector <4 x float> %value, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
    %first = extractelement <4 x float> %swapped, i64 0
    %sum = fadd float %first, 1.0
    %out = insertelement <4 x float> %swapped, float %sum, i64 1
    store <4 x float> %out, ptr %a
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const unsigned width = cucl::backend::host::kMaxLaneElements / 4;
  EXPECT_EQ(v.result().width, width);
  const std::string text = v.vector_text();
  const std::string lanes = std::to_string(width), elements = std::to_string(4 * width);
  EXPECT_EQ(occurrences(text, "load <" + elements + " x float>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "store <" + elements + " x float>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "fadd <" + lanes + " x float>"), 1u) << text;  // one element of each lane
  EXPECT_NE(text.find("<i32 3, i32 2, i32 1, i32 0, i32 7, i32 6, i32 5, i32 4,"), std::string::npos) << text;
}

// Addresses that step by a constant from lane 0's are carried as lane 0's alone, through phis
// too: the phi and the pointer arithmetic stay scalar, and no vector of addresses is made
// for the consecutive accesses through them.
TEST(HostVectorizer, SteppingAddressesStayScalarThroughPhis) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %pick = load i1, ptr %context
    br i1 %pick, label %left, label %right
  left:
    %a = getelementptr inbounds float, ptr %base, i64 %x
    br label %loop
  right:
    %shifted = add i64 %x, 64
    %b = getelementptr inbounds float, ptr %base, i64 %shifted
    br label %loop
  loop:
    %k = phi i64 [ 0, %left ], [ 0, %right ], [ %k.next, %loop ]
    %address = phi ptr [ %a, %left ], [ %b, %right ], [ %address, %loop ]
    %value = load float, ptr %address
    %twice = fmul float %value, 2.0
    store float %twice, ptr %address
    %k.next = add i64 %k, 1
    %done = icmp eq i64 %k.next, 8
    br i1 %done, label %exit, label %loop
  exit:
    %as_float = uitofp i64 %x to float
    %out = getelementptr inbounds float, ptr %base, i64 %x
    store float %as_float, ptr %out
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const std::string text = v.vector_text();
  EXPECT_EQ(occurrences(text, "phi ptr"), 1u) << text;
  EXPECT_EQ(occurrences(text, "x ptr>"), 0u) << text;
  EXPECT_EQ(occurrences(text, "load <16 x float>"), 1u) << text;
  EXPECT_EQ(occurrences(text, "store <16 x float>"), 2u) << text;
  EXPECT_EQ(occurrences(text, "gather"), 0u) << text;
  // Where each lane's value is read as a number, it is made from lane 0's by its steps.
  EXPECT_EQ(occurrences(text, "uitofp <16 x i64>"), 1u) << text;
  EXPECT_NE(text.find("<i64 0, i64 1, i64 2, i64 3,"), std::string::npos) << text;
}

// Each lane's value of a hash of the id is lane 0's plus its steps modulo 2^64, as the
// multiplication's own arithmetic wraps.
TEST(HostVectorizer, LanesOfAHashOfTheIdWrapAsItDoes) {
  Vectorized v(R"(
  entry:
    %base = load ptr, ptr %args
    %hash = mul i64 %x, -7046029254386353131
    %a = getelementptr inbounds i64, ptr %base, i64 %x
    store i64 %hash, ptr %a
    ret void
  )");
  ASSERT_NE(v.result().function, nullptr) << v.result().obstacle;
  const std::string text = v.vector_text();
  // 2 * 0x9E3779B97F4A7C15 modulo 2^64 is 0x3C6EF372FE94F82A.
  EXPECT_NE(text.find("i64 -7046029254386353131, i64 4354685564936845354,"), std::string::npos) << text;
}

TEST(HostVectorizer, PrivateArraysKeepAKernelScalar) {
  Vectorized v(R"(
  entry:
    %array = alloca [8 x i32]
    %slot = getelementptr inbounds [8 x i32], ptr %array, i64 0, i64 %x
    store i32 1, ptr %slot
    ret void
  )");
  EXPECT_EQ(v.result().function, nullptr);
  EXPECT_EQ(v.result().obstacle, "private memory");
}

}  // namespace

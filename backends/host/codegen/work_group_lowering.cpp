#include "backends/host/codegen/work_group_lowering.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

#include <map>

#include "backends/codegen/index_widening.h"
#include "backends/codegen/module_tools.h"
#include "backends/codegen/printf_lowering.h"
#include "backends/codegen/private_volatiles.h"
#include "backends/codegen/work_group_scratch.h"
#include "backends/host/codegen/barrier_regions.h"
#include "backends/host/codegen/component_rejoining.h"
#include "backends/host/codegen/context_layout.h"
#include "backends/host/codegen/local_memory_lowering.h"
#include "backends/host/codegen/masked_loops.h"
#include "backends/host/codegen/work_item_builtins.h"
#include "backends/host/codegen/work_item_vectorizer.h"
#include "backends/host/work_group_abi.h"
#include "base/debug_log.h"

namespace cucl::backend::host {
namespace {

constexpr const char* kRowSuffix = ".cucl_row";
// The width of the form for rows narrower than the vector form's, where the work-group's
// size is not known when the kernel is built (without reqd_work_group_size): 8x8 and 16x16
// work-groups are common.
constexpr unsigned kNarrowWidth = 8;

// void <kernel>.cucl_wi(ptr args, ptr context, i64 x, i64 y, i64 z): unpacks the
// arguments and calls the kernel, which the inliner then dissolves into it.
llvm::Function* make_work_item_function(llvm::Function& kernel) {
  llvm::LLVMContext& c = kernel.getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr, i64, i64, i64}, false);
  auto* function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                          kernel.getName() + kWorkItemSuffix, kernel.getParent());
  function->addParamAttr(0, llvm::Attribute::NoAlias);
  function->addParamAttr(0, llvm::Attribute::ReadOnly);
  function->addParamAttr(1, llvm::Attribute::NoAlias);
  function->addParamAttr(1, llvm::Attribute::ReadOnly);
  for (const char* attribute : {"target-cpu", "target-features", "denormal-fp-math", "denormal-fp-math-f32",
                                "unsafe-fp-math", "no-nans-fp-math", "no-infs-fp-math", "no-signed-zeros-fp-math",
                                "less-precise-fpmad", "uniform-work-group-size"}) {
    if (kernel.hasFnAttribute(attribute)) function->addFnAttr(kernel.getFnAttribute(attribute));
  }
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", function));
  // Argument values never change during a launch: invariant loads let LLVM hoist them out
  // of the work-item loops even past stores to buffers.
  std::vector<llvm::Value*> values;
  for (llvm::Argument& param : kernel.args()) {
    llvm::LoadInst* slot =
        mark_invariant(b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, function->getArg(0), param.getArgNo())));
    if (param.hasByValAttr()) {
      values.push_back(slot);  // the call's byval copies it, so each work-item has its own
    } else {
      values.push_back(mark_invariant(b.CreateAlignedLoad(param.getType(), slot, llvm::Align(1))));
    }
  }
  llvm::CallInst* call = b.CreateCall(&kernel, values);
  call->setAttributes(kernel.getAttributes());
  call->setCallingConv(llvm::CallingConv::C);
  b.CreateRetVoid();
  return function;
}

// Loop metadata for a loop that LLVM's loop vectoriser and unroller should leave as it is:
// its body is already a vector of work-items, or it runs fewer than a vector's worth of them.
llvm::MDNode* left_as_written(llvm::LLVMContext& c) {
  llvm::Metadata* one = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), 1));
  llvm::Metadata* width = llvm::MDNode::get(c, {llvm::MDString::get(c, "llvm.loop.vectorize.width"), one});
  llvm::Metadata* interleave = llvm::MDNode::get(c, {llvm::MDString::get(c, "llvm.loop.interleave.count"), one});
  llvm::Metadata* unroll = llvm::MDNode::get(c, {llvm::MDString::get(c, "llvm.loop.unroll.disable")});
  llvm::MDNode* loop = llvm::MDNode::getDistinct(c, {nullptr, width, interleave, unroll});
  loop->replaceOperandWith(0, loop);
  return loop;
}

struct WorkItemForms {
  llvm::Function* scalar;  // one work-item
  llvm::Function* vector;  // `width` consecutive work-items of a row, or null
  unsigned width;
  // wide_width (2 or 4 times `width`) work-items, for a kernel with a loop whose values fit
  // the registers that wide (a long dependent chain per work-item needs more independent
  // vectors to keep the arithmetic units busy); the row then runs through it first, the
  // narrow form taking what is left.
  llvm::Function* wide = nullptr;
  unsigned wide_width = 0;
  // kNarrowWidth work-items, for rows narrower than `width` (work-groups of 8 or 16 along x
  // launched without reqd_work_group_size), which would otherwise run one by one.
  llvm::Function* narrow = nullptr;
  // The forms run one region between barriers (barrier_regions.h): they take (point, round)
  // after (x, y, z) and return the barrier they stopped at.
  bool regions = false;
  llvm::Function* original = nullptr;  // then: the work-item function they were split from
};

// *stopped = max(*stopped, barrier): the barrier a row's or a group's work-items stopped at.
void keep_largest(llvm::IRBuilder<>& b, llvm::Value* stopped, llvm::Value* barrier) {
  b.CreateStore(b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, b.CreateLoad(b.getInt32Ty(), stopped), barrier), stopped);
}

// for x from `first` while x < `end`, by `step`: call `function` for (x, y, z, extra...);
// where it returns a barrier number, keep the largest in `stopped`. Leaves `b` after it.
void emit_item_loop(llvm::IRBuilder<>& b, llvm::Function* function, llvm::Value* first, llvm::Value* end, unsigned step,
                    llvm::ArrayRef<llvm::Value*> arguments, llvm::Value* stopped, bool reshapeable) {
  llvm::LLVMContext& c = b.getContext();
  llvm::Function* parent = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* before = b.GetInsertBlock();
  auto* loop = llvm::BasicBlock::Create(c, "items", parent);
  auto* done = llvm::BasicBlock::Create(c, "items_done", parent);
  b.CreateCondBr(b.CreateICmpULT(first, end), loop, done);
  b.SetInsertPoint(loop);
  llvm::PHINode* x = b.CreatePHI(b.getInt64Ty(), 2);
  x->addIncoming(first, before);
  std::vector<llvm::Value*> call_arguments(arguments.begin(), arguments.end());
  call_arguments.insert(call_arguments.begin() + 2, x);
  llvm::CallInst* call = b.CreateCall(function, call_arguments);
  call->setCallingConv(llvm::CallingConv::C);
  if (stopped) keep_largest(b, stopped, call);
  llvm::Value* next = b.CreateAdd(x, b.getInt64(step), "", /*HasNUW=*/true, /*HasNSW=*/true);
  x->addIncoming(next, loop);
  llvm::BranchInst* back = b.CreateCondBr(b.CreateICmpULT(next, end), loop, done);
  if (!reshapeable) back->setMetadata(llvm::LLVMContext::MD_loop, left_as_written(c));
  b.SetInsertPoint(done);
}

// The args and context pointers (the first two parameters) alias nothing and are only read;
// the function compiles for the same target and floating-point mode as the work-item.
void take_loop_function_attributes(llvm::Function& function, const llvm::Function& work_item) {
  for (unsigned i = 0; i < 2; ++i) {
    function.addParamAttr(i, llvm::Attribute::NoAlias);
    function.addParamAttr(i, llvm::Attribute::ReadOnly);
  }
  for (const llvm::Attribute& attribute : work_item.getAttributes().getFnAttrs()) {
    if (attribute.isStringAttribute()) function.addFnAttr(attribute);
  }
}

llvm::Value* local_size(llvm::IRBuilder<>& b, llvm::StructType* context_type, llvm::Value* context, unsigned d) {
  return load_context_element(b, context_type, context, kLocalSize, d);
}

// void <kernel>.cucl_row(ptr args, ptr context, i64 y, i64 z): the work-items of one row,
// `width` at a time through the vector form where there is one, the rest one by one. A
// function of its own, so that LLVM does not copy the work-group's loop nest once for each
// way the row's loops may run (loop unswitching). For forms of regions it is
// i32 <kernel>.cucl_row(ptr args, ptr context, i64 y, i64 z, i32 point, i32 round), which
// runs the row's work-items through one region and returns the largest barrier they stopped at.
llvm::Function* make_row_function(const WorkItemForms& forms, llvm::StructType* context_type, const std::string& name) {
  llvm::LLVMContext& c = forms.scalar->getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  std::vector<llvm::Type*> parameters = {ptr, ptr, i64, i64};
  if (forms.regions) parameters.insert(parameters.end(), {i32, i32});
  auto* type = llvm::FunctionType::get(forms.regions ? i32 : llvm::Type::getVoidTy(c), parameters, false);
  auto* function =
      llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name + kRowSuffix, forms.scalar->getParent());
  take_loop_function_attributes(*function, *forms.scalar);
  function->addFnAttr(llvm::Attribute::NoInline);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", function));
  std::vector<llvm::Value*> arguments;
  for (llvm::Argument& argument : function->args()) arguments.push_back(&argument);
  llvm::Value* stopped = nullptr;
  if (forms.regions) {
    stopped = b.CreateAlloca(i32, nullptr, "stopped");
    b.CreateStore(b.getInt32(0), stopped);
  }
  llvm::Value* size = local_size(b, context_type, function->getArg(1), 0);
  llvm::Value* scalar_start = b.getInt64(0);
  if (forms.wide) {
    llvm::Value* wide_end = b.CreateAnd(size, b.getInt64(~uint64_t{forms.wide_width - 1}));
    emit_item_loop(b, forms.wide, scalar_start, wide_end, forms.wide_width, arguments, stopped, false);
    scalar_start = wide_end;
  }
  if (forms.vector) {
    llvm::Value* vector_end = b.CreateAnd(size, b.getInt64(~uint64_t{forms.width - 1}));
    emit_item_loop(b, forms.vector, scalar_start, vector_end, forms.width, arguments, stopped, false);
    scalar_start = vector_end;
  }
  if (forms.narrow) {
    llvm::Value* narrow_end = b.CreateAnd(size, b.getInt64(~uint64_t{kNarrowWidth - 1}));
    emit_item_loop(b, forms.narrow, scalar_start, narrow_end, kNarrowWidth, arguments, stopped, false);
    scalar_start = narrow_end;
  }
  emit_item_loop(b, forms.scalar, scalar_start, size, 1, arguments, stopped, /*reshapeable=*/!forms.vector);
  if (stopped) {
    b.CreateRet(b.CreateLoad(i32, stopped));
  } else {
    b.CreateRetVoid();
  }
  for (llvm::Function* form : {forms.scalar, forms.vector, forms.wide, forms.narrow}) {
    if (!form) continue;
    form->setLinkage(llvm::GlobalValue::InternalLinkage);
    form->addFnAttr(llvm::Attribute::AlwaysInline);
  }
  return function;
}

// void <kernel>.cucl_wg(ptr args, ptr context): for z, y in the group: the row. For forms of
// regions, round after round until every work-item has come to its end: for z, y: the row
// through the region of the barrier the work-items stopped at in the round before.
void make_work_group_function(const WorkItemForms& forms, llvm::StructType* context_type, const std::string& name) {
  llvm::Function* row = make_row_function(forms, context_type, name);
  llvm::LLVMContext& c = row->getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr}, false);
  auto* function =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name + kWorkGroupSuffix, row->getParent());
  take_loop_function_attributes(*function, *forms.scalar);
  llvm::Argument* context = function->getArg(1);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", function));
  llvm::Value* sizes[3] = {nullptr, local_size(b, context_type, context, 1), local_size(b, context_type, context, 2)};
  llvm::Value* stopped = nullptr;
  llvm::PHINode* point = nullptr;
  llvm::PHINode* round = nullptr;
  if (forms.regions) {
    stopped = b.CreateAlloca(i32, nullptr, "stopped");
    llvm::BasicBlock* before = b.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(c, "round", function);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    point = b.CreatePHI(i32, 2, "point");
    point->addIncoming(b.getInt32(0), before);
    round = b.CreatePHI(i32, 2, "round");
    round->addIncoming(b.getInt32(0), before);
    b.CreateStore(b.getInt32(0), stopped);
  }
  // Every group has at least one work-item in each dimension.
  llvm::PHINode* index[3] = {nullptr, nullptr, nullptr};
  for (unsigned d = 2; d >= 1; --d) {
    llvm::BasicBlock* before = b.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(c, "rows" + std::to_string(d), function);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    index[d] = b.CreatePHI(i64, 2);
    index[d]->addIncoming(b.getInt64(0), before);
  }
  std::vector<llvm::Value*> arguments = {function->getArg(0), context, index[1], index[2]};
  if (forms.regions) arguments.insert(arguments.end(), {point, round});
  llvm::CallInst* call = b.CreateCall(row, arguments);
  call->setCallingConv(llvm::CallingConv::C);
  if (stopped) keep_largest(b, stopped, call);
  for (unsigned d = 1; d <= 2; ++d) {
    llvm::Value* next = b.CreateAdd(index[d], b.getInt64(1), "", /*HasNUW=*/true, /*HasNSW=*/true);
    index[d]->addIncoming(next, b.GetInsertBlock());
    auto* exit = llvm::BasicBlock::Create(c, "rows_done" + std::to_string(d), function);
    b.CreateCondBr(b.CreateICmpULT(next, sizes[d]), index[d]->getParent(), exit);
    b.SetInsertPoint(exit);
  }
  if (forms.regions) {
    llvm::Value* next = b.CreateLoad(i32, stopped);
    point->addIncoming(next, b.GetInsertBlock());
    round->addIncoming(b.CreateAdd(round, b.getInt32(1)), b.GetInsertBlock());
    auto* done = llvm::BasicBlock::Create(c, "all_done", function);
    b.CreateCondBr(b.CreateICmpNE(next, b.getInt32(0)), point->getParent(), done);
    b.SetInsertPoint(done);
  }
  b.CreateRetVoid();
}

// What KernelInfoRecord says of a kernel, but its private memory.
struct KernelFacts {
  uint64_t local_bytes = 0;
  bool runs_as_fibers = false;
  bool uses_printf = false;
  uint64_t region_item_bytes = 0;
  uint64_t region_row_bytes = 0;
  unsigned vector_width = 1;
};

void add_info_record(llvm::Module& module, const std::string& name, const KernelFacts& facts) {
  llvm::LLVMContext& c = module.getContext();
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  auto* type = llvm::StructType::get(c, {i64, i32, i32, i64, i64, i64, i32, i32});
  // The private memory size is filled in after optimisation (record_private_memory).
  auto* value = llvm::ConstantStruct::get(
      type, {llvm::ConstantInt::get(i64, facts.local_bytes), llvm::ConstantInt::get(i32, facts.runs_as_fibers ? 1 : 0),
             llvm::ConstantInt::get(i32, facts.uses_printf ? 1 : 0), llvm::ConstantInt::get(i64, 0),
             llvm::ConstantInt::get(i64, facts.region_item_bytes), llvm::ConstantInt::get(i64, facts.region_row_bytes),
             llvm::ConstantInt::get(i32, facts.vector_width), llvm::ConstantInt::get(i32, 0)});
  new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::ExternalLinkage, value, name + kInfoSuffix);
}

void add_printf_table(llvm::Module& module, const std::vector<PrintfCallSite>& sites) {
  llvm::LLVMContext& c = module.getContext();
  const std::string table = encode_printf_table(sites);
  auto* data = llvm::ConstantDataArray::getRaw(table, table.size(), llvm::Type::getInt8Ty(c));
  new llvm::GlobalVariable(module, data->getType(), true, llvm::GlobalValue::ExternalLinkage, data, kPrintfTable);
  new llvm::GlobalVariable(module, llvm::Type::getInt64Ty(c), true, llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantInt::get(llvm::Type::getInt64Ty(c), table.size()), kPrintfTableSize);
}

// Above this many bytes kept per work-item, a kernel whose regions run one work-item at a
// time runs as fibers instead.
constexpr uint64_t kMostScalarRegionBytes = 256;
// A kernel with a loop tries forms this many times host_vector_width() wide first (then
// half that, ...). Measured on the H100 machine's Xeon, chains of 2048 dependent
// multiply-adds per work-item, 64 against 128 work-items at a time: float 942 against
// 1584 GFLOPS, uint 289 against 475 G ops/s (vpmulld's 10-cycle latency wants 10
// independent vectors in flight), double 790-807 against 810-860 GFLOPS; only kernels
// whose values fit the registers that wide (a few bytes per work-item) get such a form.
constexpr unsigned kWideFactor = 4;

// Gives `forms` the region function of its scalar work-item (in `layout`), which replaces it.
// False (the work-item stays, to run as fibers) when the kernel cannot be split, or should not be.
bool split_into_regions(WorkItemForms& forms, KernelFacts& facts, llvm::StructType* context_type, const std::string& name,
                        StateLayout layout) {
  llvm::Function* work_item = forms.regions ? forms.original : forms.scalar;
  BarrierRegions regions = split_at_barriers(*work_item, context_type, layout);
  if (!regions.function) {
    debug_log("host kernel " + name + " runs its work-items as fibers: " + regions.obstacle);
    return false;
  }
  if (layout == StateLayout::ByWorkItem && regions.item_bytes > kMostScalarRegionBytes) {
    // Measured on the H100 machine's Xeon, the CLBlast-shaped sgemm row (64 accumulators per
    // work-item, 516 bytes kept) ran at half the speed of fibers this way, one work-item at a
    // time; the work-group collectives (a few bytes) ran 13x faster than as fibers.
    regions.function->eraseFromParent();
    if (forms.regions) {
      forms.scalar->eraseFromParent();
      forms.scalar = forms.original;
      forms.original = nullptr;
      forms.regions = false;
      facts.region_item_bytes = facts.region_row_bytes = 0;
    }
    debug_log("host kernel " + name + " runs its work-items as fibers: one at a time, they would keep " +
              std::to_string(regions.item_bytes) + " bytes each across barriers");
    return false;
  }
  if (forms.regions) forms.scalar->eraseFromParent();
  forms.original = work_item;
  forms.scalar = regions.function;
  forms.regions = true;
  facts.region_item_bytes = regions.item_bytes;
  facts.region_row_bytes = regions.row_bytes;
  // The vectoriser's analyses want the split function simplified; a scalar one is left to O3.
  if (layout == StateLayout::Interleaved) simplify_function(*forms.scalar);
  debug_log("host kernel " + name + ": its barriers split it into " + regions.summary);
  return true;
}

// The most work-items a row of the kernel's work-groups holds: its reqd_work_group_size's x
// where it gives one (a vector wider than the row would never run), else no limit.
unsigned widest_row(const llvm::Function& kernel) {
  const llvm::MDNode* sizes = kernel.getMetadata("reqd_work_group_size");
  if (!sizes || sizes->getNumOperands() < 1) return ~0u;
  auto* x = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(sizes->getOperand(0));
  if (!x || x->isZero()) return ~0u;
  return static_cast<unsigned>(std::min<uint64_t>(x->getZExtValue(), ~0u));
}

void vectorize_forms(WorkItemForms& forms, const std::string& name, unsigned row) {
  rejoin_component_operations(*forms.scalar);
  fold_exit_trampolines(*forms.scalar);  // the same work-item, with more loops of one exit block (masked_loops.h)
  const unsigned width = std::min(host_vector_width(), row < 2 ? 1u : static_cast<unsigned>(llvm::PowerOf2Floor(row)));
  if (width < kMinWidth) {
    debug_log("host kernel " + name + " runs one work-item at a time: its work-groups are " + std::to_string(row) + " wide");
    return;
  }
  // A kernel with a loop (a chain of dependent steps, whose latency more independent vectors
  // hide) also gets a form 4 or 2 times as wide where its values fit the registers so. The
  // narrow form is tried first: what rules it out (obstacles, lane-by-lane work, size,
  // registers) rules out every wider one too, and each try builds a whole form.
  // Straight-line code gains nothing from a wide form but the build time.
  llvm::SmallVector<std::pair<const llvm::BasicBlock*, const llvm::BasicBlock*>, 4> back_edges;
  llvm::FindFunctionBackedges(*forms.scalar, back_edges);
  WorkItemVectorization vectorized = vectorize_work_item(*forms.scalar, width);
  if (vectorized.function && vectorized.width == width && !back_edges.empty()) {
    for (unsigned factor = kWideFactor; factor > 1; factor /= 2) {
      if (uint64_t{factor} * width > row) continue;
      WorkItemVectorization wide = vectorize_work_item(*forms.scalar, factor * width);
      if (wide.function && wide.width > width) {
        forms.wide = wide.function;
        forms.wide_width = wide.width;
        break;
      }
      if (wide.function) wide.function->eraseFromParent();  // the registers took it down to the narrow width
      // Half as wide is at least half as large: try it only where it may pass the bound.
      if (!wide.size || uint64_t{wide.size} * (factor / 2) * width > uint64_t{wide.size_bound} * wide.width) break;
    }
  }
  forms.vector = vectorized.function;
  forms.width = vectorized.width;
  if (vectorized.function && vectorized.width > kNarrowWidth && row == ~0u) {
    WorkItemVectorization narrow = vectorize_work_item(*forms.scalar, kNarrowWidth);
    if (narrow.function && narrow.width == kNarrowWidth) {
      forms.narrow = narrow.function;
    } else if (narrow.function) {
      narrow.function->eraseFromParent();
    }
  }
  std::string widths = std::to_string(vectorized.width);
  if (forms.wide) widths = std::to_string(forms.wide_width) + " (then " + widths + ")";
  if (forms.narrow) widths += " (" + std::to_string(kNarrowWidth) + " in narrower rows)";
  std::string masked;
  if (vectorized.masked_loops) masked = ", " + std::to_string(vectorized.masked_loops) + " loop(s) under a mask";
  if (vectorized.masked_branches) masked += ", " + std::to_string(vectorized.masked_branches) + " branch(es) under a mask";
  debug_log("host kernel " + name + (vectorized.function ? " runs " + widths + " work-items at a time" + masked
                                                          : " runs one work-item at a time: " + vectorized.obstacle));
}

}  // namespace

std::string record_private_memory(llvm::Module& module) {
  std::string errors;
  const llvm::DataLayout& layout = module.getDataLayout();
  for (llvm::GlobalVariable& info : module.globals()) {
    if (!info.getName().endswith(kInfoSuffix) || !info.hasInitializer()) continue;
    const std::string kernel = info.getName().drop_back(std::string_view(kInfoSuffix).size()).str();
    // A work-group's frames: its function's and, below it, the row function's (where the
    // work-item's own variables are after inlining).
    uint64_t bytes = 0;
    for (const std::string& suffix : {std::string(kWorkGroupSuffix), std::string(kWorkItemSuffix), std::string(kRowSuffix)}) {
      llvm::Function* frame = module.getFunction(kernel + suffix);
      if (!frame || frame->isDeclaration()) continue;
      for (llvm::Instruction& instruction : frame->getEntryBlock()) {
        auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
        if (!alloca) continue;
        if (auto size = alloca->getAllocationSizeInBits(layout)) bytes += *size / 8;
      }
    }
    if (bytes > kMaxPrivateMemoryBytes) {
      errors += "error: kernel '" + kernel + "' needs " + std::to_string(bytes) +
                " bytes of private memory per work-item; the host device allows " +
                std::to_string(kMaxPrivateMemoryBytes) + "\n";
    }
    // The optimiser may have turned the record into a zeroinitializer: read it element-wise.
    llvm::Constant* record = info.getInitializer();
    auto* type = llvm::cast<llvm::StructType>(record->getType());
    std::vector<llvm::Constant*> fields;
    for (unsigned i = 0; i < type->getNumElements(); ++i) fields.push_back(record->getAggregateElement(i));
    fields[3] = llvm::ConstantInt::get(llvm::Type::getInt64Ty(module.getContext()), bytes);
    info.setInitializer(llvm::ConstantStruct::get(type, fields));
  }
  return errors;
}

std::string lower_work_groups(llvm::Module& module, bool vectorize) {
  if (std::string error = find_recursion(module); !error.empty()) return error;
  if (vectorize) drop_volatile_from_private_variables(module);

  std::vector<llvm::Function*> kernels = prepare_kernels_for_inlining(module);

  std::vector<std::pair<std::string, llvm::Function*>> work_items;
  std::vector<unsigned> rows;
  for (llvm::Function* kernel : kernels) {
    work_items.emplace_back(kernel->getName().str(), make_work_item_function(*kernel));
    rows.push_back(widest_row(*kernel));
  }
  for (llvm::Function* kernel : kernels) kernel->setLinkage(llvm::GlobalValue::InternalLinkage);
  run_always_inliner(module);

  llvm::StructType* context_type = work_group_context_type(module.getContext());
  std::vector<PrintfCallSite> printf_sites;
  for (size_t k = 0; k < work_items.size(); ++k) {
    const std::string& name = work_items[k].first;
    llvm::Function* work_item = work_items[k].second;
    std::string error;
    auto printf_buffer = [&](llvm::Instruction& call) -> llvm::Value* {
      llvm::IRBuilder<> b(&call);
      return load_context_field(b, context_type, work_item->getArg(1), kPrintfBuffer, b.getPtrTy());
    };
    KernelFacts facts;
    facts.uses_printf = lower_printf(*work_item, printf_buffer, printf_sites, error);
    if (!error.empty()) return error;
    const bool has_barriers = lower_work_item_builtins(*work_item, context_type);
    // The host's collective functions rest on the group's work-items running one after the
    // other (libclc-builtins/src/work_group_host.cl): their vector form would not.
    const bool collective = uses_work_group_scratch(*work_item);
    facts.local_bytes = lower_local_variables(*work_item, context_type);
    WorkItemForms forms{work_item, nullptr, 1};
    if (vectorize) {
      simplify_function(*work_item, [](llvm::Function& f) { widen_signed_index_arithmetic(f); });
      if (collective) debug_log("host kernel " + name + " runs one work-item at a time: it calls work-group collective functions");
      if (has_barriers) {
        // Interleaved only for a kernel that may get a vector form: splitting again costs build time.
        const std::string obstacle = collective ? std::string() : vectorization_obstacle(*work_item);
        if (!obstacle.empty()) debug_log("host kernel " + name + " runs one work-item at a time: " + obstacle);
        const bool scalar = collective || !obstacle.empty();
        const StateLayout layout = scalar ? StateLayout::ByWorkItem : StateLayout::Interleaved;
        if (split_into_regions(forms, facts, context_type, name, layout) && !scalar) {
          vectorize_forms(forms, name, rows[k]);
          // Without a vector form, the regions keep each work-item's values together.
          if (!forms.vector) split_into_regions(forms, facts, context_type, name, StateLayout::ByWorkItem);
        }
      } else if (!collective) {
        vectorize_forms(forms, name, rows[k]);
      }
    }
    facts.runs_as_fibers = has_barriers && !forms.regions;
    if (forms.original) forms.original->eraseFromParent();
    if (forms.vector) facts.vector_width = forms.wide ? forms.wide_width : forms.width;
    if (!facts.runs_as_fibers) make_work_group_function(forms, context_type, name);
    add_info_record(module, name, facts);
  }
  add_printf_table(module, printf_sites);
  run_always_inliner(module);
  return {};
}

}  // namespace cucl::backend::host

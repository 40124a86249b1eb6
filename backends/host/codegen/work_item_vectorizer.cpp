#include "backends/host/codegen/work_item_vectorizer.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

#include <functional>
#include <limits>
#include <optional>
#include <vector>

#include "backends/host/codegen/masked_branches.h"
#include "backends/host/codegen/masked_loops.h"
#include "backends/host/codegen/register_pressure.h"
#include "backends/host/codegen/sleef_vector_calls.h"
#include "backends/host/codegen/target_machine.h"
#include "backends/host/codegen/work_item_divergence.h"
#include "backends/host/codegen/work_item_resume.h"
#include "backends/host/work_group_abi.h"

namespace cucl::backend::host {
namespace {

constexpr unsigned kLaneIndexParameter = 2;  // (args, context, x, y, z)
constexpr unsigned kMaxGrowth = 3;
// Branches where lanes may part times the work-item's instructions: past this the resume
// function's liveness walks and SSA repair take seconds (the half-precision math builtins
// inlined: 928 such branches in 9303 instructions), and such kernels gain little.
constexpr uint64_t kMostResumeWork = 200000;

// A varying integer or pointer that steps by a constant from lane 0's value (an index, an
// address): the vector form computes lane 0's value alone, as a scalar, and makes the vector
// of every lane's only where one is read, so that none is held across loops and blocks.
bool carried_as_lane_zero(const llvm::Instruction& instruction, WorkItemDivergence& divergence) {
  if (!divergence.varying(&instruction) || WorkItemDivergence::per_lane(instruction)) return false;
  if (!llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::GetElementPtrInst, llvm::SelectInst, llvm::PHINode>(instruction)) {
    return false;
  }
  if (!instruction.getType()->isIntegerTy() && !instruction.getType()->isPointerTy()) return false;
  if (llvm::any_of(instruction.operands(), [](const llvm::Use& use) { return use->getType()->isVectorTy(); })) return false;
  const LaneStride stride = divergence.stride(&instruction);
  return stride.affine && stride.proven;
}

// Writes the vector form of `source` into the empty function `target`, block by block in
// reverse post-order, so that every operand is made before its users (phis last).
class Widener {
 public:
  Widener(llvm::Function& source, WorkItemDivergence& divergence, const ResumeFunction& resume,
          const std::vector<MaskedLoop>& masked, const std::vector<MaskedBranch>& branches, unsigned width,
          llvm::Function& target)
      : source_(source), divergence_(divergence), resume_(resume), width_(width), target_(target), b_(source.getContext()),
        layout_(source.getParent()->getDataLayout()), loops_(masked.size()), branches_(branches),
        branch_states_(branches.size()) {
    for (unsigned k = 0; k < resume.points.size(); ++k) points_[resume.points[k].block] = k;
    for (unsigned k = 0; k < masked.size(); ++k) {
      LoopState& state = loops_[k];
      state.loop = &masked[k];
      for (const llvm::BasicBlock* block : masked[k].loop->blocks()) masked_loop_of_[block] = k;
      state.mask.type = vector_of(b_.getInt1Ty());
      for (llvm::Instruction* value : masked[k].live_out) state.kept[value].type = vector_of(value->getType());
      for (llvm::PHINode& phi : masked[k].exit->phis()) state.kept[&phi].type = vector_of(phi.getType());
    }
    for (unsigned k = 0; k < branches.size(); ++k) {
      branch_at_head_[branches[k].head] = k;
      for (unsigned i = 0; i < branches[k].sides.size(); ++i) side_of_[branches[k].sides[i].block] = {k, i};
      branches_joining_[branches[k].join].push_back(k);
    }
  }

  void run() {
    for (unsigned i = 0; i < source_.arg_size(); ++i) scalars_[source_.getArg(i)] = target_.getArg(i);
    llvm::ReversePostOrderTraversal<llvm::Function*> order(&source_);
    for (llvm::BasicBlock* block : order) {
      blocks_[block] = llvm::BasicBlock::Create(source_.getContext(), block->getName(), &target_);
    }
    b_.SetInsertPoint(blocks_[&source_.getEntryBlock()]);
    if (!resume_.points.empty()) make_state_buffer();
    llvm::Value* first = target_.getArg(kLaneIndexParameter);
    lane_zero_[source_.getArg(kLaneIndexParameter)] = first;
    for (llvm::BasicBlock* block : order) {
      current_ = block;
      b_.SetInsertPoint(blocks_[block]);
      for (llvm::Instruction& instruction : *block) emit(instruction);
      ends_[block] = b_.GetInsertBlock();
      if (emitted_ > budget_) return;  // too large already: left unfinished, for the caller to drop
    }
    for (unsigned k = 0; k < branches_.size(); ++k) finish_masked_branch(k);
    for (auto [source_phi, target_phi] : phis_) fill(*source_phi, *target_phi);
    for (LoopState& state : loops_) resolve(state);
  }

  // What the vector form does as vectors, and what it still does lane by lane (weighted by
  // the shuffles that take a lane's vector operands out and put its vector result in).
  unsigned widened() const { return widened_; }
  unsigned per_lane() const { return per_lane_; }
  // Stops writing the form once it has about this many instructions (each lane-by-lane
  // instruction counts `width` times): run() then leaves it unfinished and finished() false.
  void limit_size(unsigned instructions) { budget_ = instructions; }
  bool finished() const { return emitted_ <= budget_; }
  // The whole form's size, as far as the part written tells.
  unsigned estimated_size() const {
    const uint64_t source = source_.getInstructionCount();
    return static_cast<unsigned>(std::min<uint64_t>(uint64_t{emitted_} * source / std::max(written_, 1u), ~0u));
  }

  // A varying value of a vector type <N x E> is one vector of width * N elements, lane by
  // lane: lane l's elements are l * N .. l * N + N - 1.
  static unsigned elements(const llvm::Type* type) {
    auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    return vector ? vector->getNumElements() : 1;
  }

 private:
  llvm::Type* vector_of(llvm::Type* type) const { return lanes_type(type, width_); }

  // A shuffle mask of width * n entries, entry i being `pick(lane, element)`.
  llvm::SmallVector<int, 64> lane_mask(unsigned n, const std::function<int(unsigned, unsigned)>& pick) const {
    llvm::SmallVector<int, 64> mask;
    for (unsigned l = 0; l < width_; ++l) {
      for (unsigned e = 0; e < n; ++e) mask.push_back(pick(l, e));
    }
    return mask;
  }

  llvm::Value* splat(llvm::Value* value) {
    if (!value->getType()->isVectorTy()) return b_.CreateVectorSplat(width_, value);
    return b_.CreateShuffleVector(value, lane_mask(elements(value->getType()), [](unsigned, unsigned e) { return int(e); }));
  }

  // Each lane's one value repeated n times: a lane's condition or address for its n elements.
  llvm::Value* repeat_lanes(llvm::Value* lanes, unsigned n) {
    if (n == 1) return lanes;
    return b_.CreateShuffleVector(lanes, lane_mask(n, [](unsigned l, unsigned) { return int(l); }));
  }

  llvm::Value* scalar(llvm::Value* value) const {
    if (!llvm::isa<llvm::Instruction, llvm::Argument>(value)) return value;  // constants, metadata, asm
    return scalars_.lookup(value);
  }

  llvm::Value* vector(llvm::Value* value) {
    if (divergence_.varying(value)) return lanes_of(value);
    return splat(scalar(value));
  }

  llvm::Value* lane(llvm::Value* value, unsigned lane) {
    if (!divergence_.varying(value)) return scalar(value);
    if (llvm::Value* first = lane_zero_here(value)) return stepped(first, lane_offset(divergence_.stride(value).step, lane));
    llvm::Value* lanes = lanes_of(value);
    const unsigned n = elements(value->getType());
    if (!value->getType()->isVectorTy()) return b_.CreateExtractElement(lanes, b_.getInt64(lane));
    llvm::SmallVector<int, 16> mask;
    for (unsigned e = 0; e < n; ++e) mask.push_back(int(lane * n + e));
    return b_.CreateShuffleVector(lanes, mask);
  }

  // `lanes` with lane `lane` replaced by `value` (of the source's type).
  llvm::Value* with_lane(llvm::Value* lanes, llvm::Value* value, unsigned lane) {
    if (!value->getType()->isVectorTy()) return b_.CreateInsertElement(lanes, value, b_.getInt64(lane));
    const unsigned n = elements(value->getType());
    llvm::Value* spread = b_.CreateShuffleVector(value, lane_mask(n, [&](unsigned l, unsigned e) { return l == lane ? int(e) : -1; }));
    return b_.CreateShuffleVector(lanes, spread, lane_mask(n, [&](unsigned l, unsigned e) {
      return int(l == lane ? width_ * n + l * n + e : l * n + e);
    }));
  }

  bool reads_varying(const llvm::Instruction& instruction) const {
    for (const llvm::Use& operand : instruction.operands()) {
      if (divergence_.varying(operand.get())) return true;
    }
    return false;
  }

  void emit(llvm::Instruction& instruction) {
    ++emitted_;
    ++written_;
    if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction); intrinsic && intrinsic->isAssumeLikeIntrinsic()) {
      return;  // debug records, lifetimes and assumptions of one work-item say nothing of a vector
    }
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
      const bool as_vector = divergence_.varying(phi) && !carried_as_lane_zero(*phi, divergence_);
      llvm::PHINode* copy = b_.CreatePHI(as_vector ? vector_of(phi->getType()) : phi->getType(),
                                         phi->getNumIncomingValues(), phi->getName());
      if (!divergence_.varying(phi)) {
        scalars_[phi] = copy;
      } else {
        (as_vector ? vectors_ : lane_zero_)[phi] = copy;
      }
      phis_.emplace_back(phi, copy);
    } else if (instruction.isTerminator()) {
      emit_terminator(instruction);
    } else if (WorkItemDivergence::per_lane(instruction)) {
      once_per_lane(instruction);
    } else if (!reads_varying(instruction)) {
      llvm::Instruction* copy = instruction.clone();
      for (unsigned i = 0; i < copy->getNumOperands(); ++i) copy->setOperand(i, scalar(instruction.getOperand(i)));
      copy->setDebugLoc(llvm::DebugLoc());
      b_.Insert(copy, instruction.getName());
      scalars_[&instruction] = copy;
      // Varying only because lanes leave a masked loop at different times (masked_loops.h):
      // the same in every lane still inside.
      if (divergence_.varying(&instruction)) vectors_[&instruction] = splat(copy);
    } else {
      widen(instruction);
    }
  }

  // One buffer for the live values handed to the resume function, a lane at a time.
  void make_state_buffer() {
    uint64_t bytes = 1;
    for (const ResumePoint& point : resume_.points) bytes = std::max<uint64_t>(bytes, layout_.getTypeAllocSize(point.state));
    llvm::AllocaInst* buffer = b_.CreateAlloca(b_.getInt8Ty(), b_.getInt64(bytes), "resume_state");
    buffer->setAlignment(llvm::Align(64));
    state_ = buffer;
  }

  // Lanes that go different ways at `instruction` finish the work-item one by one in the
  // resume function; when they all go one way (`agreed`), the vector carries on that way.
  void unless_lanes_part(llvm::Instruction& instruction, llvm::Value* agreed) {
    llvm::LLVMContext& c = source_.getContext();
    auto* part = llvm::BasicBlock::Create(c, "lanes_part", &target_);
    auto* handing = llvm::BasicBlock::Create(c, "hand_over", &target_);
    auto* handed = llvm::BasicBlock::Create(c, "handed_over", &target_);
    auto* together = llvm::BasicBlock::Create(c, "lanes_agree", &target_);
    b_.CreateCondBr(agreed, together, part, llvm::MDBuilder(c).createBranchWeights(64, 1));
    b_.SetInsertPoint(part);
    const unsigned k = points_.lookup(instruction.getParent());
    const ResumePoint& point = resume_.points[k];
    for (unsigned i = 0; i < point.live.size(); ++i) {
      llvm::Value* live = point.live[i];
      llvm::Value* value = divergence_.varying(live) ? vector(live) : scalar(live);
      llvm::Type* kept = kept_type(live->getType());
      if (kept != live->getType()) value = b_.CreateZExt(value, divergence_.varying(live) ? lanes_type(kept, width_) : kept);
      b_.CreateAlignedStore(value, b_.CreateStructGEP(point.state, state_, i), llvm::Align(1));
    }
    b_.CreateBr(handing);
    b_.SetInsertPoint(handing);
    llvm::PHINode* lane = b_.CreatePHI(b_.getInt64Ty(), 2, "lane");
    lane->addIncoming(b_.getInt64(0), part);
    llvm::Type* result_type = target_.getReturnType();
    llvm::PHINode* largest = nullptr;
    if (!result_type->isVoidTy()) {
      largest = b_.CreatePHI(result_type, 2, "largest_result");
      largest->addIncoming(llvm::ConstantInt::get(result_type, 0), part);
    }
    std::vector<llvm::Value*> arguments;
    for (llvm::Argument& argument : target_.args()) arguments.push_back(&argument);
    arguments[kLaneIndexParameter] = b_.CreateAdd(arguments[kLaneIndexParameter], lane);
    arguments.push_back(b_.getInt32(k));
    arguments.push_back(state_);
    arguments.push_back(lane);
    llvm::CallInst* call = b_.CreateCall(resume_.function, arguments);
    call->setCallingConv(llvm::CallingConv::C);
    llvm::Value* next = b_.CreateAdd(lane, b_.getInt64(1));
    lane->addIncoming(next, handing);
    llvm::Value* result = nullptr;
    if (largest) {
      result = b_.CreateBinaryIntrinsic(llvm::Intrinsic::umax, largest, call);
      largest->addIncoming(result, handing);
    }
    b_.CreateCondBr(b_.CreateICmpULT(next, b_.getInt64(width_)), handing, handed);
    b_.SetInsertPoint(handed);
    if (result) {
      b_.CreateRet(result);
    } else {
      b_.CreateRetVoid();
    }
    b_.SetInsertPoint(together);
  }

  void emit_divergent_terminator(llvm::Instruction& instruction) {
    if (auto* branch = llvm::dyn_cast<llvm::BranchInst>(&instruction)) {
      llvm::Value* conditions = vector(branch->getCondition());
      llvm::Value* all = b_.CreateAndReduce(conditions);
      llvm::Value* none = b_.CreateNot(b_.CreateOrReduce(conditions));
      unless_lanes_part(instruction, b_.CreateOr(all, none));
      b_.CreateCondBr(all, blocks_.lookup(branch->getSuccessor(0)), blocks_.lookup(branch->getSuccessor(1)));
      return;
    }
    auto* choice = llvm::cast<llvm::SwitchInst>(&instruction);
    llvm::Value* values = vector(choice->getCondition());
    llvm::Value* first = b_.CreateExtractElement(values, b_.getInt64(0));
    unless_lanes_part(instruction, b_.CreateAndReduce(b_.CreateICmpEQ(values, splat(first))));
    llvm::SwitchInst* copy = b_.CreateSwitch(first, blocks_.lookup(choice->getDefaultDest()), choice->getNumCases());
    for (const auto& arm : choice->cases()) copy->addCase(arm.getCaseValue(), blocks_.lookup(arm.getCaseSuccessor()));
  }

  // A work-item function that returns a number (barrier_regions.h) returns, as a vector,
  // the largest of its lanes'.
  void emit_return(llvm::ReturnInst& ret) {
    llvm::Value* value = ret.getReturnValue();
    if (!value) {
      b_.CreateRetVoid();
    } else if (divergence_.varying(value)) {
      b_.CreateRet(b_.CreateUnaryIntrinsic(llvm::Intrinsic::vector_reduce_umax, vector(value)));
    } else {
      b_.CreateRet(scalar(value));
    }
  }

  void emit_terminator(llvm::Instruction& instruction) {
    if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(&instruction)) {
      emit_return(*ret);
      return;
    }
    if (auto found = branch_at_head_.find(instruction.getParent()); found != branch_at_head_.end()) {
      emit_masked_branch(found->second, llvm::cast<llvm::BranchInst>(instruction));
      return;
    }
    if (auto found = side_of_.find(instruction.getParent()); found != side_of_.end()) {
      leave_masked_side(found->second.first, found->second.second);
      return;
    }
    if (auto found = masked_loop_of_.find(instruction.getParent()); found != masked_loop_of_.end()) {
      LoopState& state = loops_[found->second];
      if (state.loop->loop->isLoopExiting(instruction.getParent())) {
        emit_masked_exit(state, llvm::cast<llvm::BranchInst>(instruction));
        return;
      }
    }
    if (reads_varying(instruction)) {
      emit_divergent_terminator(instruction);
      return;
    }
    if (auto* branch = llvm::dyn_cast<llvm::BranchInst>(&instruction)) {
      if (branch->isUnconditional()) {
        b_.CreateBr(blocks_.lookup(branch->getSuccessor(0)));
      } else {
        b_.CreateCondBr(scalar(branch->getCondition()), blocks_.lookup(branch->getSuccessor(0)),
                        blocks_.lookup(branch->getSuccessor(1)));
      }
    } else if (auto* choice = llvm::dyn_cast<llvm::SwitchInst>(&instruction)) {
      llvm::SwitchInst* copy =
          b_.CreateSwitch(scalar(choice->getCondition()), blocks_.lookup(choice->getDefaultDest()), choice->getNumCases());
      for (const auto& arm : choice->cases()) copy->addCase(arm.getCaseValue(), blocks_.lookup(arm.getCaseSuccessor()));
    } else {
      b_.CreateUnreachable();
    }
  }

  void fill(llvm::PHINode& source_phi, llvm::PHINode& target_phi) {
    const LoopState* left = nullptr;  // the masked loop this phi's block is the exit of
    for (const LoopState& state : loops_) {
      if (source_phi.getParent() == state.loop->exit) left = &state;
    }
    if (left) {
      for (auto [exiting, landing] : left->landings) target_phi.addIncoming(left->leaving_values.lookup({&source_phi, exiting}), landing);
    }
    const bool varying = divergence_.varying(&source_phi);
    // Where masked branches join, from the last step of each (finish_masked_branch).
    const std::vector<unsigned> joining = branches_joining_.lookup(source_phi.getParent());
    auto from_masked_branch = [&](const llvm::BasicBlock* block) {
      return llvm::any_of(joining, [&](unsigned k) {
        auto side = side_of_.find(block);
        return block == branches_[k].head || (side != side_of_.end() && side->second.first == k);
      });
    };
    for (unsigned k : joining) {
      if (branch_states_[k].last_stage) target_phi.addIncoming(branch_states_[k].joined.lookup(&source_phi), branch_states_[k].last_stage);
    }
    for (unsigned i = 0; i < source_phi.getNumIncomingValues(); ++i) {
      if (left && left->loop->loop->contains(source_phi.getIncomingBlock(i))) continue;  // by a landing above
      if (from_masked_branch(source_phi.getIncomingBlock(i))) continue;
      llvm::BasicBlock* end = ends_.lookup(source_phi.getIncomingBlock(i));
      if (!end) continue;  // from a block that never runs
      current_ = source_phi.getIncomingBlock(i);
      b_.SetInsertPoint(end->getTerminator());
      llvm::Value* value = source_phi.getIncomingValue(i);
      llvm::Value* incoming = scalar(value);
      if (varying) incoming = lane_zero_.lookup(&source_phi) == &target_phi ? lane(value, 0) : vector(value);
      target_phi.addIncoming(incoming, end);
    }
  }

  // Runs `instruction` for lane 0, 1, ... in turn; a result is gathered into a vector.
  void once_per_lane(llvm::Instruction& instruction) {
    per_lane_ += 1;
    emitted_ += 2 * width_;  // a copy per lane and the moving of its result into the vector
    for (const llvm::Value* value : instruction.operand_values()) per_lane_ += value->getType()->isVectorTy() ? 2 : 0;
    per_lane_ += instruction.getType()->isVectorTy() ? 2 : 0;
    llvm::Value* result = instruction.getType()->isVoidTy() ? nullptr : llvm::PoisonValue::get(vector_of(instruction.getType()));
    for (unsigned l = 0; l < width_; ++l) {
      llvm::Instruction* copy = instruction.clone();
      for (unsigned i = 0; i < copy->getNumOperands(); ++i) copy->setOperand(i, lane(instruction.getOperand(i), l));
      copy->setDebugLoc(llvm::DebugLoc());
      b_.Insert(copy);
      if (result) result = with_lane(result, copy, l);
    }
    if (result) vectors_[&instruction] = result;
  }

  void widen(llvm::Instruction& instruction) {
    if (carried_as_lane_zero(instruction, divergence_)) {
      llvm::Instruction* first = instruction.clone();
      for (unsigned i = 0; i < first->getNumOperands(); ++i) first->setOperand(i, lane(instruction.getOperand(i), 0));
      first->setDebugLoc(llvm::DebugLoc());
      b_.Insert(first, instruction.getName());
      lane_zero_[&instruction] = first;
      ++widened_;
      return;
    }
    llvm::Value* result = nullptr;
    if (auto* binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
      result = b_.CreateBinOp(binary->getOpcode(), vector(binary->getOperand(0)), vector(binary->getOperand(1)));
    } else if (auto* unary = llvm::dyn_cast<llvm::UnaryOperator>(&instruction)) {
      result = b_.CreateUnOp(unary->getOpcode(), vector(unary->getOperand(0)));
    } else if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
      result = b_.CreateCast(cast->getOpcode(), vector(cast->getOperand(0)), vector_of(cast->getType()));
    } else if (auto* compare = llvm::dyn_cast<llvm::CmpInst>(&instruction)) {
      result = b_.CreateCmp(compare->getPredicate(), vector(compare->getOperand(0)), vector(compare->getOperand(1)));
    } else if (auto* select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
      llvm::Value* condition = select->getCondition();
      llvm::Value* chosen = scalar(condition);
      if (divergence_.varying(condition)) {
        chosen = vector(condition);
        if (!condition->getType()->isVectorTy()) chosen = repeat_lanes(chosen, elements(select->getType()));
      }
      result = b_.CreateSelect(chosen, vector(select->getTrueValue()), vector(select->getFalseValue()));
    } else if (auto* extract = llvm::dyn_cast<llvm::ExtractElementInst>(&instruction)) {
      result = widen_extract(*extract);
    } else if (auto* insert = llvm::dyn_cast<llvm::InsertElementInst>(&instruction)) {
      result = widen_insert(*insert);
    } else if (auto* shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&instruction)) {
      result = widen_shuffle(*shuffle);
    } else if (auto* freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction)) {
      result = b_.CreateFreeze(vector(freeze->getOperand(0)));
    } else if (auto* address = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction)) {
      result = widen_address(*address);
    } else if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      result = widen_load(*load);
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      widen_store(*store);
      ++widened_;
      return;
    } else if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
      result = widen_intrinsic(*intrinsic);
    } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction)) {
      result = widen_library_call(*call);
    }
    if (!result) {
      once_per_lane(instruction);
      return;
    }
    ++widened_;
    if (auto* made = llvm::dyn_cast<llvm::Instruction>(result)) {
      if (made->getOpcode() == instruction.getOpcode()) made->copyIRFlags(&instruction);
      made->setName(instruction.getName());
    }
    vectors_[&instruction] = result;
  }

  // Element c of every lane's vector. A varying element number goes lane by lane.
  llvm::Value* widen_extract(llvm::ExtractElementInst& extract) {
    auto* index = llvm::dyn_cast<llvm::ConstantInt>(extract.getIndexOperand());
    const unsigned n = elements(extract.getVectorOperandType());
    if (!index || index->getZExtValue() >= n) return nullptr;
    const int c = static_cast<int>(index->getZExtValue());
    llvm::SmallVector<int, 16> mask;
    for (unsigned l = 0; l < width_; ++l) mask.push_back(int(l * n) + c);
    return b_.CreateShuffleVector(vector(extract.getVectorOperand()), mask);
  }

  llvm::Value* widen_insert(llvm::InsertElementInst& insert) {
    auto* index = llvm::dyn_cast<llvm::ConstantInt>(insert.getOperand(2));
    const unsigned n = elements(insert.getType());
    if (!index || index->getZExtValue() >= n) return nullptr;
    const unsigned c = static_cast<unsigned>(index->getZExtValue());
    llvm::Value* values = vector(insert.getOperand(1));  // one per lane
    llvm::Value* spread = repeat_lanes(values, n);
    return b_.CreateShuffleVector(vector(insert.getOperand(0)), spread, lane_mask(n, [&](unsigned l, unsigned e) {
      return int(e == c ? width_ * n + l * n + e : l * n + e);
    }));
  }

  llvm::Value* widen_shuffle(llvm::ShuffleVectorInst& shuffle) {
    const unsigned n = elements(shuffle.getOperand(0)->getType());
    llvm::ArrayRef<int> mask = shuffle.getShuffleMask();
    llvm::SmallVector<int, 64> lanes_mask;
    for (unsigned l = 0; l < width_; ++l) {
      for (int m : mask) {
        if (m < 0) {
          lanes_mask.push_back(-1);
        } else if (static_cast<unsigned>(m) < n) {
          lanes_mask.push_back(int(l * n) + m);
        } else {
          lanes_mask.push_back(int(width_ * n + l * n) + m - int(n));
        }
      }
    }
    return b_.CreateShuffleVector(vector(shuffle.getOperand(0)), vector(shuffle.getOperand(1)), lanes_mask);
  }

  // The address of each element of each lane's access, for a gather or scatter of vectors.
  llvm::Value* element_addresses(llvm::Value* pointers, llvm::Type* type) {
    const unsigned n = elements(type);
    if (n == 1) return pointers;
    llvm::Type* element = type->getScalarType();
    std::vector<llvm::Constant*> offsets;
    for (unsigned l = 0; l < width_; ++l) {
      for (unsigned e = 0; e < n; ++e) offsets.push_back(b_.getInt64(e));
    }
    return b_.CreateGEP(element, repeat_lanes(pointers, n), llvm::ConstantVector::get(offsets));
  }

  llvm::Align element_alignment(llvm::Align access, llvm::Type* type) const {
    return llvm::commonAlignment(access, layout_.getTypeAllocSize(type->getScalarType()).getFixedSize());
  }

  llvm::Value* widen_address(llvm::GetElementPtrInst& address) {
    auto pick = [&](llvm::Value* value) { return divergence_.varying(value) ? vector(value) : scalar(value); };
    std::vector<llvm::Value*> indices;
    for (llvm::Use& index : address.indices()) indices.push_back(pick(index.get()));
    return b_.CreateGEP(address.getSourceElementType(), pick(address.getPointerOperand()), indices, "",
                        address.isInBounds());
  }

  // The size of one lane's access when lanes touch consecutive memory, else 0.
  // Where consecutiveness rests on 32-bit index arithmetic not having wrapped between the
  // lanes: the first and last lane's addresses decide at run time between `consecutive`
  // (given the first address) and `scattered`.
  template <class Consecutive, class Scattered>
  llvm::Value* checked(llvm::Value* pointers, uint64_t bytes, Consecutive consecutive, Scattered scattered) {
    llvm::Value* first = b_.CreateExtractElement(pointers, b_.getInt64(0));
    llvm::Value* last = b_.CreateExtractElement(pointers, b_.getInt64(width_ - 1));
    llvm::Value* distance = b_.CreateSub(b_.CreatePtrToInt(last, b_.getInt64Ty()), b_.CreatePtrToInt(first, b_.getInt64Ty()));
    llvm::Value* together = b_.CreateICmpEQ(distance, b_.getInt64((width_ - 1) * bytes));
    llvm::LLVMContext& c = source_.getContext();
    auto* fast = llvm::BasicBlock::Create(c, "consecutive", &target_);
    auto* slow = llvm::BasicBlock::Create(c, "scattered", &target_);
    auto* join = llvm::BasicBlock::Create(c, "accessed", &target_);
    b_.CreateCondBr(together, fast, slow);
    b_.SetInsertPoint(fast);
    llvm::Value* fast_value = consecutive(first);
    b_.CreateBr(join);
    b_.SetInsertPoint(slow);
    llvm::Value* slow_value = scattered();
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    if (!fast_value) return nullptr;
    llvm::PHINode* merged = b_.CreatePHI(fast_value->getType(), 2);
    merged->addIncoming(fast_value, fast);
    merged->addIncoming(slow_value, slow);
    return merged;
  }

  // What still holds of a vector or gather access that a scalar access said of itself:
  // aliasing (type-based, scopes) and non-temporality, not value ranges or alignment facts.
  static void keep_access_facts(const llvm::Instruction& from, llvm::Value* to) {
    auto* access = llvm::dyn_cast_or_null<llvm::Instruction>(to);
    if (!access) return;
    for (unsigned kind : {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope, llvm::LLVMContext::MD_noalias,
                          llvm::LLVMContext::MD_nontemporal, llvm::LLVMContext::MD_invariant_load}) {
      if (llvm::MDNode* fact = from.getMetadata(kind)) access->setMetadata(kind, fact);
    }
  }

  llvm::Value* widen_load(llvm::LoadInst& load) {
    if (!load.isSimple()) return nullptr;
    llvm::Type* type = vector_of(load.getType());
    const LaneStride stride = divergence_.stride(load.getPointerOperand());
    // Lanes that have left a masked loop, or do not take a masked branch, may hold any
    // address: they load nothing.
    llvm::Value* mask = lanes_running(Widener::elements(load.getType()));
    auto gather = [&]() -> llvm::Value* {
      if (!mask && Widener::elements(load.getType()) > 1) return each_lane_loads(load);
      llvm::Value* pointers = vector(load.getPointerOperand());
      llvm::Value* gathered = b_.CreateMaskedGather(type, element_addresses(pointers, load.getType()),
                                                    element_alignment(load.getAlign(), load.getType()), mask);
      keep_access_facts(load, gathered);
      return gathered;
    };
    const uint64_t bytes = consecutive_bytes(layout_, load.getType(), stride);
    if (!bytes) return gather();
    auto vector_load = [&](llvm::Value* first) -> llvm::Value* {
      llvm::Value* loaded = nullptr;
      if (mask) {
        loaded = b_.CreateMaskedLoad(type, first, load.getAlign(), mask);
      } else {
        loaded = b_.CreateAlignedLoad(type, first, load.getAlign());
      }
      keep_access_facts(load, loaded);
      return loaded;
    };
    if (stride.proven) return vector_load(lane(load.getPointerOperand(), 0));
    return checked(vector(load.getPointerOperand()), bytes, vector_load, gather);
  }

  // OpenCL vectors that are not consecutive between lanes move a lane's vector at a time:
  // `width` loads or stores of N elements are much cheaper than N gathers or scatters of
  // `width` elements (scatters most: 4 float4 scatters of 8 lanes take about 4x as long as
  // 8 16-byte stores on the H100 machine's Xeon and on Zen 4).
  llvm::Value* each_lane_loads(llvm::LoadInst& load) {
    std::vector<llvm::Value*> loaded;
    for (unsigned l = 0; l < width_; ++l) {
      llvm::LoadInst* one = b_.CreateAlignedLoad(load.getType(), lane(load.getPointerOperand(), l), load.getAlign());
      keep_access_facts(load, one);
      loaded.push_back(one);
    }
    return llvm::concatenateVectors(b_, loaded);
  }

  void each_lane_stores(llvm::StoreInst& store) {
    for (unsigned l = 0; l < width_; ++l) {
      keep_access_facts(store, b_.CreateAlignedStore(lane(store.getValueOperand(), l), lane(store.getPointerOperand(), l),
                                                     store.getAlign()));
    }
  }

  void widen_store(llvm::StoreInst& store) {
    llvm::Value* pointer = store.getPointerOperand();
    llvm::Value* value = store.getValueOperand();
    if (!divergence_.varying(pointer)) {
      // Every lane writes the same place; the last one's value is what a loop over them leaves.
      keep_access_facts(store, b_.CreateAlignedStore(lane(value, width_ - 1), scalar(pointer), store.getAlign()));
      return;
    }
    llvm::Value* values = vector(value);
    const LaneStride stride = divergence_.stride(pointer);
    // In a masked branch's body, only the lanes that go there write (masked_branches.h).
    llvm::Value* mask = lanes_running(Widener::elements(value->getType()));
    auto scatter = [&]() -> llvm::Value* {
      if (!mask && Widener::elements(value->getType()) > 1) {
        each_lane_stores(store);
        return nullptr;
      }
      llvm::Value* pointers = vector(pointer);
      keep_access_facts(store, b_.CreateMaskedScatter(values, element_addresses(pointers, value->getType()),
                                                      element_alignment(store.getAlign(), value->getType()), mask));
      return nullptr;
    };
    const uint64_t bytes = consecutive_bytes(layout_, value->getType(), stride);
    if (!bytes) {
      scatter();
      return;
    }
    auto vector_store = [&](llvm::Value* first) -> llvm::Value* {
      if (mask) {
        keep_access_facts(store, b_.CreateMaskedStore(values, first, store.getAlign(), mask));
      } else {
        keep_access_facts(store, b_.CreateAlignedStore(values, first, store.getAlign()));
      }
      return nullptr;
    };
    if (stride.proven) {
      vector_store(lane(pointer, 0));
    } else {
      checked(vector(pointer), bytes, vector_store, scatter);
    }
  }

  llvm::Value* widen_intrinsic(llvm::IntrinsicInst& call) {
    const llvm::Intrinsic::ID id = call.getIntrinsicID();
    if (!llvm::isTriviallyVectorizable(id)) return nullptr;
    std::vector<llvm::Type*> overloads = {vector_of(call.getType())};
    std::vector<llvm::Value*> arguments;
    for (unsigned i = 0; i < call.arg_size(); ++i) {
      llvm::Value* argument = call.getArgOperand(i);
      if (llvm::isVectorIntrinsicWithScalarOpAtArg(id, i)) {
        if (divergence_.varying(argument)) return nullptr;
        arguments.push_back(scalar(argument));
      } else {
        arguments.push_back(vector(argument));
      }
      if (llvm::isVectorIntrinsicWithOverloadTypeAtArg(id, i)) overloads.push_back(arguments.back()->getType());
    }
    llvm::Function* declaration = llvm::Intrinsic::getDeclaration(target_.getParent(), id, overloads);
    llvm::CallInst* vector_call = b_.CreateCall(declaration, arguments);
    if (llvm::isa<llvm::FPMathOperator>(call)) vector_call->copyFastMathFlags(&call);
    return vector_call;
  }

  // A call of SLEEF's scalar function as calls of its vector form, a register's lanes at a
  // time; null where it has none.
  llvm::Value* widen_library_call(llvm::CallInst& call) {
    const llvm::Function* callee = call.getCalledFunction();
    llvm::Type* type = call.getType();
    if (!callee || !(type->isFloatTy() || type->isDoubleTy())) return nullptr;
    if (llvm::any_of(call.args(), [&](const llvm::Use& argument) { return argument->getType() != type; })) return nullptr;
    const unsigned lanes = std::min(width_, host_register_bytes() / (type->getScalarSizeInBits() / 8));
    const std::string name = sleef_vector_name(callee->getName(), type->isFloatTy(), lanes);
    if (name.empty() || !host_has_function(name)) return nullptr;
    auto* chunk_type = llvm::FixedVectorType::get(type, lanes);
    std::vector<llvm::Type*> parameters(call.arg_size(), chunk_type);
    llvm::FunctionCallee vector_function =
        target_.getParent()->getOrInsertFunction(name, llvm::FunctionType::get(chunk_type, parameters, false));
    if (auto* declared = llvm::dyn_cast<llvm::Function>(vector_function.getCallee())) {
      declared->copyAttributesFrom(callee);
    }
    std::vector<llvm::Value*> arguments;
    for (const llvm::Use& argument : call.args()) arguments.push_back(vector(argument.get()));
    std::vector<llvm::Value*> results;
    for (unsigned first = 0; first < width_; first += lanes) {
      std::vector<llvm::Value*> chunk;
      for (llvm::Value* argument : arguments) chunk.push_back(b_.CreateShuffleVector(argument, consecutive_mask(first, lanes)));
      llvm::CallInst* vector_call = b_.CreateCall(vector_function, chunk);
      vector_call->setCallingConv(call.getCallingConv());
      results.push_back(vector_call);
    }
    return llvm::concatenateVectors(b_, results);
  }

  static llvm::SmallVector<int, 16> consecutive_mask(unsigned first, unsigned count) {
    llvm::SmallVector<int, 16> mask;
    for (unsigned i = 0; i < count; ++i) mask.push_back(static_cast<int>(first + i));
    return mask;
  }

  // A value of a masked loop that SSA construction gives once the whole function is written:
  // defined at the ends of blocks, read through placeholders that resolve() replaces.
  struct LoopVariable {
    llvm::Type* type = nullptr;
    std::vector<std::pair<llvm::BasicBlock*, llvm::Value*>> definitions;
    std::vector<llvm::Instruction*> placeholders;
  };
  struct LoopState {
    const MaskedLoop* loop = nullptr;
    LoopVariable mask;  // the lanes still in the loop
    // Each lane's value of what leaves the loop (a live-out, or an exit phi's), from the
    // iteration it left in.
    llvm::DenseMap<const llvm::Value*, LoopVariable> kept;
    std::vector<std::pair<llvm::BasicBlock*, llvm::BasicBlock*>> landings;  // exiting block -> its way to the exit
    llvm::DenseMap<std::pair<const llvm::PHINode*, const llvm::BasicBlock*>, llvm::Value*> leaving_values;
  };

  llvm::Value* placeholder(LoopVariable& variable) {
    llvm::Instruction* stand_in = llvm::cast<llvm::Instruction>(b_.CreateFreeze(llvm::PoisonValue::get(variable.type)));
    variable.placeholders.push_back(stand_in);
    return stand_in;
  }

  // The masked loop that computed `value` and that the block being written comes after: there
  // each lane holds its value from its last iteration.
  LoopState* loop_left_by(const llvm::Value* value) {
    auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
    if (!instruction) return nullptr;
    for (LoopState& state : loops_) {
      if (state.kept.count(value) && state.loop->loop->contains(instruction) && !state.loop->loop->contains(current_)) {
        return &state;
      }
    }
    return nullptr;
  }

  // Lane 0's value of a value carried as that alone (carried_as_lane_zero), else null.
  llvm::Value* lane_zero_here(const llvm::Value* value) {
    if (loop_left_by(value)) return nullptr;
    return lane_zero_.lookup(value);
  }

  // Lane l's distance from lane 0, modulo 2^64 as the values' own arithmetic wraps (a hash's
  // multiplier times the local id steps by more than 2^63 / width).
  static int64_t lane_offset(int64_t step, unsigned l) {
    return static_cast<int64_t>(static_cast<uint64_t>(step) * uint64_t{l});
  }

  // `first` + `step` (bytes of a pointer).
  llvm::Value* stepped(llvm::Value* first, int64_t step) {
    if (step == 0) return first;
    if (first->getType()->isPointerTy()) return b_.CreateGEP(b_.getInt8Ty(), first, b_.getInt64(step));
    return b_.CreateAdd(first, llvm::ConstantInt::get(first->getType(), step, true));
  }

  // A value's vector; after a masked loop that computed it, each lane's from its last
  // iteration. One carried as lane 0's alone is made where it is read, once per block.
  llvm::Value* lanes_of(llvm::Value* value) {
    if (LoopState* state = loop_left_by(value)) return placeholder(state->kept[value]);
    if (llvm::Value* made = vectors_.lookup(value)) return made;
    llvm::Value* first = lane_zero_.lookup(value);
    if (!first) return nullptr;
    llvm::Value*& lanes = lanes_made_[{value, b_.GetInsertBlock()}];
    if (lanes) return lanes;
    const int64_t step = divergence_.stride(value).step;
    std::vector<llvm::Constant*> steps;
    for (unsigned l = 0; l < width_; ++l) {
      const int64_t offset = lane_offset(step, l);
      steps.push_back(first->getType()->isPointerTy() ? b_.getInt64(offset) : llvm::ConstantInt::get(first->getType(), offset, true));
    }
    llvm::Value* offsets = llvm::ConstantVector::get(steps);
    if (first->getType()->isPointerTy()) {
      lanes = b_.CreateGEP(b_.getInt8Ty(), splat(first), offsets, value->getName() + ".lanes");
    } else {
      lanes = b_.CreateAdd(splat(first), offsets, value->getName() + ".lanes");
    }
    return lanes;
  }

  // The lanes that run the block being written, where not all do: those still in its masked
  // loop, or those that took its masked branch; each repeated for the n elements of an access.
  // Null where all do.
  llvm::Value* lanes_running(unsigned n) {
    auto found = masked_loop_of_.find(current_);
    llvm::Value* lanes = found != masked_loop_of_.end() ? placeholder(loops_[found->second].mask) : body_masks_.lookup(current_);
    return lanes ? repeat_lanes(lanes, n) : nullptr;
  }

  // A masked branch (masked_branches.h) runs as: head -> first side, if any lane goes there
  // -> step 0 -> second side, if any -> step 1 -> join. Each step takes the join's values of
  // its side (poison where the side was skipped: then no lane wants them), and the last one
  // chooses them lane by lane.
  struct BranchState {
    llvm::BasicBlock* head_end = nullptr;
    llvm::BasicBlock* steps[2] = {nullptr, nullptr};
    llvm::BasicBlock* side_ends[2] = {nullptr, nullptr};
    llvm::DenseMap<const llvm::PHINode*, llvm::Value*> side_values[2];  // each join phi's, from that side
    llvm::BasicBlock* last_stage = nullptr;
    llvm::DenseMap<const llvm::PHINode*, llvm::Value*> joined;  // each join phi's, lane by lane
  };

  void emit_masked_branch(unsigned k, llvm::BranchInst& branch) {
    const MaskedBranch& masked = branches_[k];
    BranchState& state = branch_states_[k];
    llvm::Value* conditions = vector(branch.getCondition());
    for (unsigned i = 0; i < masked.sides.size(); ++i) {
      body_masks_[masked.sides[i].block] = masked.sides[i].if_true ? conditions : b_.CreateNot(conditions);
      state.steps[i] = llvm::BasicBlock::Create(source_.getContext(), "masked_side_done", &target_);
    }
    state.head_end = b_.GetInsertBlock();
    b_.CreateCondBr(b_.CreateOrReduce(body_masks_.lookup(masked.sides[0].block)), blocks_.lookup(masked.sides[0].block),
                    state.steps[0]);
  }

  void leave_masked_side(unsigned k, unsigned side) {
    const MaskedBranch& masked = branches_[k];
    BranchState& state = branch_states_[k];
    for (llvm::PHINode& phi : masked.join->phis()) {
      state.side_values[side][&phi] = vector(phi.getIncomingValueForBlock(masked.sides[side].block));
    }
    state.side_ends[side] = b_.GetInsertBlock();
    b_.CreateBr(state.steps[side]);
  }

  void finish_masked_branch(unsigned k) {
    const MaskedBranch& masked = branches_[k];
    BranchState& state = branch_states_[k];
    if (!state.head_end) return;  // the head never runs
    llvm::BasicBlock* skipped_from = state.head_end;
    llvm::DenseMap<const llvm::PHINode*, llvm::Value*> from_side[2];
    for (unsigned i = 0; i < masked.sides.size(); ++i) {
      b_.SetInsertPoint(state.steps[i]);
      for (llvm::PHINode& phi : masked.join->phis()) {
        llvm::Value* value = state.side_values[i].lookup(&phi);
        llvm::PHINode* merged = b_.CreatePHI(value->getType(), 2);
        merged->addIncoming(value, state.side_ends[i]);
        merged->addIncoming(llvm::PoisonValue::get(value->getType()), skipped_from);
        from_side[i][&phi] = merged;
      }
      skipped_from = state.steps[i];
      if (i + 1 < masked.sides.size()) {
        b_.CreateCondBr(b_.CreateOrReduce(body_masks_.lookup(masked.sides[i + 1].block)), blocks_.lookup(masked.sides[i + 1].block), state.steps[i + 1]);
      }
    }
    current_ = masked.head;
    for (llvm::PHINode& phi : masked.join->phis()) {
      llvm::Value* other = masked.sides.size() == 2 ? from_side[1].lookup(&phi) : vector(phi.getIncomingValueForBlock(masked.head));
      llvm::Value* first = repeat_lanes(body_masks_.lookup(masked.sides[0].block), elements(phi.getType()));
      state.joined[&phi] = b_.CreateSelect(first, from_side[0].lookup(&phi), other, phi.getName() + ".joined");
    }
    b_.CreateBr(blocks_.lookup(masked.join));
    state.last_stage = b_.GetInsertBlock();
  }

  // An exit of a masked loop: the lanes whose exit test holds leave, keeping their values; the
  // vector stays in the loop while any lane does.
  void emit_masked_exit(LoopState& state, llvm::BranchInst& branch) {
    const llvm::Loop& loop = *state.loop->loop;
    const bool exit_if_true = !loop.contains(branch.getSuccessor(0));
    llvm::Value* conditions = vector(branch.getCondition());
    llvm::Value* exits = exit_if_true ? conditions : b_.CreateNot(conditions);
    llvm::Value* inside = placeholder(state.mask);
    llvm::Value* leaving = b_.CreateAnd(inside, exits, "leaving");
    llvm::Value* staying = b_.CreateAnd(inside, b_.CreateNot(exits), "staying");
    llvm::BasicBlock* here = b_.GetInsertBlock();
    auto keep = [&](LoopVariable& variable, llvm::Value* source_value, llvm::Type* type) {
      llvm::Value* chosen = b_.CreateSelect(repeat_lanes(leaving, Widener::elements(type)), vector(source_value), placeholder(variable));
      variable.definitions.emplace_back(here, chosen);
      return chosen;
    };
    for (llvm::Instruction* value : state.loop->live_out) keep(state.kept[value], value, value->getType());
    for (llvm::PHINode& phi : state.loop->exit->phis()) {
      state.leaving_values[{&phi, branch.getParent()}] =
          keep(state.kept[&phi], phi.getIncomingValueForBlock(branch.getParent()), phi.getType());
    }
    state.mask.definitions.emplace_back(here, staying);
    auto* landing = llvm::BasicBlock::Create(source_.getContext(), "left_loop", &target_);
    state.landings.emplace_back(branch.getParent(), landing);
    b_.CreateCondBr(b_.CreateOrReduce(staying), blocks_.lookup(branch.getSuccessor(exit_if_true ? 1 : 0)), landing);
    llvm::IRBuilder<>(landing).CreateBr(blocks_.lookup(state.loop->exit));
  }

  // Every lane enters a masked loop (lanes that part before it finish one by one), and
  // carries nothing kept yet.
  void resolve(LoopState& state) {
    auto settle = [&](LoopVariable& variable, llvm::Value* on_entry) {
      llvm::SSAUpdater updater;
      updater.Initialize(variable.type, "masked");
      for (llvm::BasicBlock* entering : state.loop->entering) updater.AddAvailableValue(ends_.lookup(entering), on_entry);
      for (auto [block, value] : variable.definitions) updater.AddAvailableValue(block, value);
      for (llvm::Instruction* stand_in : variable.placeholders) {
        stand_in->replaceAllUsesWith(updater.GetValueInMiddleOfBlock(stand_in->getParent()));
        stand_in->eraseFromParent();
      }
    };
    settle(state.mask, llvm::Constant::getAllOnesValue(state.mask.type));
    for (auto& [value, variable] : state.kept) settle(variable, llvm::PoisonValue::get(variable.type));
  }

  llvm::Function& source_;
  WorkItemDivergence& divergence_;
  const ResumeFunction& resume_;
  llvm::DenseMap<const llvm::BasicBlock*, unsigned> points_;  // block of a divergent branch -> its resume point
  llvm::Value* state_ = nullptr;
  unsigned widened_ = 0;
  unsigned per_lane_ = 0;
  const unsigned width_;
  llvm::Function& target_;
  llvm::IRBuilder<> b_;
  const llvm::DataLayout& layout_;
  llvm::DenseMap<const llvm::Value*, llvm::Value*> scalars_;
  llvm::DenseMap<const llvm::Value*, llvm::Value*> vectors_;
  llvm::DenseMap<const llvm::Value*, llvm::Value*> lane_zero_;  // carried_as_lane_zero -> lane 0's value
  llvm::DenseMap<std::pair<const llvm::Value*, const llvm::BasicBlock*>, llvm::Value*> lanes_made_;  // (value, block) -> its vector
  llvm::DenseMap<const llvm::BasicBlock*, llvm::BasicBlock*> blocks_;  // source block -> its first target block
  llvm::DenseMap<const llvm::BasicBlock*, llvm::BasicBlock*> ends_;    // -> the target block its terminator went to
  std::vector<std::pair<llvm::PHINode*, llvm::PHINode*>> phis_;
  std::vector<LoopState> loops_;
  llvm::DenseMap<const llvm::BasicBlock*, unsigned> masked_loop_of_;  // block -> its masked loop
  const std::vector<MaskedBranch>& branches_;
  std::vector<BranchState> branch_states_;
  llvm::DenseMap<const llvm::BasicBlock*, unsigned> branch_at_head_;                       // head -> its branch
  llvm::DenseMap<const llvm::BasicBlock*, std::pair<unsigned, unsigned>> side_of_;          // side -> (branch, side)
  llvm::DenseMap<const llvm::BasicBlock*, std::vector<unsigned>> branches_joining_;         // join -> branches
  llvm::DenseMap<const llvm::BasicBlock*, llvm::Value*> body_masks_;  // side -> the lanes that take it
  const llvm::BasicBlock* current_ = nullptr;                          // the source block being written
  unsigned emitted_ = 0;                                               // instructions written, about
  unsigned written_ = 0;                                               // of the source's
  unsigned budget_ = std::numeric_limits<unsigned>::max();
};

}  // namespace

namespace {

struct WidthChoice {
  unsigned width = 0;    // 0: none
  std::string obstacle;  // then: why
};

// Whether `use` reads its varying value as a vector (at `divergence`'s lanes): not where
// the value steps by a constant from lane 0's and the user is a consecutive access through
// it or more such arithmetic, which the vector form does on lane 0's value alone.
bool read_as_vector(const llvm::Use& use, WorkItemDivergence& divergence, const llvm::DataLayout& layout) {
  const llvm::Value* value = use.get();
  if (!divergence.varying(value)) return false;
  const LaneStride stride = divergence.stride(value);
  if (!stride.affine || !stride.proven) return true;
  const llvm::User* user = use.getUser();
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user)) {
    return !load->isSimple() || consecutive_bytes(layout, load->getType(), stride) == 0;
  }
  if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
    return !store->isSimple() || use.getOperandNo() != store->getPointerOperandIndex() ||
           consecutive_bytes(layout, store->getValueOperand()->getType(), stride) == 0;
  }
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(user);
  return !instruction || !carried_as_lane_zero(*instruction, divergence);
}

// The widest width up to `width` at which the work-item's OpenCL vectors stay within
// kMaxLaneElements and the values it holds at once fit the vector registers. Leaves
// `divergence` set to that width's lanes.
WidthChoice choose_width(llvm::Function& work_item, WorkItemDivergence& divergence, unsigned width) {
  WidthChoice choice;
  if (!divergence.obstacle().empty()) {
    choice.obstacle = divergence.obstacle();
    return choice;
  }
  unsigned widest = 1;  // elements of the widest OpenCL vector that differs between work-items
  for (llvm::Instruction& instruction : llvm::instructions(work_item)) {
    if (divergence.varying(&instruction)) widest = std::max(widest, Widener::elements(instruction.getType()));
  }
  while (widest > 1 && width > kMinWidth && width * widest > kMaxLaneElements) width /= 2;
  if (widest > 1 && width * widest > kMaxLaneElements) {
    choice.obstacle = "OpenCL vectors of more than " + std::to_string(kMaxLaneElements / kMinWidth) +
                      " elements that differ between work-items";
    return choice;
  }
  const llvm::DataLayout& layout = work_item.getParent()->getDataLayout();
  auto own_bytes_at = [&](unsigned lanes) {
    divergence.set_lanes(lanes);
    return peak_varying_bytes(work_item, [&](const llvm::Use& use) { return read_as_vector(use, divergence, layout); });
  };
  const uint64_t registers = host_vector_register_bytes();
  uint64_t own_bytes = own_bytes_at(width);
  while (width > kMinWidth && own_bytes * width > registers) {
    width /= 2;
    own_bytes = own_bytes_at(width);
  }
  if (own_bytes * width > registers) {
    choice.obstacle = "it holds " + std::to_string(own_bytes) + " bytes of its own values at once: " +
                      std::to_string(width) + " work-items' would not fit the " + std::to_string(registers) +
                      " bytes of vector registers";
    return choice;
  }
  choice.width = width;
  return choice;
}

}  // namespace

std::string vectorization_obstacle(llvm::Function& work_item) {
  WorkItemDivergence divergence(work_item, *work_item.getArg(kLaneIndexParameter));
  return choose_width(work_item, divergence, kMinWidth).obstacle;
}

namespace {

llvm::SmallPtrSet<const llvm::Loop*, 4> loops_of(const std::vector<MaskedLoop>& masked) {
  llvm::SmallPtrSet<const llvm::Loop*, 4> loops;
  for (const MaskedLoop& loop : masked) loops.insert(loop.loop);
  return loops;
}

struct MaskedRegions {
  std::vector<MaskedLoop> loops;
  std::vector<MaskedBranch> branches;

  bool empty() const { return loops.empty() && branches.empty(); }
  bool same_as(const MaskedRegions& other) const {
    auto heads = [](const std::vector<MaskedBranch>& branches) {
      llvm::SmallPtrSet<const llvm::BasicBlock*, 8> heads;
      for (const MaskedBranch& branch : branches) heads.insert(branch.head);
      return heads;
    };
    return loops_of(loops) == loops_of(other.loops) && heads(branches) == heads(other.branches);
  }
};

MaskedRegions find_masked_regions(llvm::Function& work_item, const llvm::LoopInfo& loops, const WorkItemDivergence& divergence) {
  MaskedRegions regions;
  regions.loops = find_masked_loops(loops, divergence);
  regions.branches = find_masked_branches(work_item, divergence, regions.loops);
  return regions;
}

// The loops and branches to run under a mask and the divergence analysis that knows what
// leaves them differs between work-items. That can make branches inside a loop differ too,
// and so disqualify it: the choice is repeated until it holds (or given up).
MaskedRegions choose_masked_regions(llvm::Function& work_item, const llvm::LoopInfo& loops,
                                    std::optional<WorkItemDivergence>& divergence) {
  const llvm::Argument& lane = *work_item.getArg(kLaneIndexParameter);
  divergence.emplace(work_item, lane);
  MaskedRegions masked = find_masked_regions(work_item, loops, *divergence);
  for (int attempt = 0; attempt < 4 && !masked.empty(); ++attempt) {
    llvm::DenseSet<const llvm::Value*> differing = values_leaving(masked.loops);
    for (const llvm::Value* value : values_joining(masked.branches)) differing.insert(value);
    divergence.emplace(work_item, lane, differing);
    MaskedRegions again = find_masked_regions(work_item, loops, *divergence);
    if (again.same_as(masked)) return again;
    masked = std::move(again);
  }
  divergence.emplace(work_item, lane);
  return {};
}

}  // namespace

WorkItemVectorization vectorize_work_item(llvm::Function& work_item, unsigned width) {
  WorkItemVectorization result;
  const llvm::DominatorTree dominators(work_item);
  const llvm::LoopInfo loops(dominators);
  std::optional<WorkItemDivergence> analysis;
  const MaskedRegions regions = choose_masked_regions(work_item, loops, analysis);
  const std::vector<MaskedLoop>& masked = regions.loops;
  WorkItemDivergence& divergence = *analysis;
  const WidthChoice choice = choose_width(work_item, divergence, width);
  if (!choice.width) {
    result.obstacle = choice.obstacle;
    return result;
  }
  width = choice.width;
  result.width = width;
  ResumeFunction resume;
  std::vector<const llvm::BasicBlock*> parting;  // divergent branches not of masked loops
  for (const llvm::BasicBlock* block : divergence.divergent_branches()) {
    const bool exits_masked_loop = llvm::any_of(masked, [&](const MaskedLoop& loop) {
      return loop.loop->contains(block) && loop.loop->isLoopExiting(block);
    });
    const bool masked_branch = llvm::any_of(regions.branches, [&](const MaskedBranch& branch) { return branch.head == block; });
    if (!exits_masked_loop && !masked_branch) parting.push_back(block);
  }
  if (!parting.empty() && uint64_t{parting.size()} * work_item.getInstructionCount() > kMostResumeWork) {
    result.obstacle = std::to_string(parting.size()) + " branches where work-items may part, in " +
                      std::to_string(work_item.getInstructionCount()) + " instructions";
    return result;
  }
  if (!parting.empty()) {
    resume = make_resume_function(
        work_item, parting, [&](const llvm::Value* value) { return divergence.varying(value); }, width);
    if (!resume.function) {
      result.obstacle = resume.obstacle;
      return result;
    }
  }
  llvm::Function* vector = llvm::Function::Create(work_item.getFunctionType(), llvm::GlobalValue::InternalLinkage,
                                                  work_item.getName() + ".vector", work_item.getParent());
  vector->copyAttributesFrom(&work_item);
  vector->setLinkage(llvm::GlobalValue::InternalLinkage);
  for (unsigned i = 0; i < work_item.arg_size(); ++i) vector->getArg(i)->setName(work_item.getArg(i)->getName());
  const unsigned bound = kMaxGrowth * work_item.getInstructionCount() + 600;
  const unsigned resume_size = resume.function ? resume.function->getInstructionCount() : 0;
  Widener widener(work_item, divergence, resume, masked, regions.branches, width, *vector);
  widener.limit_size(bound > resume_size ? bound - resume_size : 0);
  widener.run();
  if (!widener.finished()) {
    // Past the growth bound while being written (a kernel of many lane-by-lane calls, 32
    // copies each): not finished, for the build time it would cost.
    vector->eraseFromParent();
    if (resume.function) resume.function->eraseFromParent();
    result.obstacle = "its vector form would be more than " + std::to_string(bound) + " instructions, for " +
                      std::to_string(work_item.getInstructionCount());
    result.size = widener.estimated_size() + resume_size;
    result.size_bound = bound;
    return result;
  }
  // Lane-by-lane work costs as much as before plus the moving in and out of vectors: where it
  // outweighs the vector work, the vector form would be slower and only larger.
  // And the build time grows with the code: the vector and resume forms together may be a
  // few times the work-item's size (kernels of many branches that differ between work-items,
  // such as the half-precision math builtins, would be many times larger and gain little).
  const unsigned grown = vector->getInstructionCount() + (resume.function ? resume.function->getInstructionCount() : 0);
  const bool mostly_per_lane = widener.per_lane() > widener.widened();  // the same at every width
  if (mostly_per_lane || grown > bound) {
    vector->eraseFromParent();
    if (resume.function) resume.function->eraseFromParent();
    if (mostly_per_lane) {
      result.obstacle = "its vector form would do most of its work one work-item at a time (calls, atomics): " +
                        std::to_string(widener.per_lane()) + " operations per lane against " +
                        std::to_string(widener.widened()) + " as vectors";
    } else {
      result.size = grown;
      result.size_bound = bound;
      result.obstacle = "its vector form would be " + std::to_string(grown) + " instructions, more than " +
                        std::to_string(bound) + " for " + std::to_string(work_item.getInstructionCount());
    }
    return result;
  }
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  const bool broken = llvm::verifyFunction(*vector, &stream) || (resume.function && llvm::verifyFunction(*resume.function, &stream));
  if (broken) {
    vector->eraseFromParent();
    if (resume.function) resume.function->eraseFromParent();
    result.obstacle = "internal error in the vectoriser: " + problems;
    return result;
  }
  result.function = vector;
  result.masked_loops = static_cast<unsigned>(masked.size());
  result.masked_branches = static_cast<unsigned>(regions.branches.size());
  return result;
}

namespace {

bool host_has_feature(const char* feature) {
  const std::string features = "," + host_target().features + ",";
  return features.find(std::string(",+") + feature + ",") != std::string::npos;
}

}  // namespace

unsigned host_register_bytes() { return host_has_feature("avx") ? 32 : 16; }

uint64_t host_vector_register_bytes() { return (host_has_feature("avx512f") ? 32 : 16) * uint64_t{host_register_bytes()}; }

unsigned host_vector_width() { return std::min(kMaxWidth, 4 * (host_register_bytes() / 4)); }

}  // namespace cucl::backend::host

#include "backends/host/codegen/work_item_divergence.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/KnownBits.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace cucl::backend::host {
namespace {

// Vectors of up to 16 numbers (OpenCL's widest) are carried lane by lane in one long vector.
bool lane_type(const llvm::Type* type) {
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    const llvm::Type* element = vector->getElementType();
    return vector->getNumElements() <= 16 && (element->isIntegerTy() || element->isFloatingPointTy());
  }
  return type->isIntegerTy() || type->isFloatingPointTy() || type->isPointerTy();
}

bool wide(const llvm::Value* value) { return value->getType()->getScalarSizeInBits() >= 64 || value->getType()->isPointerTy(); }

bool no_signed_wrap(const llvm::Instruction& instruction) {
  return wide(&instruction) || instruction.hasNoSignedWrap();
}

std::optional<int64_t> plus(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

std::optional<int64_t> difference(int64_t a, int64_t b) {
  int64_t result = 0;
  if (__builtin_sub_overflow(a, b, &result)) return std::nullopt;
  return result;
}

std::optional<int64_t> times(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

}  // namespace

WorkItemDivergence::WorkItemDivergence(llvm::Function& work_item, const llvm::Argument& lane_index,
                                       const llvm::DenseSet<const llvm::Value*>& also_varying)
    : lane_index_(lane_index), layout_(work_item.getParent()->getDataLayout()), seeds_(also_varying), varying_(also_varying) {
  varying_.insert(&lane_index);
  for (llvm::Instruction& instruction : llvm::instructions(work_item)) {
    if (per_lane(instruction) && !instruction.getType()->isVoidTy()) varying_.insert(&instruction);
  }
  spread_to_users(varying_);
  find_obstacles(work_item);
}

bool WorkItemDivergence::per_lane(const llvm::Instruction& instruction) {
  if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(instruction)) return true;
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) return !load->isSimple();
  if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) return !store->isSimple();
  auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  if (!call) return false;
  if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call)) {
    if (intrinsic->isAssumeLikeIntrinsic() || llvm::isTriviallyVectorizable(intrinsic->getIntrinsicID())) return false;
  }
  return call->mayHaveSideEffects();
}

void spread_to_users(llvm::DenseSet<const llvm::Value*>& values) {
  std::vector<const llvm::Value*> work(values.begin(), values.end());
  while (!work.empty()) {
    const llvm::Value* value = work.back();
    work.pop_back();
    for (const llvm::User* user : value->users()) {
      if (user->getType()->isVoidTy()) continue;  // stores and branches: no value of their own
      if (values.insert(user).second) work.push_back(user);
    }
  }
}

void WorkItemDivergence::find_obstacles(llvm::Function& work_item) {
  for (llvm::Instruction& instruction : llvm::instructions(work_item)) {
    if (llvm::isa<llvm::AllocaInst>(instruction)) {
      obstacle_ = "private memory";
    } else if (instruction.isTerminator() && !llvm::isa<llvm::ReturnInst, llvm::UnreachableInst>(instruction)) {
      if (!llvm::isa<llvm::BranchInst, llvm::SwitchInst>(instruction)) obstacle_ = "an indirect branch or invoke";
      if (llvm::any_of(instruction.operands(), [&](const llvm::Use& operand) { return varying(operand.get()); })) {
        divergent_branches_.push_back(instruction.getParent());
      }
    } else if (varying(&instruction) && !lane_type(instruction.getType())) {
      obstacle_ = "an aggregate or vector of pointers that differs between work-items";
    }
    if (!obstacle_.empty()) return;
  }
}

uint64_t consecutive_bytes(const llvm::DataLayout& layout, llvm::Type* type, const LaneStride& stride) {
  const uint64_t bytes = layout.getTypeStoreSize(type);
  if (bytes != layout.getTypeAllocSize(type) || type->getPrimitiveSizeInBits() != bytes * 8) return 0;
  return stride.affine && stride.step == static_cast<int64_t>(bytes) ? bytes : 0;
}

bool WorkItemDivergence::within_block(const LaneStride& x, unsigned field_bits) const {
  const unsigned block = std::min(x.aligned, field_bits);
  if (!x.affine || !x.proven || x.step < 0 || block >= 63) return false;
  const std::optional<int64_t> spread = times(x.step, static_cast<int64_t>(lanes_) - 1);
  return spread && static_cast<uint64_t>(*spread) < (uint64_t{1} << block);
}

void WorkItemDivergence::set_lanes(unsigned lanes) {
  lanes_ = lanes;
  strides_.clear();
  computed_.clear();
}

LaneStride WorkItemDivergence::stride(const llvm::Value* value) {
  if (auto found = strides_.find(value); found != strides_.end()) return found->second;
  LaneStride result;
  if (seeds_.contains(value)) {
    // What leaves a masked loop holds each lane's value from an iteration of its own: its
    // operands' strides say nothing of it.
  } else if (!varying(value)) {
    result = uniform_stride(value);
  } else if (value == &lane_index_) {
    result = {true, 1, true, static_cast<unsigned>(llvm::Log2_32(lanes_))};
  } else {
    result = compute_stride(value);
  }
  // Lanes that step apart cannot agree in every bit: a rule that copied an operand's
  // agreement (as the sum of a uniform base and an offset once did) must not say so.
  if (result.affine && result.step != 0 && result.agree_from == 0) result.agree_from = LaneStride::kAllBits;
  if (result.affine && result.proven && result.step == 0) {
    result.agree_from = 0;
  } else if (within_block(result, LaneStride::kAllBits)) {
    result.agree_from = std::min(result.agree_from, result.aligned);
  }
  strides_[value] = result;
  computed_.push_back(value);
  return result;
}

void WorkItemDivergence::forget_since(size_t mark) {
  for (size_t i = mark; i < computed_.size(); ++i) strides_.erase(computed_[i]);
  computed_.resize(mark);
}

namespace {

// Lanes that all hold one value (of which `aligned` low bits are known zero).
LaneStride same_in_every_lane(unsigned aligned) { return {true, 0, true, aligned, 0}; }

}  // namespace

LaneStride WorkItemDivergence::uniform_stride(const llvm::Value* value) const {
  LaneStride uniform = same_in_every_lane(0);
  if (value->getType()->isIntegerTy()) {
    const unsigned bits = value->getType()->getIntegerBitWidth();
    uniform.aligned = std::min(bits, llvm::computeKnownBits(value, layout_).countMinTrailingZeros());
  }
  return uniform;
}

// x % divisor and x / divisor (unsigned) of lanes x0 + step * l: while the lanes' spread
// step * (lanes - 1) stays below K, the largest power of two dividing both x0 and the
// divisor, every lane's x lies in one block of K that no multiple of the divisor (nor of
// 2^(bits - 1), so no wrap either) cuts: the remainders step as x does from x0's, and the
// quotients are all x0's.
LaneStride WorkItemDivergence::divided(const llvm::Instruction& division, const LaneStride& x, uint64_t divisor) {
  if (divisor == 0) return {};
  const unsigned block = std::min<unsigned>(x.aligned, llvm::countTrailingZeros(divisor));
  if (!within_block(x, block)) return {};
  const bool remainder = division.getOpcode() == llvm::Instruction::URem || division.getOpcode() == llvm::Instruction::And;
  if (remainder) return {true, x.step, true, block};
  return same_in_every_lane(0);
}

LaneStride WorkItemDivergence::masked(const llvm::Instruction& mask, const LaneStride& x, const llvm::APInt& bits) {
  if (bits.isAllOnes()) return x;
  if (x.agree_from < LaneStride::kAllBits && bits.countTrailingZeros() >= x.agree_from) {
    return same_in_every_lane(bits.countTrailingZeros());  // only bits in which the lanes agree
  }
  if (bits.isMask()) {
    if (LaneStride low = divided(mask, x, uint64_t{1} << bits.countTrailingOnes()); low.affine) return low;
  }
  LaneStride agreeing;
  agreeing.agree_from = x.agree_from;
  return agreeing;
}

LaneStride WorkItemDivergence::shifted_right(const llvm::Instruction& shift, const LaneStride& x, unsigned bits) {
  if (LaneStride quotient = divided(shift, x, uint64_t{1} << bits); quotient.affine) return quotient;
  if (x.agree_from >= LaneStride::kAllBits) return {};
  if (x.agree_from <= bits) return same_in_every_lane(0);
  LaneStride agreeing;
  agreeing.agree_from = x.agree_from - bits;
  return agreeing;
}

LaneStride WorkItemDivergence::compute_stride(const llvm::Value* value) {
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction) return {};
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(instruction)) return merged_stride(*phi);
  LaneStride result = compute_operation_stride(*instruction);
  // An operation of values that every lane holds alike gives every lane one value too.
  const bool operation = llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::CmpInst, llvm::SelectInst,
                                   llvm::GetElementPtrInst>(instruction);
  if (!result.affine && operation &&
      llvm::all_of(instruction->operands(), [&](const llvm::Use& use) { return stride(use.get()).agree_from == 0; })) {
    return same_in_every_lane(0);
  }
  return result;
}

// The vector form's branches are uniform (where lanes part, they go on one by one in the
// resume function; masked loops branch on whether any lane is left), so all lanes reach a
// phi from one block: with incoming values that step alike, it steps so too (not the phis of
// what leaves a masked loop: seeds, which stride() leaves unknown).
// A phi that depends on itself (an induction, a value carried around a loop) is first taken
// as unknown; if then only the values from outside its cycle step alike, it is assumed to
// step as they do and its cycle computed again, until the assumption is what the cycle
// gives back (each lane's value then steps so in every iteration, by induction), else it
// is unknown. What was computed under an assumption that failed is forgotten.
LaneStride WorkItemDivergence::merged_stride(const llvm::PHINode& phi) {
  const size_t mark = computed_.size();
  strides_[&phi] = {};
  LaneStride merged = merged_incoming_stride(phi);
  if (merged.affine) return merged;
  std::optional<LaneStride> assumed;
  for (const llvm::Value* incoming : phi.incoming_values()) {
    const LaneStride one = stride(incoming);
    if (!one.affine) continue;
    if (assumed && assumed->step != one.step) return {};
    if (!assumed) assumed = one;
    assumed->proven = assumed->proven && one.proven;
    assumed->aligned = std::min(assumed->aligned, one.aligned);
    assumed->agree_from = std::max(assumed->agree_from, one.agree_from);
  }
  for (int attempt = 0; assumed && attempt < 3; ++attempt) {
    forget_since(mark);
    strides_[&phi] = *assumed;
    const LaneStride given = merged_incoming_stride(phi);
    if (!given.affine || given.step != assumed->step) break;
    if (given.proven == assumed->proven && given.aligned == assumed->aligned && given.agree_from == assumed->agree_from) {
      return given;
    }
    assumed = given;  // weaker: try again with it
  }
  forget_since(mark);
  return {};
}

LaneStride WorkItemDivergence::merged_incoming_stride(const llvm::PHINode& phi) {
  std::optional<LaneStride> merged;
  for (const llvm::Value* incoming : phi.incoming_values()) {
    const LaneStride one = stride(incoming);
    if (!one.affine) return {};
    if (!merged) {
      merged = one;
      continue;
    }
    if (one.step != merged->step) return {};
    merged->proven = merged->proven && one.proven;
    merged->aligned = std::min(merged->aligned, one.aligned);
    merged->agree_from = std::max(merged->agree_from, one.agree_from);
  }
  return merged.value_or(LaneStride{});
}

LaneStride WorkItemDivergence::compute_operation_stride(const llvm::Instruction& source) {
  const llvm::Instruction* instruction = &source;
  auto operand = [&](unsigned i) { return stride(instruction->getOperand(i)); };
  auto constant = [&](unsigned i) { return llvm::dyn_cast<llvm::ConstantInt>(instruction->getOperand(i)); };
  switch (instruction->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub: {
      const LaneStride a = operand(0), b = operand(1);
      if (!a.affine || !b.affine) return {};
      const bool add = instruction->getOpcode() == llvm::Instruction::Add;
      const std::optional<int64_t> step = add ? plus(a.step, b.step) : difference(a.step, b.step);
      if (!step) return {};
      return {true, *step, a.proven && b.proven && no_signed_wrap(*instruction),
              std::min(a.aligned, b.aligned)};
    }
    case llvm::Instruction::Or: {
      // An or of values with no bit in common is their sum, without carries.
      if (!llvm::haveNoCommonBitsSet(instruction->getOperand(0), instruction->getOperand(1), layout_)) return {};
      const LaneStride a = operand(0), b = operand(1);
      if (!a.affine || !b.affine) return {};
      const std::optional<int64_t> step = plus(a.step, b.step);
      if (!step) return {};
      return {true, *step, a.proven && b.proven, std::min(a.aligned, b.aligned)};
    }
    case llvm::Instruction::URem:
    case llvm::Instruction::UDiv:
    case llvm::Instruction::LShr:
    case llvm::Instruction::And: {
      const llvm::ConstantInt* c = constant(1);
      if (!c || c->getBitWidth() > 64) return {};
      const llvm::APInt& value = c->getValue();
      const unsigned opcode = instruction->getOpcode();
      if (opcode == llvm::Instruction::And) return masked(*instruction, operand(0), value);
      if (opcode == llvm::Instruction::LShr) {
        if (value.uge(c->getBitWidth())) return {};
        return shifted_right(*instruction, operand(0), static_cast<unsigned>(value.getZExtValue()));
      }
      return divided(*instruction, operand(0), value.getZExtValue());
    }
    case llvm::Instruction::Mul:
    case llvm::Instruction::Shl: {
      const bool multiply = instruction->getOpcode() == llvm::Instruction::Mul;
      unsigned varying_side = multiply && constant(0) ? 1 : 0;
      const llvm::ConstantInt* factor = constant(1 - varying_side);
      if (!factor || factor->getBitWidth() > 64) return {};
      const LaneStride a = operand(varying_side);
      const unsigned bits = instruction->getType()->getScalarSizeInBits();
      if (!a.affine && !multiply && a.agree_from < LaneStride::kAllBits && factor->getValue().ult(bits)) {
        // x's differing low bits move up by the shift; where they reach the top, nothing of the
        // result is known to agree (its new low bits are zeros, but not tracked).
        const unsigned agree_from = a.agree_from + static_cast<unsigned>(factor->getZExtValue());
        if (agree_from >= bits) return {};
        LaneStride agreeing;
        agreeing.agree_from = agree_from;
        return agreeing;
      }
      if (!a.affine) return {};
      int64_t scale = factor->getSExtValue();
      if (!multiply) {
        if (factor->getZExtValue() >= 62) return {};
        scale = int64_t{1} << factor->getZExtValue();
      }
      std::optional<int64_t> step = times(a.step, scale);
      if (!step) return {};
      const unsigned factor_zeros = scale == 0 ? bits : llvm::countTrailingZeros(static_cast<uint64_t>(scale));
      return {true, *step, a.proven && no_signed_wrap(*instruction), std::min(bits, a.aligned + factor_zeros)};
    }
    case llvm::Instruction::SExt: {
      LaneStride a = operand(0);
      if (a.agree_from >= instruction->getOperand(0)->getType()->getScalarSizeInBits()) a.agree_from = LaneStride::kAllBits;
      return a;
    }
    case llvm::Instruction::PtrToInt:
    case llvm::Instruction::IntToPtr:
    case llvm::Instruction::AddrSpaceCast:  // the same address on the host
      return operand(0);
    case llvm::Instruction::AShr: {
      // ashr (shl x, c), c: x's low bits sign-extended, as a trunc and a sext would
      const llvm::ConstantInt* c = constant(1);
      auto* shift = llvm::dyn_cast<llvm::BinaryOperator>(instruction->getOperand(0));
      if (!c || !shift || shift->getOpcode() != llvm::Instruction::Shl || shift->getOperand(1) != c) return {};
      const unsigned bits = instruction->getType()->getScalarSizeInBits();
      if (c->getValue().uge(bits)) return {};
      const unsigned field = bits - static_cast<unsigned>(c->getZExtValue());
      LaneStride a = stride(shift->getOperand(0));
      a.aligned = std::min(a.aligned, field);
      a.proven = within_block(a, field - 1);
      a.agree_from = LaneStride::kAllBits;
      return a;
    }
    case llvm::Instruction::ZExt: {
      const unsigned source_bits = instruction->getOperand(0)->getType()->getScalarSizeInBits();
      LaneStride a = operand(0);
      a.proven = within_block(a, source_bits);  // no lane past the source's largest number
      a.agree_from = std::min(a.agree_from, source_bits);
      return a;
    }
    case llvm::Instruction::Trunc: {
      const unsigned bits = instruction->getType()->getScalarSizeInBits();
      LaneStride a = operand(0);
      a.aligned = std::min(a.aligned, bits);
      a.proven = within_block(a, bits - 1);  // no lane past the narrow type's largest number
      if (a.agree_from >= bits) a.agree_from = LaneStride::kAllBits;
      return a;
    }
    case llvm::Instruction::GetElementPtr: {
      auto* gep = llvm::cast<llvm::GetElementPtrInst>(instruction);
      LaneStride sum = operand(0);
      if (!sum.affine) return {};
      sum.aligned = 0;
      sum.agree_from = LaneStride::kAllBits;  // the base's, not the sum's: stride() finds what is known
      for (auto index = llvm::gep_type_begin(gep); index != llvm::gep_type_end(gep); ++index) {
        if (index.isStruct()) continue;  // constant field numbers: the same in every lane
        const LaneStride term = stride(index.getOperand());
        if (!term.affine) return {};
        std::optional<int64_t> bytes =
            times(term.step, static_cast<int64_t>(layout_.getTypeAllocSize(index.getIndexedType()).getFixedSize()));
        if (!bytes) return {};
        const std::optional<int64_t> step = plus(sum.step, *bytes);
        if (!step) return {};
        sum.step = *step;
        sum.proven = sum.proven && term.proven;
      }
      return sum;
    }
    default:
      return {};
  }
}

}  // namespace cucl::backend::host

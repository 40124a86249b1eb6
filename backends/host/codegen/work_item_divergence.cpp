#include "backends/host/codegen/work_item_divergence.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

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

std::optional<int64_t> times(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

}  // namespace

WorkItemDivergence::WorkItemDivergence(llvm::Function& work_item, const llvm::Argument& lane_index,
                                       const llvm::DenseSet<const llvm::Value*>& also_varying)
    : lane_index_(lane_index), layout_(work_item.getParent()->getDataLayout()), varying_(also_varying) {
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

LaneStride WorkItemDivergence::stride(const llvm::Value* value) {
  if (!varying(value)) return {true, 0, true};
  if (value == &lane_index_) return {true, 1, true};
  if (auto found = strides_.find(value); found != strides_.end()) return found->second;
  LaneStride result = compute_stride(value);
  strides_[value] = result;
  return result;
}

LaneStride WorkItemDivergence::compute_stride(const llvm::Value* value) {
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || llvm::isa<llvm::PHINode>(instruction)) return {};
  auto operand = [&](unsigned i) { return stride(instruction->getOperand(i)); };
  auto constant = [&](unsigned i) { return llvm::dyn_cast<llvm::ConstantInt>(instruction->getOperand(i)); };
  switch (instruction->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub: {
      const LaneStride a = operand(0), b = operand(1);
      if (!a.affine || !b.affine) return {};
      const bool add = instruction->getOpcode() == llvm::Instruction::Add;
      return {true, add ? a.step + b.step : a.step - b.step, a.proven && b.proven && no_signed_wrap(*instruction)};
    }
    case llvm::Instruction::Mul:
    case llvm::Instruction::Shl: {
      const bool multiply = instruction->getOpcode() == llvm::Instruction::Mul;
      unsigned varying_side = multiply && constant(0) ? 1 : 0;
      const llvm::ConstantInt* factor = constant(1 - varying_side);
      if (!factor || factor->getBitWidth() > 64) return {};
      const LaneStride a = operand(varying_side);
      if (!a.affine) return {};
      int64_t scale = factor->getSExtValue();
      if (!multiply) {
        if (factor->getZExtValue() >= 62) return {};
        scale = int64_t{1} << factor->getZExtValue();
      }
      std::optional<int64_t> step = times(a.step, scale);
      if (!step) return {};
      return {true, *step, a.proven && no_signed_wrap(*instruction)};
    }
    case llvm::Instruction::SExt:
    case llvm::Instruction::PtrToInt:
    case llvm::Instruction::IntToPtr:
      return operand(0);
    case llvm::Instruction::ZExt:
    case llvm::Instruction::Trunc: {
      LaneStride a = operand(0);
      a.proven = false;
      return a;
    }
    case llvm::Instruction::GetElementPtr: {
      auto* gep = llvm::cast<llvm::GetElementPtrInst>(instruction);
      LaneStride sum = operand(0);
      if (!sum.affine) return {};
      for (auto index = llvm::gep_type_begin(gep); index != llvm::gep_type_end(gep); ++index) {
        if (index.isStruct()) continue;  // constant field numbers: the same in every lane
        const LaneStride term = stride(index.getOperand());
        if (!term.affine) return {};
        std::optional<int64_t> bytes =
            times(term.step, static_cast<int64_t>(layout_.getTypeAllocSize(index.getIndexedType()).getFixedSize()));
        if (!bytes) return {};
        sum.step += *bytes;
        sum.proven = sum.proven && term.proven;
      }
      return sum;
    }
    default:
      return {};
  }
}

}  // namespace cucl::backend::host

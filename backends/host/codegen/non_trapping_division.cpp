#include "backends/host/codegen/non_trapping_division.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace cucl::backend::host {
namespace {

bool is_division(const llvm::Instruction& instruction) {
  switch (instruction.getOpcode()) {
    case llvm::Instruction::SDiv:
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SRem:
    case llvm::Instruction::URem: return true;
    default: return false;
  }
}

bool is_signed(const llvm::BinaryOperator& division) {
  return division.getOpcode() == llvm::Instruction::SDiv || division.getOpcode() == llvm::Instruction::SRem;
}

// A divisor known not to trap needs no guard: a constant other than 0 (and, for signed
// division, other than -1). Vector constants are checked element by element.
bool divisor_is_safe(const llvm::BinaryOperator& division) {
  auto* divisor = llvm::dyn_cast<llvm::Constant>(division.getOperand(1));
  if (!divisor) return false;
  auto element_safe = [&](const llvm::Constant* element) {
    auto* value = llvm::dyn_cast_or_null<llvm::ConstantInt>(element);
    return value && !value->isZero() && !(is_signed(division) && value->isMinusOne());
  };
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(divisor->getType())) {
    for (unsigned i = 0; i < vector->getNumElements(); ++i) {
      if (!element_safe(divisor->getAggregateElement(i))) return false;
    }
    return true;
  }
  return element_safe(divisor);
}

void guard(llvm::BinaryOperator& division) {
  llvm::IRBuilder<> b(&division);
  llvm::Value* dividend = division.getOperand(0);
  llvm::Value* divisor = division.getOperand(1);
  llvm::Type* type = divisor->getType();
  llvm::Value* traps = b.CreateICmpEQ(divisor, llvm::Constant::getNullValue(type));
  if (is_signed(division)) {
    unsigned bits = type->getScalarSizeInBits();
    llvm::Value* overflows = b.CreateAnd(b.CreateICmpEQ(divisor, llvm::Constant::getAllOnesValue(type)),
                                         b.CreateICmpEQ(dividend, llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(bits))));
    traps = b.CreateOr(traps, overflows);
  }
  division.setOperand(1, b.CreateSelect(traps, llvm::ConstantInt::get(type, 1), divisor, "safe.divisor"));
}

}  // namespace

void guard_integer_division(llvm::Module& module) {
  std::vector<llvm::BinaryOperator*> divisions;
  for (llvm::Function& function : module) {
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      if (!is_division(instruction)) continue;
      auto& division = llvm::cast<llvm::BinaryOperator>(instruction);
      if (!divisor_is_safe(division)) divisions.push_back(&division);
    }
  }
  for (llvm::BinaryOperator* division : divisions) guard(*division);
}

}  // namespace cucl::backend::host

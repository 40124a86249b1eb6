#include "backends/host/codegen/index_widening.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace cucl::backend::host {
namespace {

bool widens(const llvm::Value* value) {
  auto* operation = llvm::dyn_cast<llvm::BinaryOperator>(value);
  if (!operation || !operation->hasNoSignedWrap()) return false;
  switch (operation->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Mul:
      return true;
    case llvm::Instruction::Shl: {
      auto* amount = llvm::dyn_cast<llvm::ConstantInt>(operation->getOperand(1));
      return amount && amount->getValue().ult(operation->getType()->getScalarSizeInBits());
    }
    default:
      return false;
  }
}

// `value` computed in `wide`, before the builder's insertion point (where the sign extension
// of the tree's root was, which every value of the tree dominates).
llvm::Value* widened(llvm::IRBuilder<>& b, llvm::Value* value, llvm::Type* wide) {
  if (!widens(value)) return b.CreateSExt(value, wide);
  auto* operation = llvm::cast<llvm::BinaryOperator>(value);
  llvm::Value* left = widened(b, operation->getOperand(0), wide);
  llvm::Value* right = operation->getOpcode() == llvm::Instruction::Shl
                           ? llvm::ConstantExpr::getZExt(llvm::cast<llvm::Constant>(operation->getOperand(1)), wide)
                           : widened(b, operation->getOperand(1), wide);
  auto* result = llvm::BinaryOperator::Create(operation->getOpcode(), left, right, operation->getName() + ".wide");
  b.Insert(result);
  result->setHasNoSignedWrap(true);
  return result;
}

}  // namespace

void widen_signed_index_arithmetic(llvm::Function& function) {
  std::vector<llvm::SExtInst*> extensions;
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    auto* extension = llvm::dyn_cast<llvm::SExtInst>(&instruction);
    if (extension && extension->getType()->isIntegerTy() && widens(extension->getOperand(0))) {
      extensions.push_back(extension);
    }
  }
  for (llvm::SExtInst* extension : extensions) {
    llvm::IRBuilder<> b(extension);
    llvm::Value* wide = widened(b, extension->getOperand(0), extension->getType());
    extension->replaceAllUsesWith(wide);
    extension->eraseFromParent();
  }
}

}  // namespace cucl::backend::host

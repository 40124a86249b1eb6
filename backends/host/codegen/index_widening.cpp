#include "backends/host/codegen/index_widening.h"

#include <llvm/ADT/DenseMap.h>
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

// Widens one sign extension's tree. Every value is made once (a tree may share operands: x + x
// of x + x of ... would double at each level) and at most kDeepest operations deep (a sum of
// thousands of terms would recurse as deep); below that, operands are extended as they are.
// `budget` counts down the operations the whole function may still gain.
class Widener {
 public:
  // Before `root`, which every value of its tree dominates.
  Widener(llvm::SExtInst& root, size_t& budget) : b_(&root), wide_(root.getType()), budget_(budget) {}

  llvm::Value* widened(llvm::Value* value, unsigned depth = 0) {
    if (auto found = made_.find(value); found != made_.end()) return found->second;
    llvm::Value* result = nullptr;
    if (!widens(value) || depth >= kDeepest || budget_ == 0) {
      result = b_.CreateSExt(value, wide_);
    } else {
      auto* operation = llvm::cast<llvm::BinaryOperator>(value);
      llvm::Value* left = widened(operation->getOperand(0), depth + 1);
      llvm::Value* right =
          operation->getOpcode() == llvm::Instruction::Shl
              ? llvm::ConstantExpr::getZExt(llvm::cast<llvm::Constant>(operation->getOperand(1)), wide_)
              : widened(operation->getOperand(1), depth + 1);
      auto* made = llvm::BinaryOperator::Create(operation->getOpcode(), left, right, operation->getName() + ".wide");
      b_.Insert(made);
      made->setHasNoSignedWrap(true);
      --budget_;
      result = made;
    }
    made_[value] = result;
    return result;
  }

 private:
  static constexpr unsigned kDeepest = 64;
  llvm::IRBuilder<> b_;
  llvm::Type* wide_;
  size_t& budget_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> made_;
};

}  // namespace

void widen_signed_index_arithmetic(llvm::Function& function) {
  std::vector<llvm::SExtInst*> extensions;
  size_t budget = 1000;  // besides twice the function's size: what simplification removes again
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    budget += 2;
    auto* extension = llvm::dyn_cast<llvm::SExtInst>(&instruction);
    if (extension && extension->getType()->isIntegerTy() && widens(extension->getOperand(0))) {
      extensions.push_back(extension);
    }
  }
  for (llvm::SExtInst* extension : extensions) {
    if (budget == 0) break;
    llvm::Value* wide = Widener(*extension, budget).widened(extension->getOperand(0));
    extension->replaceAllUsesWith(wide);
    extension->eraseFromParent();
  }
}

}  // namespace cucl::backend::host

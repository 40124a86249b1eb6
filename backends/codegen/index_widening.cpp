#include "backends/codegen/index_widening.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <optional>
#include <vector>

namespace cucl::backend {
namespace {

// Which values of an index tree have an exact 64-bit form built from their operands', and
// which truncations lose nothing.
class WideningRules {
 public:
  WideningRules(llvm::Function& function, const IndexWidening& how) : function_(function), how_(how) {}

  bool widens(const llvm::Value* value) const {
    auto* operation = llvm::dyn_cast<llvm::BinaryOperator>(value);
    if (!operation || !operation->hasNoSignedWrap()) return false;
    switch (operation->getOpcode()) {
      case llvm::Instruction::Add:
      case llvm::Instruction::Sub:
        return true;
      case llvm::Instruction::Mul:
        return how_.multiplications;
      case llvm::Instruction::Shl: {
        auto* amount = llvm::dyn_cast<llvm::ConstantInt>(operation->getOperand(1));
        return how_.multiplications && amount && amount->getValue().ult(operation->getType()->getScalarSizeInBits());
      }
      default:
        return false;
    }
  }

  // The value of `wide` type that `value` truncates when every value it can take fits in
  // `value`'s type (so that sign-extending `value` gives it back), else null.
  llvm::Value* whole_before_truncation(llvm::Value* value, llvm::Type* wide) {
    auto* truncation = llvm::dyn_cast<llvm::TruncInst>(value);
    if (!truncation || truncation->getOperand(0)->getType() != wide) return nullptr;
    llvm::ScalarEvolution& evolution = scalar_evolution();
    const llvm::ConstantRange range = evolution.getSignedRange(evolution.getSCEV(truncation->getOperand(0)));
    return range.getMinSignedBits() <= truncation->getType()->getScalarSizeInBits() ? truncation->getOperand(0)
                                                                                     : nullptr;
  }

  bool is_root(llvm::SExtInst& extension) {
    return widens(extension.getOperand(0)) || whole_before_truncation(extension.getOperand(0), extension.getType());
  }

 private:
  // Made at the first truncation asked about (most functions have none in an index).
  llvm::ScalarEvolution& scalar_evolution() {
    if (!evolution_) {
      library_impl_.emplace(llvm::Triple(function_.getParent()->getTargetTriple()));
      library_.emplace(*library_impl_);
      assumptions_ = std::make_unique<llvm::AssumptionCache>(function_);
      dominators_ = std::make_unique<llvm::DominatorTree>(function_);
      loops_ = std::make_unique<llvm::LoopInfo>(*dominators_);
      evolution_ = std::make_unique<llvm::ScalarEvolution>(function_, *library_, *assumptions_, *dominators_, *loops_);
    }
    return *evolution_;
  }

  llvm::Function& function_;
  IndexWidening how_;
  std::optional<llvm::TargetLibraryInfoImpl> library_impl_;
  std::optional<llvm::TargetLibraryInfo> library_;
  std::unique_ptr<llvm::AssumptionCache> assumptions_;
  std::unique_ptr<llvm::DominatorTree> dominators_;
  std::unique_ptr<llvm::LoopInfo> loops_;
  std::unique_ptr<llvm::ScalarEvolution> evolution_;
};

// Widens one sign extension's tree. Every value is made once (a tree may share operands: x + x
// of x + x of ... would double at each level) and at most kDeepest operations deep (a sum of
// thousands of terms would recurse as deep); below that, operands are extended as they are.
// `budget` counts down the operations the whole function may still gain.
class Widener {
 public:
  // Before `root`, which every value of its tree dominates.
  Widener(llvm::SExtInst& root, WideningRules& rules, size_t& budget)
      : b_(&root), wide_(root.getType()), rules_(rules), budget_(budget) {}

  llvm::Value* widened(llvm::Value* value, unsigned depth = 0) {
    if (auto found = made_.find(value); found != made_.end()) return found->second;
    llvm::Value* result = rules_.whole_before_truncation(value, wide_);
    if (result) {
      // The 64-bit value itself: nothing to make.
    } else if (!rules_.widens(value) || depth >= kDeepest || budget_ == 0) {
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
  WideningRules& rules_;
  size_t& budget_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> made_;
};

}  // namespace

void widen_signed_index_arithmetic(llvm::Function& function, const IndexWidening& how) {
  WideningRules rules(function, how);
  std::vector<llvm::SExtInst*> extensions;
  size_t budget = 1000;  // besides twice the function's size: what simplification removes again
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    budget += 2;
    auto* extension = llvm::dyn_cast<llvm::SExtInst>(&instruction);
    if (extension && extension->getType()->isIntegerTy() && rules.is_root(*extension)) {
      extensions.push_back(extension);
    }
  }
  for (llvm::SExtInst* extension : extensions) {
    if (budget == 0) break;
    llvm::Value* wide = Widener(*extension, rules, budget).widened(extension->getOperand(0));
    extension->replaceAllUsesWith(wide);
    extension->eraseFromParent();
  }
}

}  // namespace cucl::backend

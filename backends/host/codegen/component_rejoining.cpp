#include "backends/host/codegen/component_rejoining.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include <optional>
#include <vector>

namespace cucl::backend::host {
namespace {

// The components of the vector that the chain of insertelements ending at `last` builds
// from nothing, each inserted once at a constant position; empty when it is not one.
std::vector<llvm::Value*> inserted_components(llvm::InsertElementInst& last) {
  auto* type = llvm::dyn_cast<llvm::FixedVectorType>(last.getType());
  if (!type) return {};
  std::vector<llvm::Value*> components(type->getNumElements(), nullptr);
  llvm::Value* link = &last;
  while (auto* insert = llvm::dyn_cast<llvm::InsertElementInst>(link)) {
    auto* index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
    if (!index || index->getZExtValue() >= components.size()) return {};
    llvm::Value*& slot = components[index->getZExtValue()];
    if (!slot) slot = insert->getOperand(1);  // a later insert at the same place wins
    link = insert->getOperand(0);
  }
  if (!llvm::isa<llvm::UndefValue>(link)) return {};  // poison or undef
  for (llvm::Value* component : components) {
    if (!component) return {};
  }
  return components;
}

// What operand `i` of component k's operation is in vector terms: a vector V whose component k
// it is (extractelement V, k), or a scalar every component shares.
struct Source {
  llvm::Value* vector = nullptr;
  llvm::Value* scalar = nullptr;
};

std::optional<Source> source_of(const std::vector<llvm::Instruction*>& operations, unsigned i, llvm::Type* vector_type) {
  llvm::Value* first = operations[0]->getOperand(i);
  if (llvm::all_of(operations, [&](llvm::Instruction* op) { return op->getOperand(i) == first; })) {
    return Source{nullptr, first};
  }
  Source source;
  for (unsigned k = 0; k < operations.size(); ++k) {
    auto* extract = llvm::dyn_cast<llvm::ExtractElementInst>(operations[k]->getOperand(i));
    auto* index = extract ? llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand()) : nullptr;
    if (!index || index->getZExtValue() != k || extract->getVectorOperandType() != vector_type) return std::nullopt;
    if (k == 0) source.vector = extract->getVectorOperand();
    if (extract->getVectorOperand() != source.vector) return std::nullopt;
  }
  return source;
}

// The same operation, of the same kind, in every component: a binary or unary operator, a
// compare, a select or a call of one intrinsic that has a vector form.
bool same_operation(const std::vector<llvm::Instruction*>& operations) {
  llvm::Instruction* first = operations[0];
  if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(first)) {
    const llvm::Intrinsic::ID id = call->getIntrinsicID();
    if (!llvm::isTriviallyVectorizable(id)) return false;
    for (unsigned i = 0; i < call->arg_size(); ++i) {
      if (llvm::isVectorIntrinsicWithScalarOpAtArg(id, i)) return false;
    }
  } else if (!llvm::isa<llvm::BinaryOperator, llvm::UnaryOperator>(first)) {
    return false;
  }
  return llvm::all_of(operations, [&](llvm::Instruction* op) {
    if (!op->isSameOperationAs(first) || op->hasNUsesOrMore(2)) return false;
    auto* call = llvm::dyn_cast<llvm::CallInst>(op);
    return !call || call->getCalledFunction() == llvm::cast<llvm::CallInst>(first)->getCalledFunction();
  });
}

llvm::Value* rejoined(llvm::InsertElementInst& last) {
  const std::vector<llvm::Value*> components = inserted_components(last);
  if (components.size() < 2) return nullptr;
  std::vector<llvm::Instruction*> operations;
  for (llvm::Value* component : components) {
    auto* operation = llvm::dyn_cast<llvm::Instruction>(component);
    if (!operation) return nullptr;
    operations.push_back(operation);
  }
  if (!same_operation(operations)) return nullptr;
  auto* type = llvm::cast<llvm::FixedVectorType>(last.getType());
  llvm::Instruction* first = operations[0];
  const unsigned count = llvm::isa<llvm::CallInst>(first) ? llvm::cast<llvm::CallInst>(first)->arg_size() : first->getNumOperands();
  std::vector<Source> sources;
  for (unsigned i = 0; i < count; ++i) {
    auto* operand_type = llvm::FixedVectorType::get(first->getOperand(i)->getType(), type->getNumElements());
    std::optional<Source> source = source_of(operations, i, operand_type);
    if (!source) return nullptr;
    sources.push_back(*source);
  }
  llvm::IRBuilder<> b(&last);
  std::vector<llvm::Value*> operands;
  for (const Source& source : sources) {
    operands.push_back(source.vector ? source.vector : b.CreateVectorSplat(type->getNumElements(), source.scalar));
  }
  llvm::Value* result = nullptr;
  if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(first)) {
    llvm::Function* declaration = llvm::Intrinsic::getDeclaration(last.getModule(), call->getIntrinsicID(), {type});
    result = b.CreateCall(declaration, operands);
  } else if (auto* binary = llvm::dyn_cast<llvm::BinaryOperator>(first)) {
    result = b.CreateBinOp(binary->getOpcode(), operands[0], operands[1]);
  } else {
    result = b.CreateUnOp(llvm::cast<llvm::UnaryOperator>(first)->getOpcode(), operands[0]);
  }
  if (auto* made = llvm::dyn_cast<llvm::Instruction>(result)) {
    made->copyIRFlags(first);
    for (llvm::Instruction* operation : operations) made->andIRFlags(operation);
  }
  return result;
}

}  // namespace

bool rejoin_component_operations(llvm::Function& function) {
  std::vector<llvm::InsertElementInst*> chain_ends;
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    auto* insert = llvm::dyn_cast<llvm::InsertElementInst>(&instruction);
    if (!insert) continue;
    const bool continued = llvm::any_of(insert->users(), [&](llvm::User* user) {
      auto* next = llvm::dyn_cast<llvm::InsertElementInst>(user);
      return next && next->getOperand(0) == insert;
    });
    if (!continued) chain_ends.push_back(insert);
  }
  bool changed = false;
  for (llvm::InsertElementInst* end : chain_ends) {  // in program order: a chain's inputs are joined before it
    llvm::Value* vector = rejoined(*end);
    if (!vector) continue;
    end->replaceAllUsesWith(vector);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(end);
    changed = true;
  }
  return changed;
}

}  // namespace cucl::backend::host

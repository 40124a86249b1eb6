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

// The components of the vector that the chain of insertelements ending at `last` builds,
// each inserted at a constant position; empty when some component is not inserted.
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
  // Whatever the chain starts from (poison, or the vector's last value when code assigns
  // to each of its components in turn), the chain replaces all of it or is not one.
  for (llvm::Value* component : components) {
    if (!component) return {};
  }
  return components;
}

// The same operation, of the same kind, in every component: a binary or unary operator, or
// a call of one intrinsic that has a vector form; each used once (by the component's chain).
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

// How the vector whose component k is parts[k] is made from vectors and scalars already
// there: one of them (component k of `vector` is parts[k]), a scalar every component shares,
// or the same operation of the vectors of each operand's parts (the operation in every
// component, each used only there).
struct Plan {
  llvm::Value* vector = nullptr;
  llvm::Value* shared = nullptr;
  std::vector<llvm::Instruction*> operations;  // one per component
  std::vector<Plan> operands;
};

// Operations joined below a chain's components: a loop unrolled twice computes component k
// of a mad from component k of the last one, with no vector between them.
constexpr unsigned kMaxDepth = 8;

llvm::Value* extracted_from(const std::vector<llvm::Value*>& parts) {
  llvm::Value* vector = nullptr;
  for (unsigned k = 0; k < parts.size(); ++k) {
    auto* extract = llvm::dyn_cast<llvm::ExtractElementInst>(parts[k]);
    auto* index = extract ? llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand()) : nullptr;
    if (!index || index->getZExtValue() != k || llvm::cast<llvm::FixedVectorType>(extract->getVectorOperandType())->getNumElements() != parts.size()) {
      return nullptr;
    }
    if (k == 0) vector = extract->getVectorOperand();
    if (extract->getVectorOperand() != vector) return nullptr;
  }
  return vector;
}

std::optional<Plan> plan_for(const std::vector<llvm::Value*>& parts, unsigned depth) {
  Plan plan;
  if (llvm::all_of(parts, [&](llvm::Value* part) { return part == parts[0]; })) {
    plan.shared = parts[0];
    return plan;
  }
  if ((plan.vector = extracted_from(parts))) return plan;
  std::vector<llvm::Instruction*> operations;
  for (llvm::Value* part : parts) {
    auto* operation = llvm::dyn_cast<llvm::Instruction>(part);
    if (!operation) return std::nullopt;
    operations.push_back(operation);
  }
  if (depth == 0 || !same_operation(operations)) return std::nullopt;
  llvm::Instruction* first = operations[0];
  const unsigned count = llvm::isa<llvm::CallInst>(first) ? llvm::cast<llvm::CallInst>(first)->arg_size() : first->getNumOperands();
  for (unsigned i = 0; i < count; ++i) {
    std::vector<llvm::Value*> column;
    for (llvm::Instruction* operation : operations) column.push_back(operation->getOperand(i));
    std::optional<Plan> operand = plan_for(column, depth - 1);
    if (!operand) return std::nullopt;
    plan.operands.push_back(std::move(*operand));
  }
  plan.operations = std::move(operations);
  return plan;
}

llvm::Value* emit(const Plan& plan, unsigned n, llvm::IRBuilder<>& b) {
  if (plan.vector) return plan.vector;
  if (plan.shared) return b.CreateVectorSplat(n, plan.shared);
  std::vector<llvm::Value*> operands;
  for (const Plan& operand : plan.operands) operands.push_back(emit(operand, n, b));
  llvm::Instruction* first = plan.operations[0];
  llvm::Value* result = nullptr;
  if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(first)) {
    auto* type = llvm::FixedVectorType::get(first->getType(), n);
    llvm::Function* declaration = llvm::Intrinsic::getDeclaration(first->getModule(), call->getIntrinsicID(), {type});
    result = b.CreateCall(declaration, operands);
  } else if (auto* binary = llvm::dyn_cast<llvm::BinaryOperator>(first)) {
    result = b.CreateBinOp(binary->getOpcode(), operands[0], operands[1]);
  } else {
    result = b.CreateUnOp(llvm::cast<llvm::UnaryOperator>(first)->getOpcode(), operands[0]);
  }
  if (auto* made = llvm::dyn_cast<llvm::Instruction>(result)) {
    made->copyIRFlags(first);
    for (llvm::Instruction* operation : plan.operations) made->andIRFlags(operation);
  }
  return result;
}

llvm::Value* rejoined(llvm::InsertElementInst& last) {
  const std::vector<llvm::Value*> components = inserted_components(last);
  if (components.size() < 2) return nullptr;
  std::optional<Plan> plan = plan_for(components, kMaxDepth);
  if (!plan || plan->operations.empty()) return nullptr;  // a chain of extracts or one value is no computation
  llvm::IRBuilder<> b(&last);
  return emit(*plan, static_cast<unsigned>(components.size()), b);
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

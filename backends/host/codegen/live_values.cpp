#include "backends/host/codegen/live_values.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

namespace cucl::backend::host {

namespace {

// Whether `value` may be used after the end of `block` before it is defined again: a block
// reached from there without passing its definition uses it (a phi: on the edge from a
// block so reached, or from `block` itself).
bool used_after(const llvm::Instruction& value, const llvm::BasicBlock& block) {
  const llvm::BasicBlock* defined_in = value.getParent();
  llvm::SmallPtrSet<const llvm::BasicBlock*, 32> reached;
  std::vector<const llvm::BasicBlock*> work(llvm::succ_begin(&block), llvm::succ_end(&block));
  while (!work.empty()) {
    const llvm::BasicBlock* next = work.back();
    work.pop_back();
    if (next == defined_in || !reached.insert(next).second) continue;
    for (const llvm::BasicBlock* successor : llvm::successors(next)) work.push_back(successor);
  }
  return llvm::any_of(value.uses(), [&](const llvm::Use& use) {
    auto* user = llvm::cast<llvm::Instruction>(use.getUser());
    if (user == block.getTerminator()) return true;
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) {
      const llvm::BasicBlock* from = phi->getIncomingBlock(use);
      return from == &block || reached.contains(from);
    }
    return reached.contains(user->getParent());
  });
}

}  // namespace

std::vector<llvm::Instruction*> live_after(const llvm::BasicBlock& block, const llvm::DominatorTree& dominators) {
  std::vector<llvm::Instruction*> live;
  for (const llvm::BasicBlock& candidate : *block.getParent()) {
    if (!dominators.dominates(&candidate, &block)) continue;
    for (const llvm::Instruction& value : candidate) {
      if (!value.use_empty() && used_after(value, block)) live.push_back(const_cast<llvm::Instruction*>(&value));
    }
  }
  return live;
}

bool storable(const llvm::Type* type) {
  return type->isFirstClassType() && type->isSized() && !type->isTokenTy() && !type->isVoidTy() &&
         !type->isAggregateType();
}

llvm::Type* kept_type(llvm::Type* type) {
  if (!type->getScalarType()->isIntegerTy(1)) return type;
  llvm::Type* byte = llvm::Type::getInt8Ty(type->getContext());
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) return llvm::FixedVectorType::get(byte, vector->getNumElements());
  return byte;
}

llvm::Function* copy_with_parameters(llvm::Function& work_item, const std::string& suffix, llvm::Type* result,
                                     const std::vector<std::pair<llvm::Type*, const char*>>& extra,
                                     llvm::ValueToValueMapTy& map, std::vector<llvm::ReturnInst*>& returns) {
  std::vector<llvm::Type*> parameters(work_item.getFunctionType()->param_begin(), work_item.getFunctionType()->param_end());
  for (const auto& [type, name] : extra) parameters.push_back(type);
  llvm::Function* copy = llvm::Function::Create(llvm::FunctionType::get(result, parameters, false),
                                                llvm::GlobalValue::InternalLinkage, work_item.getName() + suffix,
                                                work_item.getParent());
  for (unsigned i = 0; i < work_item.arg_size(); ++i) {
    map[work_item.getArg(i)] = copy->getArg(i);
    copy->getArg(i)->setName(work_item.getArg(i)->getName());
  }
  for (unsigned i = 0; i < extra.size(); ++i) copy->getArg(work_item.arg_size() + i)->setName(extra[i].second);
  llvm::SmallVector<llvm::ReturnInst*, 4> cloned_returns;
  llvm::CloneFunctionInto(copy, &work_item, map, llvm::CloneFunctionChangeType::LocalChangesOnly, cloned_returns);
  copy->setLinkage(llvm::GlobalValue::InternalLinkage);
  returns.assign(cloned_returns.begin(), cloned_returns.end());
  return copy;
}

void reconnect(const SecondDefinitions& definitions) {
  for (const auto& [value, defined] : definitions) {
    llvm::SSAUpdater updater;
    updater.Initialize(value->getType(), value->getName());
    updater.AddAvailableValue(value->getParent(), value);
    for (auto [block, definition] : defined) updater.AddAvailableValue(block, definition);
    for (llvm::Use& use : llvm::make_early_inc_range(value->uses())) {
      auto* user = llvm::cast<llvm::Instruction>(use.getUser());
      if (user->getParent() == value->getParent() && !llvm::isa<llvm::PHINode>(user)) continue;  // below the definition
      updater.RewriteUse(use);
    }
  }
}

}  // namespace cucl::backend::host

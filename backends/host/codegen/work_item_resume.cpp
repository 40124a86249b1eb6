#include "backends/host/codegen/work_item_resume.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

namespace cucl::backend::host {
namespace {

// The values defined before the branch ending `block` (in blocks that dominate it) that the
// branch or any block after it uses. May name a few that are in fact recomputed first (a
// loop's header), which costs a store and a load.
std::vector<llvm::Instruction*> live_at_branch(const llvm::BasicBlock& block, const llvm::DominatorTree& dominators) {
  llvm::SmallPtrSet<const llvm::BasicBlock*, 32> after;
  std::vector<const llvm::BasicBlock*> work(llvm::succ_begin(&block), llvm::succ_end(&block));
  while (!work.empty()) {
    const llvm::BasicBlock* next = work.back();
    work.pop_back();
    if (!after.insert(next).second) continue;
    for (const llvm::BasicBlock* successor : llvm::successors(next)) work.push_back(successor);
  }
  std::vector<llvm::Instruction*> live;
  for (const llvm::BasicBlock& candidate : *block.getParent()) {
    if (!dominators.dominates(&candidate, &block)) continue;
    for (const llvm::Instruction& value : candidate) {
      const bool used = llvm::any_of(value.uses(), [&](const llvm::Use& use) {
        auto* user = llvm::cast<llvm::Instruction>(use.getUser());
        if (user == block.getTerminator()) return true;
        // A phi uses its value at the end of the block it comes from.
        if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) {
          const llvm::BasicBlock* from = phi->getIncomingBlock(use);
          return from == &block || after.contains(from);
        }
        return after.contains(user->getParent());
      });
      if (used) live.push_back(const_cast<llvm::Instruction*>(&value));
    }
  }
  return live;
}

bool storable(const llvm::Type* type) {
  return type->isFirstClassType() && type->isSized() && !type->isTokenTy() && !type->isVoidTy() &&
         !type->isAggregateType();
}

}  // namespace

llvm::Type* kept_type(llvm::Type* type) {
  if (!type->getScalarType()->isIntegerTy(1)) return type;
  llvm::Type* byte = llvm::Type::getInt8Ty(type->getContext());
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) return llvm::FixedVectorType::get(byte, vector->getNumElements());
  return byte;
}

llvm::Type* lanes_type(llvm::Type* type, unsigned width) {
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return llvm::FixedVectorType::get(type->getScalarType(), width * (vector ? vector->getNumElements() : 1));
}

ResumeFunction make_resume_function(llvm::Function& work_item, const std::vector<const llvm::BasicBlock*>& branches,
                                    const std::function<bool(const llvm::Value*)>& varying, unsigned width) {
  llvm::LLVMContext& c = work_item.getContext();
  ResumeFunction result;
  const llvm::DominatorTree dominators(work_item);
  for (const llvm::BasicBlock* block : branches) {
    ResumePoint point{block, live_at_branch(*block, dominators), nullptr};
    std::vector<llvm::Type*> fields;
    for (const llvm::Instruction* value : point.live) {
      if (!storable(value->getType())) {
        result.obstacle = "a value of a type that cannot be stored lives across a branch that differs between work-items";
        return result;
      }
      llvm::Type* kept = kept_type(value->getType());
      fields.push_back(varying(value) ? lanes_type(kept, width) : kept);
    }
    point.state = llvm::StructType::get(c, fields);
    result.points.push_back(std::move(point));
  }

  std::vector<llvm::Type*> parameters(work_item.getFunctionType()->param_begin(), work_item.getFunctionType()->param_end());
  const unsigned point_parameter = static_cast<unsigned>(parameters.size());
  parameters.push_back(llvm::Type::getInt32Ty(c));
  parameters.push_back(llvm::PointerType::get(c, 0));
  parameters.push_back(llvm::Type::getInt64Ty(c));
  llvm::Function* resume =
      llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(c), parameters, false),
                             llvm::GlobalValue::InternalLinkage, work_item.getName() + ".resume", work_item.getParent());
  llvm::ValueToValueMapTy map;
  for (unsigned i = 0; i < work_item.arg_size(); ++i) {
    map[work_item.getArg(i)] = resume->getArg(i);
    resume->getArg(i)->setName(work_item.getArg(i)->getName());
  }
  resume->getArg(point_parameter)->setName("point");
  resume->getArg(point_parameter + 1)->setName("state");
  resume->getArg(point_parameter + 2)->setName("lane");
  llvm::SmallVector<llvm::ReturnInst*, 4> returns;
  llvm::CloneFunctionInto(resume, &work_item, map, llvm::CloneFunctionChangeType::LocalChangesOnly, returns);
  resume->setLinkage(llvm::GlobalValue::InternalLinkage);
  resume->removeFnAttr(llvm::Attribute::AlwaysInline);
  resume->addFnAttr(llvm::Attribute::NoInline);  // called once per lane, on the slow path

  auto* dispatch = llvm::BasicBlock::Create(c, "dispatch", resume, &resume->getEntryBlock());
  auto* nowhere = llvm::BasicBlock::Create(c, "no_such_point", resume);
  llvm::IRBuilder<>(nowhere).CreateUnreachable();
  llvm::IRBuilder<> b(dispatch);
  llvm::SwitchInst* choice =
      b.CreateSwitch(resume->getArg(point_parameter), nowhere, static_cast<unsigned>(result.points.size()));
  // Each live value gets a second definition, loaded from the state, on each way in.
  llvm::MapVector<llvm::Instruction*, std::vector<std::pair<llvm::BasicBlock*, llvm::Value*>>> definitions;
  for (unsigned k = 0; k < result.points.size(); ++k) {
    const ResumePoint& point = result.points[k];
    auto* copy = llvm::cast<llvm::BasicBlock>(map[point.block]);
    llvm::BasicBlock* branch = copy->splitBasicBlock(copy->getTerminator(), "resume" + std::to_string(k));
    auto* entry = llvm::BasicBlock::Create(c, "enter" + std::to_string(k), resume);
    llvm::IRBuilder<> e(entry);
    const llvm::DataLayout& layout = work_item.getParent()->getDataLayout();
    for (unsigned i = 0; i < point.live.size(); ++i) {
      llvm::Value* field = e.CreateStructGEP(point.state, resume->getArg(point_parameter + 1), i);
      auto* value = llvm::cast<llvm::Instruction>(map[point.live[i]]);
      llvm::Type* kept = kept_type(value->getType());
      if (varying(point.live[i])) {
        // This lane's part of the stored vector (its elements are packed, whatever the type's own padding).
        auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(kept);
        const uint64_t bytes = layout.getTypeStoreSize(kept->getScalarType()) * (vector ? vector->getNumElements() : 1);
        field = e.CreateGEP(e.getInt8Ty(), field, e.CreateMul(resume->getArg(point_parameter + 2), e.getInt64(bytes)));
      }
      llvm::Value* loaded = e.CreateAlignedLoad(kept, field, llvm::Align(1), value->getName());
      if (kept != value->getType()) loaded = e.CreateTrunc(loaded, value->getType());
      definitions[value].emplace_back(entry, loaded);
    }
    e.CreateBr(branch);
    choice->addCase(e.getInt32(k), entry);
  }
  for (auto& [value, loaded] : definitions) {
    llvm::SSAUpdater updater;
    updater.Initialize(value->getType(), value->getName());
    updater.AddAvailableValue(value->getParent(), value);
    for (auto [entry, load] : loaded) updater.AddAvailableValue(entry, load);
    for (llvm::Use& use : llvm::make_early_inc_range(value->uses())) {
      auto* user = llvm::cast<llvm::Instruction>(use.getUser());
      if (user->getParent() == value->getParent() && !llvm::isa<llvm::PHINode>(user)) continue;  // below the definition
      updater.RewriteUse(use);
    }
  }
  llvm::removeUnreachableBlocks(*resume);
  result.function = resume;
  return result;
}

}  // namespace cucl::backend::host

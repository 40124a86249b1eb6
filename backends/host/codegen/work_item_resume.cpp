#include "backends/host/codegen/work_item_resume.h"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include "backends/host/codegen/live_values.h"

namespace cucl::backend::host {

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
    ResumePoint point{block, live_after(*block, dominators), nullptr};
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

  const unsigned point_parameter = static_cast<unsigned>(work_item.arg_size());
  llvm::ValueToValueMapTy map;
  std::vector<llvm::ReturnInst*> returns;
  llvm::Function* resume = copy_with_parameters(
      work_item, ".resume", work_item.getReturnType(),
      {{llvm::Type::getInt32Ty(c), "point"}, {llvm::PointerType::get(c, 0), "state"}, {llvm::Type::getInt64Ty(c), "lane"}},
      map, returns);
  resume->removeFnAttr(llvm::Attribute::AlwaysInline);
  resume->addFnAttr(llvm::Attribute::NoInline);  // called once per lane, on the slow path

  auto* dispatch = llvm::BasicBlock::Create(c, "dispatch", resume, &resume->getEntryBlock());
  auto* nowhere = llvm::BasicBlock::Create(c, "no_such_point", resume);
  llvm::IRBuilder<>(nowhere).CreateUnreachable();
  llvm::IRBuilder<> b(dispatch);
  llvm::SwitchInst* choice =
      b.CreateSwitch(resume->getArg(point_parameter), nowhere, static_cast<unsigned>(result.points.size()));
  // Each live value gets a second definition, loaded from the state, on each way in.
  SecondDefinitions definitions;
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
  reconnect(definitions);
  llvm::removeUnreachableBlocks(*resume);
  result.function = resume;
  return result;
}

}  // namespace cucl::backend::host

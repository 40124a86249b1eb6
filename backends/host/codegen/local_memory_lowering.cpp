#include "backends/host/codegen/local_memory_lowering.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "backends/host/codegen/context_layout.h"
#include "backends/host/work_group_abi.h"

namespace cucl::backend::host {
namespace {

constexpr unsigned kLocalAddressSpace = 3;

class LocalRewriter {
 public:
  explicit LocalRewriter(llvm::DenseMap<llvm::GlobalVariable*, llvm::Value*> addresses)
      : addresses_(std::move(addresses)) {}

  bool refers_to_local(llvm::Constant* constant) {
    if (auto* global = llvm::dyn_cast<llvm::GlobalVariable>(constant)) return addresses_.count(global) != 0;
    auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(constant);
    if (!expression) return false;
    if (auto cached = refers_.find(expression); cached != refers_.end()) return cached->second;
    bool refers = false;
    for (llvm::Value* operand : expression->operands()) {
      if (auto* inner = llvm::dyn_cast<llvm::Constant>(operand)) refers = refers || refers_to_local(inner);
    }
    refers_[expression] = refers;
    return refers;
  }

  // The value of `constant` with every __local global replaced by its arena address, as
  // instructions placed before `at`.
  llvm::Value* rebuild(llvm::Constant* constant, llvm::Instruction* at) {
    if (auto* global = llvm::dyn_cast<llvm::GlobalVariable>(constant)) {
      if (auto found = addresses_.find(global); found != addresses_.end()) return found->second;
      return constant;
    }
    auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(constant);
    if (!expression || !refers_to_local(expression)) return constant;
    llvm::Instruction* instruction = expression->getAsInstruction(at);
    for (unsigned i = 0; i < instruction->getNumOperands(); ++i) {
      if (auto* operand = llvm::dyn_cast<llvm::Constant>(instruction->getOperand(i))) {
        instruction->setOperand(i, rebuild(operand, instruction));
      }
    }
    return instruction;
  }

  void rewrite(llvm::Function& function) {
    std::vector<llvm::Instruction*> instructions;
    for (llvm::BasicBlock& block : function) {
      for (llvm::Instruction& instruction : block) instructions.push_back(&instruction);
    }
    for (llvm::Instruction* instruction : instructions) {
      for (unsigned i = 0; i < instruction->getNumOperands(); ++i) {
        auto* operand = llvm::dyn_cast<llvm::Constant>(instruction->getOperand(i));
        if (!operand || !refers_to_local(operand)) continue;
        llvm::Instruction* at = instruction;
        if (auto* phi = llvm::dyn_cast<llvm::PHINode>(instruction)) at = phi->getIncomingBlock(i)->getTerminator();
        instruction->setOperand(i, rebuild(operand, at));
      }
    }
  }

 private:
  llvm::DenseMap<llvm::GlobalVariable*, llvm::Value*> addresses_;
  llvm::DenseMap<llvm::ConstantExpr*, bool> refers_;
};

bool used_in(llvm::Value* value, const llvm::Function& function) {
  for (llvm::User* user : value->users()) {
    if (auto* instruction = llvm::dyn_cast<llvm::Instruction>(user)) {
      if (instruction->getFunction() == &function) return true;
    } else if (llvm::isa<llvm::ConstantExpr>(user) && used_in(user, function)) {
      return true;
    }
  }
  return false;
}

}  // namespace

uint64_t lower_local_variables(llvm::Function& work_item, llvm::StructType* context_type) {
  llvm::Module& module = *work_item.getParent();
  const llvm::DataLayout& layout = module.getDataLayout();
  std::vector<llvm::GlobalVariable*> locals;
  for (llvm::GlobalVariable& global : module.globals()) {
    if (global.getAddressSpace() == kLocalAddressSpace && used_in(&global, work_item)) locals.push_back(&global);
  }
  if (locals.empty()) return 0;

  llvm::IRBuilder<> b(&*work_item.getEntryBlock().getFirstInsertionPt());
  // Invariant: computed again after a barrier rather than kept (barrier_regions.h).
  llvm::Value* arena = load_context_field(b, context_type, work_item.getArg(1), kLocalMemory, b.getPtrTy());
  llvm::DenseMap<llvm::GlobalVariable*, llvm::Value*> addresses;
  uint64_t offset = 0;
  for (llvm::GlobalVariable* global : locals) {
    const uint64_t alignment = std::max<uint64_t>(16, global->getAlign().valueOrOne().value());
    offset = (offset + alignment - 1) / alignment * alignment;
    llvm::Value* address = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), arena, offset);
    addresses[global] = b.CreateAddrSpaceCast(address, global->getType());
    offset += layout.getTypeAllocSize(global->getValueType());
  }
  LocalRewriter(std::move(addresses)).rewrite(work_item);
  return offset;
}

}  // namespace cucl::backend::host

#include "backends/host/codegen/call_abi_matching.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace cucl::backend::host {
namespace {

// A stack slot in the caller's entry block, big and aligned enough for both types.
llvm::AllocaInst* slot_for(llvm::Function& caller, llvm::Type* a, llvm::Type* b) {
  const llvm::DataLayout& layout = caller.getParent()->getDataLayout();
  llvm::Type* larger = layout.getTypeAllocSize(a) >= layout.getTypeAllocSize(b) ? a : b;
  llvm::IRBuilder<> entry(&*caller.getEntryBlock().getFirstInsertionPt());
  llvm::AllocaInst* slot = entry.CreateAlloca(larger);
  slot->setAlignment(std::max(layout.getPrefTypeAlign(a), layout.getPrefTypeAlign(b)));
  return slot;
}

// `value` as `type`, the same bytes read through memory (sizes may differ: a float3 is
// passed as a <4 x float>, the lane past its end undefined).
llvm::Value* reinterpret(llvm::IRBuilder<>& b, llvm::Function& caller, llvm::Value* value, llvm::Type* type) {
  if (value->getType() == type) return value;
  llvm::AllocaInst* slot = slot_for(caller, value->getType(), type);
  b.CreateStore(value, slot);
  return b.CreateLoad(type, slot);
}

// Rewrites `call` to `callee`'s own function type; false if the parameters cannot be paired.
bool match(llvm::CallInst& call, llvm::Function& callee) {
  llvm::FunctionType* wanted = callee.getFunctionType();
  llvm::Function& caller = *call.getFunction();
  const unsigned given = call.arg_size();
  const bool sret = wanted->getNumParams() == given + 1 && callee.hasParamAttribute(0, llvm::Attribute::StructRet);
  if (!sret && wanted->getNumParams() != given) return false;
  llvm::IRBuilder<> b(&call);
  std::vector<llvm::Value*> arguments;
  llvm::AllocaInst* result_slot = nullptr;
  if (sret) {
    llvm::Type* result = callee.getParamStructRetType(0);
    result_slot = slot_for(caller, result, result);
    arguments.push_back(result_slot);
  }
  for (unsigned i = 0; i < given; ++i) {
    const unsigned p = i + (sret ? 1 : 0);
    llvm::Value* value = call.getArgOperand(i);
    if (llvm::Type* byval = callee.getParamByValType(p); byval && !value->getType()->isPointerTy()) {
      llvm::AllocaInst* slot = slot_for(caller, byval, value->getType());
      b.CreateStore(value, slot);
      arguments.push_back(slot);
    } else {
      arguments.push_back(reinterpret(b, caller, value, wanted->getParamType(p)));
    }
  }
  llvm::CallInst* replacement = b.CreateCall(wanted, &callee, arguments);
  replacement->setCallingConv(callee.getCallingConv());
  replacement->setAttributes(callee.getAttributes());
  llvm::Value* result = replacement;
  if (sret) {
    result = b.CreateLoad(call.getType(), result_slot);
  } else if (!call.getType()->isVoidTy()) {
    result = reinterpret(b, caller, replacement, call.getType());
  }
  if (!call.getType()->isVoidTy()) call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return true;
}

}  // namespace

std::string match_call_abis(llvm::Module& module) {
  std::vector<std::pair<llvm::CallInst*, llvm::Function*>> mismatched;
  for (llvm::Function& function : module) {
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      if (!call) continue;
      auto* callee = llvm::dyn_cast<llvm::Function>(call->getCalledOperand());
      if (callee && !callee->isDeclaration() && call->getFunctionType() != callee->getFunctionType()) {
        mismatched.emplace_back(call, callee);
      }
    }
  }
  std::string errors;
  for (auto [call, callee] : mismatched) {
    if (!match(*call, *callee)) {
      errors += "error: internal: the call to '" + callee->getName().str() + "' does not match its definition\n";
    }
  }
  return errors;
}

}  // namespace cucl::backend::host

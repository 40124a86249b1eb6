#include "backends/codegen/private_volatiles.h"

#include <vector>

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace cucl::backend {
namespace {

// The loads and stores of `pointer` (through casts and element addresses), or false when
// the address goes anywhere else: stored, passed to a call, compared, converted.
bool only_loaded_and_stored(llvm::Value* pointer, std::vector<llvm::Instruction*>& accesses) {
  for (llvm::User* user : pointer->users()) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      accesses.push_back(load);
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      if (store->getValueOperand() == pointer) return false;
      accesses.push_back(store);
    } else if (llvm::isa<llvm::GetElementPtrInst, llvm::BitCastInst>(user)) {
      if (!only_loaded_and_stored(user, accesses)) return false;
    } else if (const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(user);
               !intrinsic || !intrinsic->isLifetimeStartOrEnd()) {
      return false;
    }
  }
  return true;
}

}  // namespace

void drop_volatile_from_private_variables(llvm::Module& module) {
  for (llvm::Function& function : module) {
    for (llvm::BasicBlock& block : function) {
      for (llvm::Instruction& instruction : block) {
        auto* variable = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
        std::vector<llvm::Instruction*> accesses;
        if (!variable || !only_loaded_and_stored(variable, accesses)) continue;
        for (llvm::Instruction* access : accesses) {
          if (auto* load = llvm::dyn_cast<llvm::LoadInst>(access)) load->setVolatile(false);
          if (auto* store = llvm::dyn_cast<llvm::StoreInst>(access)) store->setVolatile(false);
        }
      }
    }
  }
}

}  // namespace cucl::backend

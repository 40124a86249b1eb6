#include "backends/codegen/work_group_scratch.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace cucl::backend {
namespace {

// __local in the front end's address-space map, which both code generators start from.
constexpr unsigned kLocalAddressSpace = 3;
constexpr const char* kScratchName = "cucl.work_group_scratch";

}  // namespace

void provide_work_group_scratch(llvm::Module& module, uint64_t bytes) {
  llvm::Function* function = module.getFunction(kWorkGroupScratchFunction);
  if (!function) return;
  if (!function->use_empty()) {
    auto* type = llvm::ArrayType::get(llvm::Type::getInt64Ty(module.getContext()), (bytes + 7) / 8);
    auto* scratch = new llvm::GlobalVariable(module, type, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
                                             llvm::UndefValue::get(type), kScratchName, nullptr,
                                             llvm::GlobalValue::NotThreadLocal, kLocalAddressSpace);
    scratch->setAlignment(llvm::Align(16));
    for (llvm::User* user : llvm::make_early_inc_range(function->users())) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call) continue;
      llvm::Constant* address = llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(scratch, call->getType());
      call->replaceAllUsesWith(address);
      call->eraseFromParent();
    }
  }
  if (function->use_empty()) function->eraseFromParent();
}

bool uses_work_group_scratch(const llvm::Function& function) {
  const llvm::GlobalVariable* scratch = function.getParent()->getNamedGlobal(kScratchName);
  if (!scratch) return false;
  return llvm::any_of(function, [&](const llvm::BasicBlock& block) {
    return llvm::any_of(block, [&](const llvm::Instruction& instruction) {
      return llvm::any_of(instruction.operand_values(), [&](const llvm::Value* operand) {
        return operand->stripPointerCasts() == scratch;
      });
    });
  });
}

}  // namespace cucl::backend

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

}  // namespace

void provide_work_group_scratch(llvm::Module& module, uint64_t bytes) {
  llvm::Function* function = module.getFunction(kWorkGroupScratchFunction);
  if (!function) return;
  if (!function->use_empty()) {
    auto* type = llvm::ArrayType::get(llvm::Type::getInt64Ty(module.getContext()), (bytes + 7) / 8);
    auto* scratch = new llvm::GlobalVariable(module, type, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
                                             llvm::UndefValue::get(type), "cucl.work_group_scratch", nullptr,
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

}  // namespace cucl::backend

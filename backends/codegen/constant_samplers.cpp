#include "backends/codegen/constant_samplers.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace cucl::backend {

void lower_constant_samplers(llvm::Module& module) {
  llvm::Function* function = module.getFunction(kSamplerInitializerFunction);
  if (!function) return;
  for (llvm::User* user : llvm::make_early_inc_range(function->users())) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call || call->arg_size() != 1) continue;
    llvm::IRBuilder<> builder(call);
    llvm::Value* bits = builder.CreateZExtOrTrunc(call->getArgOperand(0), builder.getInt64Ty());
    call->replaceAllUsesWith(builder.CreateIntToPtr(bits, call->getType()));
    call->eraseFromParent();
  }
  if (function->use_empty()) function->eraseFromParent();
}

}  // namespace cucl::backend

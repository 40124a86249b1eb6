#include "backends/cuda/codegen/textured_variants.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "backends/cuda/kernel_abi.h"

namespace cucl::backend::cuda {
namespace {

constexpr const char* kQuery = "__cucl_images_textured";

std::vector<llvm::CallInst*> queries_in(llvm::Function& function, const llvm::Function& query) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    if (call && call->getCalledFunction() == &query) calls.push_back(call);
  }
  return calls;
}

void answer(const std::vector<llvm::CallInst*>& calls, bool textured) {
  for (llvm::CallInst* call : calls) {
    call->replaceAllUsesWith(llvm::ConstantInt::getBool(call->getContext(), textured));
    call->eraseFromParent();
  }
}

}  // namespace

std::vector<llvm::Function*> make_textured_variants(llvm::Module& module, const std::vector<llvm::Function*>& entries) {
  std::vector<llvm::Function*> variants(entries.size(), nullptr);
  llvm::Function* query = module.getFunction(kQuery);
  if (!query) return variants;
  for (size_t i = 0; i < entries.size(); ++i) {
    std::vector<llvm::CallInst*> calls = queries_in(*entries[i], *query);
    if (calls.empty()) continue;
    llvm::ValueToValueMapTy clone_map;
    llvm::Function* variant = llvm::CloneFunction(entries[i], clone_map);
    variant->setName(entries[i]->getName() + kTexturedEntrySuffix);
    answer(queries_in(*variant, *query), true);
    answer(calls, false);
    variants[i] = variant;
  }
  return variants;
}

}  // namespace cucl::backend::cuda

#include "backends/cuda/codegen/half_extending_loads.h"

#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace cucl::backend::cuda {

void keep_half_vector_loads_apart_from_fpext(llvm::Module& module) {
  std::vector<llvm::FPExtInst*> extensions;
  for (llvm::Function& function : module) {
    for (llvm::BasicBlock& block : function) {
      for (llvm::Instruction& instruction : block) {
        auto* extension = llvm::dyn_cast<llvm::FPExtInst>(&instruction);
        if (!extension) continue;
        llvm::Type* source = extension->getSrcTy();
        if (source->isVectorTy() && source->getScalarType()->isHalfTy() &&
            llvm::isa<llvm::LoadInst>(extension->getOperand(0))) {
          extensions.push_back(extension);
        }
      }
    }
  }
  for (llvm::FPExtInst* extension : extensions) {
    llvm::IRBuilder<> builder(extension);
    extension->setOperand(0, builder.CreateFreeze(extension->getOperand(0)));
  }
}

}  // namespace cucl::backend::cuda

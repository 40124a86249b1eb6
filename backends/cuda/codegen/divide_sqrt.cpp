#include "backends/cuda/codegen/divide_sqrt.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace cucl::backend::cuda {
namespace {

bool is_fp32(llvm::Type* type) { return type->getScalarType()->isFloatTy(); }

// A divisor the optimizer turns into an exact multiplication: a power of two (in every lane).
bool exact_reciprocal(llvm::Value* divisor) {
  auto* constant = llvm::dyn_cast<llvm::Constant>(divisor);
  if (!constant) return false;
  if (auto* splat = constant->getSplatValue()) constant = splat;
  auto* scalar = llvm::dyn_cast<llvm::ConstantFP>(constant);
  return scalar && scalar->getValueAPF().getExactInverse(nullptr);
}

// The OpenCL C sqrt overloads for float and its vectors (Itanium mangling), and llvm.sqrt.
bool is_fp32_sqrt(const llvm::Function& function) {
  if (!is_fp32(function.getReturnType()) || function.arg_size() != 1) return false;
  const llvm::StringRef name = function.getName();
  return name == "_Z4sqrtf" || (name.startswith("_Z4sqrtDv") && name.endswith("_f")) ||
         function.getIntrinsicID() == llvm::Intrinsic::sqrt;
}

// Applies `scalar` to each lane of `value` (or to `value` itself).
template <class Scalar>
llvm::Value* per_lane(llvm::IRBuilder<>& b, llvm::Value* value, llvm::Value* other, Scalar scalar) {
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(value->getType());
  if (!vector) return scalar(value, other);
  llvm::Value* result = llvm::PoisonValue::get(vector);
  for (unsigned lane = 0; lane < vector->getNumElements(); ++lane) {
    llvm::Value* x = b.CreateExtractElement(value, lane);
    llvm::Value* y = other ? b.CreateExtractElement(other, lane) : nullptr;
    result = b.CreateInsertElement(result, scalar(x, y), lane);
  }
  return result;
}

}  // namespace

void use_fast_fp32_divide_and_sqrt(llvm::Module& module, bool flush_denormals) {
  llvm::LLVMContext& context = module.getContext();
  llvm::Type* f32 = llvm::Type::getFloatTy(context);
  llvm::InlineAsm* divide = llvm::InlineAsm::get(
      llvm::FunctionType::get(f32, {f32, f32}, false),
      flush_denormals ? "div.full.ftz.f32 $0, $1, $2;" : "div.full.f32 $0, $1, $2;", "=f,f,f", false);
  llvm::Function* sqrt_approx = llvm::Intrinsic::getDeclaration(
      &module, flush_denormals ? llvm::Intrinsic::nvvm_sqrt_approx_ftz_f : llvm::Intrinsic::nvvm_sqrt_approx_f);

  std::vector<llvm::Instruction*> replaced;
  for (llvm::Function& function : module) {
    for (llvm::BasicBlock& block : function) {
      for (llvm::Instruction& instruction : block) {
        llvm::IRBuilder<> b(&instruction);
        llvm::Value* fast = nullptr;
        if (instruction.getOpcode() == llvm::Instruction::FDiv && is_fp32(instruction.getType()) &&
            !exact_reciprocal(instruction.getOperand(1))) {
          fast = per_lane(b, instruction.getOperand(0), instruction.getOperand(1),
                          [&](llvm::Value* x, llvm::Value* y) { return b.CreateCall(divide, {x, y}); });
        } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction)) {
          const llvm::Function* callee = call->getCalledFunction();
          if (callee && is_fp32_sqrt(*callee)) {
            fast = per_lane(b, call->getArgOperand(0), nullptr,
                            [&](llvm::Value* x, llvm::Value*) { return b.CreateCall(sqrt_approx, {x}); });
          }
        }
        if (!fast) continue;
        instruction.replaceAllUsesWith(fast);
        replaced.push_back(&instruction);
      }
    }
  }
  for (llvm::Instruction* instruction : replaced) instruction->eraseFromParent();
}

}  // namespace cucl::backend::cuda

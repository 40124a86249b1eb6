#include "backends/host/codegen/context_layout.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>

#include "backends/host/work_group_abi.h"

namespace cucl::backend::host {

llvm::StructType* work_group_context_type(llvm::LLVMContext& c) {
  llvm::Type* three = llvm::ArrayType::get(llvm::Type::getInt64Ty(c), 3);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  // In the order of WorkGroupContextField.
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  return llvm::StructType::get(c, {three, three, three, three, three, three, i32, i32, ptr, ptr, ptr, i64, ptr, ptr, ptr});
}

llvm::LoadInst* mark_invariant(llvm::LoadInst* load) {
  load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(load->getContext(), {}));
  return load;
}

llvm::LoadInst* load_context_field(llvm::IRBuilder<>& b, llvm::StructType* context_type, llvm::Value* context,
                                   unsigned field, llvm::Type* type) {
  return mark_invariant(b.CreateLoad(type, b.CreateStructGEP(context_type, context, field)));
}

llvm::LoadInst* load_context_element(llvm::IRBuilder<>& b, llvm::StructType* context_type, llvm::Value* context,
                                     unsigned field, unsigned element) {
  llvm::Value* indices[] = {b.getInt32(0), b.getInt32(field), b.getInt32(element)};
  return mark_invariant(b.CreateLoad(b.getInt64Ty(), b.CreateInBoundsGEP(context_type, context, indices)));
}

static_assert(sizeof(WorkGroupContext) == 6 * 24 + 8 + 56, "WorkGroupContext must match its IR layout");

}  // namespace cucl::backend::host

#include "backends/host/codegen/context_layout.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/LLVMContext.h>

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

static_assert(sizeof(WorkGroupContext) == 6 * 24 + 8 + 56, "WorkGroupContext must match its IR layout");

}  // namespace cucl::backend::host

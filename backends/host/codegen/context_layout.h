// WorkGroupContext (backends/host/work_group_abi.h) as an LLVM struct type, and loads of its
// fields.
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace cucl::backend::host {

llvm::StructType* work_group_context_type(llvm::LLVMContext& context);

// Marks `load` invariant: a work-group's context, and a launch's arguments, never change
// while its work-items run, so such loads may leave any loop and be computed again anywhere.
llvm::LoadInst* mark_invariant(llvm::LoadInst* load);

// context->field (of `type`), and context->field[element] of the size fields (three i64),
// as invariant loads.
llvm::LoadInst* load_context_field(llvm::IRBuilder<>& b, llvm::StructType* context_type, llvm::Value* context,
                                   unsigned field, llvm::Type* type);
llvm::LoadInst* load_context_element(llvm::IRBuilder<>& b, llvm::StructType* context_type, llvm::Value* context,
                                     unsigned field, unsigned element);

}  // namespace cucl::backend::host

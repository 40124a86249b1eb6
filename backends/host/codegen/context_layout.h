// WorkGroupContext (backends/host/work_group_abi.h) as an LLVM struct type.
#pragma once

namespace llvm {
class LLVMContext;
class StructType;
class Value;
class IRBuilderBase;
}  // namespace llvm

namespace cucl::backend::host {

llvm::StructType* work_group_context_type(llvm::LLVMContext& context);

}  // namespace cucl::backend::host

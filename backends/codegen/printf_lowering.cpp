#include "backends/codegen/printf_lowering.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

namespace cucl::backend {
namespace {

// How one variadic argument is recorded; false for a type printf cannot take.
bool describe(llvm::Value* value, PrintfArgument& argument) {
  llvm::Type* type = value->getType();
  if (type->isPointerTy()) {
    llvm::StringRef text;
    if (llvm::getConstantStringInfo(value->stripPointerCasts(), text)) {
      argument.kind = PrintfArgument::Kind::String;
      argument.text = text.str();
    } else {
      argument.kind = PrintfArgument::Kind::Pointer;
      argument.element_bytes = 8;
    }
    return true;
  }
  llvm::Type* element = type;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    argument.width = static_cast<uint8_t>(vector->getNumElements());
    element = vector->getElementType();
  }
  if (element->isIntegerTy()) {
    argument.kind = PrintfArgument::Kind::Int;
    argument.element_bytes = static_cast<uint8_t>(std::max(1u, element->getIntegerBitWidth() / 8));
  } else if (element->isFloatTy() || element->isDoubleTy() || element->isHalfTy()) {
    argument.kind = PrintfArgument::Kind::Float;
    argument.element_bytes = static_cast<uint8_t>(element->getPrimitiveSizeInBits() / 8);
  } else {
    return false;
  }
  return true;
}

void lower_call(llvm::CallInst& call, llvm::Value* buffer, uint32_t site_id, const PrintfCallSite& site) {
  llvm::IRBuilder<> b(&call);
  size_t record_bytes = kPrintfRecordHeaderBytes;
  for (const PrintfArgument& argument : site.arguments) record_bytes += argument.record_bytes();

  llvm::Value* offset = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, buffer, b.getInt64(record_bytes),
                                          llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
  llvm::Value* capacity = b.CreateLoad(b.getInt64Ty(), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), buffer, 8));
  llvm::Value* fits = b.CreateICmpULE(b.CreateAdd(offset, b.getInt64(record_bytes)), capacity);

  llvm::Instruction* then = llvm::SplitBlockAndInsertIfThen(fits, &call, false);
  b.SetInsertPoint(then);
  llvm::Value* record = b.CreateInBoundsGEP(b.getInt8Ty(), buffer, b.CreateAdd(offset, b.getInt64(kPrintfHeaderBytes)));
  b.CreateAlignedStore(b.getInt32(static_cast<uint32_t>(record_bytes)), record, llvm::Align(1));
  b.CreateAlignedStore(b.getInt32(site_id), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), record, 4), llvm::Align(1));
  size_t at = kPrintfRecordHeaderBytes;
  for (size_t i = 0; i < site.arguments.size(); ++i) {
    const PrintfArgument& argument = site.arguments[i];
    if (argument.kind == PrintfArgument::Kind::String) continue;
    llvm::Value* value = call.getArgOperand(static_cast<unsigned>(i + 1));
    if (value->getType()->isPointerTy()) value = b.CreatePtrToInt(value, b.getInt64Ty());
    b.CreateAlignedStore(value, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), record, at), llvm::Align(1));
    at += argument.record_bytes();
  }

  b.SetInsertPoint(&call);
  call.replaceAllUsesWith(b.CreateSelect(fits, b.getInt32(0), b.getInt32(-1)));
  call.eraseFromParent();
}

}  // namespace

bool lower_printf(llvm::Function& function, PrintfBufferSource buffer, std::vector<PrintfCallSite>& sites,
                  std::string& error) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::BasicBlock& block : function) {
    for (llvm::Instruction& instruction : block) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      if (call && call->getCalledFunction() && call->getCalledFunction()->getName() == "printf") calls.push_back(call);
    }
  }
  for (llvm::CallInst* call : calls) {
    PrintfCallSite site;
    llvm::StringRef format;
    if (call->arg_size() == 0 || !llvm::getConstantStringInfo(call->getArgOperand(0)->stripPointerCasts(), format)) {
      error += "error: the format of printf must be a string literal\n";
      return false;
    }
    site.format = format.str();
    // Large vectors arrive by reference (byval) under some variadic ABIs (x86-64): read them.
    for (unsigned i = 1; i < call->arg_size(); ++i) {
      if (llvm::Type* type = call->getParamByValType(i)) {
        llvm::IRBuilder<> b(call);
        call->setArgOperand(i, b.CreateLoad(type, call->getArgOperand(i)));
      }
    }
    for (unsigned i = 1; i < call->arg_size(); ++i) {
      PrintfArgument argument;
      if (!describe(call->getArgOperand(i), argument)) {
        error += "error: printf cannot print argument " + std::to_string(i) + " of \"" + site.format + "\"\n";
        return false;
      }
      site.arguments.push_back(std::move(argument));
    }
    const auto id = static_cast<uint32_t>(sites.size());
    sites.push_back(std::move(site));
    lower_call(*call, buffer(*call), id, sites.back());
  }
  return !calls.empty();
}

}  // namespace cucl::backend

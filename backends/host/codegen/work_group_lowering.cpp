#include "backends/host/codegen/work_group_lowering.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

#include <map>

#include "backends/codegen/module_tools.h"
#include "backends/codegen/printf_lowering.h"
#include "backends/host/codegen/context_layout.h"
#include "backends/host/codegen/local_memory_lowering.h"
#include "backends/host/codegen/work_item_builtins.h"
#include "backends/host/work_group_abi.h"

namespace cucl::backend::host {
namespace {

// void <kernel>.cucl_wi(ptr args, ptr context, i64 x, i64 y, i64 z): unpacks the
// arguments and calls the kernel, which the inliner then dissolves into it.
llvm::Function* make_work_item_function(llvm::Function& kernel) {
  llvm::LLVMContext& c = kernel.getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr, i64, i64, i64}, false);
  auto* function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                          kernel.getName() + kWorkItemSuffix, kernel.getParent());
  function->addParamAttr(0, llvm::Attribute::NoAlias);
  function->addParamAttr(0, llvm::Attribute::ReadOnly);
  function->addParamAttr(1, llvm::Attribute::NoAlias);
  function->addParamAttr(1, llvm::Attribute::ReadOnly);
  for (const char* attribute : {"target-cpu", "target-features", "denormal-fp-math", "denormal-fp-math-f32",
                                "unsafe-fp-math", "no-nans-fp-math", "no-infs-fp-math", "no-signed-zeros-fp-math",
                                "less-precise-fpmad", "uniform-work-group-size"}) {
    if (kernel.hasFnAttribute(attribute)) function->addFnAttr(kernel.getFnAttribute(attribute));
  }
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", function));
  // Argument values never change during a launch: invariant loads let LLVM hoist them out
  // of the work-item loops even past stores to buffers.
  llvm::MDNode* invariant = llvm::MDNode::get(c, {});
  std::vector<llvm::Value*> values;
  for (llvm::Argument& param : kernel.args()) {
    llvm::LoadInst* slot = b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, function->getArg(0), param.getArgNo()));
    slot->setMetadata(llvm::LLVMContext::MD_invariant_load, invariant);
    if (param.hasByValAttr()) {
      values.push_back(slot);  // the call's byval copies it, so each work-item has its own
    } else {
      llvm::LoadInst* value = b.CreateLoad(param.getType(), slot);
      value->setAlignment(llvm::Align(1));
      value->setMetadata(llvm::LLVMContext::MD_invariant_load, invariant);
      values.push_back(value);
    }
  }
  llvm::CallInst* call = b.CreateCall(&kernel, values);
  call->setAttributes(kernel.getAttributes());
  call->setCallingConv(llvm::CallingConv::C);
  b.CreateRetVoid();
  return function;
}

// void <kernel>.cucl_wg(ptr args, ptr context): for z, y, x in the group: the work-item.
void make_work_group_function(llvm::Function& work_item, llvm::StructType* context_type, const std::string& name) {
  llvm::LLVMContext& c = work_item.getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr}, false);
  auto* function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name + kWorkGroupSuffix,
                                          work_item.getParent());
  for (unsigned i = 0; i < 2; ++i) {
    function->addParamAttr(i, llvm::Attribute::NoAlias);
    function->addParamAttr(i, llvm::Attribute::ReadOnly);
  }
  for (const llvm::Attribute& attribute : work_item.getAttributes().getFnAttrs()) {
    if (attribute.isStringAttribute()) function->addFnAttr(attribute);
  }
  llvm::Argument* args = function->getArg(0);
  llvm::Argument* context = function->getArg(1);

  llvm::BasicBlock* entry = llvm::BasicBlock::Create(c, "entry", function);
  llvm::IRBuilder<> b(entry);
  llvm::Value* sizes[3];
  for (unsigned d = 0; d < 3; ++d) {
    sizes[d] = b.CreateLoad(i64, b.CreateInBoundsGEP(context_type, context, {b.getInt32(0), b.getInt32(kLocalSize), b.getInt32(d)}));
  }
  // Nested loops, outermost z. Each loop: header with the index phi, body, latch.
  llvm::Value* index[3] = {nullptr, nullptr, nullptr};
  llvm::BasicBlock* exits[3];
  llvm::BasicBlock* latches[3];
  llvm::PHINode* phis[3];
  llvm::BasicBlock* current = entry;
  for (int d = 2; d >= 0; --d) {
    llvm::BasicBlock* header = llvm::BasicBlock::Create(c, "loop" + std::to_string(d), function);
    b.SetInsertPoint(current);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    phis[d] = b.CreatePHI(i64, 2);
    phis[d]->addIncoming(b.getInt64(0), current);
    index[d] = phis[d];
    latches[d] = llvm::BasicBlock::Create(c, "next" + std::to_string(d), function);
    exits[d] = llvm::BasicBlock::Create(c, "done" + std::to_string(d), function);
    current = header;
  }
  b.SetInsertPoint(current);
  llvm::CallInst* call = b.CreateCall(&work_item, {args, context, index[0], index[1], index[2]});
  call->setCallingConv(llvm::CallingConv::C);
  b.CreateBr(latches[0]);
  for (int d = 0; d < 3; ++d) {
    b.SetInsertPoint(latches[d]);
    llvm::Value* next = b.CreateAdd(index[d], b.getInt64(1), "", /*HasNUW=*/true, /*HasNSW=*/true);
    phis[d]->addIncoming(next, latches[d]);
    b.CreateCondBr(b.CreateICmpULT(next, sizes[d]), phis[d]->getParent(), exits[d]);
    b.SetInsertPoint(exits[d]);
    if (d < 2) {
      b.CreateBr(latches[d + 1]);
    } else {
      b.CreateRetVoid();
    }
  }
  work_item.setLinkage(llvm::GlobalValue::InternalLinkage);
  work_item.addFnAttr(llvm::Attribute::AlwaysInline);
}

void add_info_record(llvm::Module& module, const std::string& name, uint64_t local_bytes, bool has_barriers,
                     bool uses_printf) {
  llvm::LLVMContext& c = module.getContext();
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  auto* type = llvm::StructType::get(c, {i64, i32, i32, i64});
  // The private memory size is filled in after optimisation (record_private_memory).
  auto* value = llvm::ConstantStruct::get(
      type, {llvm::ConstantInt::get(i64, local_bytes), llvm::ConstantInt::get(i32, has_barriers ? 1 : 0),
             llvm::ConstantInt::get(i32, uses_printf ? 1 : 0), llvm::ConstantInt::get(i64, 0)});
  new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::ExternalLinkage, value, name + kInfoSuffix);
}

void add_printf_table(llvm::Module& module, const std::vector<PrintfCallSite>& sites) {
  llvm::LLVMContext& c = module.getContext();
  const std::string table = encode_printf_table(sites);
  auto* data = llvm::ConstantDataArray::getRaw(table, table.size(), llvm::Type::getInt8Ty(c));
  new llvm::GlobalVariable(module, data->getType(), true, llvm::GlobalValue::ExternalLinkage, data, kPrintfTable);
  new llvm::GlobalVariable(module, llvm::Type::getInt64Ty(c), true, llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantInt::get(llvm::Type::getInt64Ty(c), table.size()), kPrintfTableSize);
}

}  // namespace

std::string record_private_memory(llvm::Module& module) {
  std::string errors;
  const llvm::DataLayout& layout = module.getDataLayout();
  for (llvm::GlobalVariable& info : module.globals()) {
    if (!info.getName().endswith(kInfoSuffix) || !info.hasInitializer()) continue;
    const std::string kernel = info.getName().drop_back(std::string_view(kInfoSuffix).size()).str();
    llvm::Function* entry = module.getFunction(kernel + kWorkGroupSuffix);
    if (!entry) entry = module.getFunction(kernel + kWorkItemSuffix);
    if (!entry || entry->isDeclaration()) continue;
    uint64_t bytes = 0;
    for (llvm::Instruction& instruction : entry->getEntryBlock()) {
      auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
      if (!alloca) continue;
      if (auto size = alloca->getAllocationSizeInBits(layout)) bytes += *size / 8;
    }
    if (bytes > kMaxPrivateMemoryBytes) {
      errors += "error: kernel '" + kernel + "' needs " + std::to_string(bytes) +
                " bytes of private memory per work-item; the host device allows " +
                std::to_string(kMaxPrivateMemoryBytes) + "\n";
    }
    // The optimiser may have turned the record into a zeroinitializer: read it element-wise.
    llvm::Constant* record = info.getInitializer();
    auto* type = llvm::cast<llvm::StructType>(record->getType());
    std::vector<llvm::Constant*> fields;
    for (unsigned i = 0; i < type->getNumElements(); ++i) fields.push_back(record->getAggregateElement(i));
    fields[3] = llvm::ConstantInt::get(llvm::Type::getInt64Ty(module.getContext()), bytes);
    info.setInitializer(llvm::ConstantStruct::get(type, fields));
  }
  return errors;
}

std::string lower_work_groups(llvm::Module& module) {
  if (std::string error = find_recursion(module); !error.empty()) return error;

  std::vector<llvm::Function*> kernels = prepare_kernels_for_inlining(module);

  std::vector<std::pair<std::string, llvm::Function*>> work_items;
  for (llvm::Function* kernel : kernels) work_items.emplace_back(kernel->getName().str(), make_work_item_function(*kernel));
  for (llvm::Function* kernel : kernels) kernel->setLinkage(llvm::GlobalValue::InternalLinkage);
  run_always_inliner(module);

  llvm::StructType* context_type = work_group_context_type(module.getContext());
  std::vector<PrintfCallSite> printf_sites;
  for (auto& [name, work_item] : work_items) {
    std::string error;
    auto printf_buffer = [&](llvm::Instruction& call) -> llvm::Value* {
      llvm::IRBuilder<> b(&call);
      llvm::LoadInst* buffer =
          b.CreateLoad(b.getPtrTy(), b.CreateStructGEP(context_type, work_item->getArg(1), kPrintfBuffer));
      buffer->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(call.getContext(), {}));
      return buffer;
    };
    const bool uses_printf = lower_printf(*work_item, printf_buffer, printf_sites, error);
    if (!error.empty()) return error;
    const bool has_barriers = lower_work_item_builtins(*work_item, context_type);
    const uint64_t local_bytes = lower_local_variables(*work_item, context_type);
    if (!has_barriers) make_work_group_function(*work_item, context_type, name);
    add_info_record(module, name, local_bytes, has_barriers, uses_printf);
  }
  add_printf_table(module, printf_sites);
  run_always_inliner(module);
  return {};
}

}  // namespace cucl::backend::host

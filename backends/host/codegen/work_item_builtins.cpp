#include "backends/host/codegen/work_item_builtins.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <string_view>

#include "backends/codegen/work_item_functions.h"
#include "backends/host/codegen/context_layout.h"
#include "backends/host/work_group_abi.h"

namespace cucl::backend::host {
namespace {

class Lowering {
 public:
  Lowering(llvm::Function& work_item, llvm::StructType* context_type)
      : work_item_(work_item), context_type_(context_type), i64_(llvm::Type::getInt64Ty(work_item.getContext())) {}

  // The value a builtin returns for dimension `dim`, computed before `call`.
  llvm::Value* replacement(WorkItemBuiltin builtin, llvm::CallInst& call) {
    llvm::IRBuilder<> b(&call);
    if (builtin == WorkItemBuiltin::ToGlobal || builtin == WorkItemBuiltin::ToLocal || builtin == WorkItemBuiltin::ToPrivate ||
        builtin == WorkItemBuiltin::GetFence) {
      return address_space_query(builtin, b, call);
    }
    if (builtin == WorkItemBuiltin::WorkDim) {
      return load_context_field(b, context_type_, context(), kWorkDim, b.getInt32Ty());
    }
    llvm::Value* dim = b.CreateZExt(call.getArgOperand(0), i64_);
    switch (builtin) {
      case WorkItemBuiltin::LocalId: return local_id(b, dim);
      case WorkItemBuiltin::GlobalId: {
        llvm::Value* group = field(b, kGroupId, dim, 0);
        llvm::Value* size = field(b, kEnqueuedLocalSize, dim, 0);
        llvm::Value* offset = field(b, kGlobalOffset, dim, 0);
        return b.CreateAdd(b.CreateAdd(b.CreateMul(group, size), local_id(b, dim)), offset);
      }
      case WorkItemBuiltin::LocalSize: return field(b, kLocalSize, dim, 1);
      case WorkItemBuiltin::EnqueuedLocalSize: return field(b, kEnqueuedLocalSize, dim, 1);
      case WorkItemBuiltin::GlobalSize: return field(b, kGlobalSize, dim, 1);
      case WorkItemBuiltin::GroupId: return field(b, kGroupId, dim, 0);
      case WorkItemBuiltin::NumGroups: return field(b, kNumGroups, dim, 1);
      case WorkItemBuiltin::GlobalOffset: return field(b, kGlobalOffset, dim, 0);
      default: return nullptr;
    }
  }

  bool run() {
    assume_local_id_bounds();
    bool has_barriers = false;
    std::vector<std::pair<llvm::CallInst*, WorkItemBuiltin>> calls;
    for (llvm::BasicBlock& block : work_item_) {
      for (llvm::Instruction& instruction : block) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
        if (!call || !call->getCalledFunction()) continue;
        if (auto builtin = work_item_builtin_named(call->getCalledFunction()->getName())) calls.emplace_back(call, *builtin);
      }
    }
    for (auto [call, builtin] : calls) {
      if (builtin == WorkItemBuiltin::Barrier) {
        has_barriers = true;
        llvm::IRBuilder<> b(call);
        b.CreateCall(barrier_function(), {context()});
        call->eraseFromParent();
        continue;
      }
      llvm::Value* value = replacement(builtin, *call);
      if (value->getType() != call->getType() && value->getType()->isIntegerTy()) {
        value = llvm::IRBuilder<>(call).CreateZExtOrTrunc(value, call->getType());
      }
      call->replaceAllUsesWith(value);
      call->eraseFromParent();
    }
    return has_barriers;
  }

 private:
  llvm::Value* context() { return work_item_.getArg(1); }

  // Said once at the entry: then LLVM takes signed divisions and remainders of ids for
  // unsigned ones, and shifts and masks, which the vectoriser's strides see through.
  void assume_local_id_bounds() {
    llvm::IRBuilder<> b(&*work_item_.getEntryBlock().getFirstInsertionPt());
    for (unsigned d = 0; d < 3; ++d) {
      b.CreateAssumption(b.CreateICmpULT(work_item_.getArg(2 + d), b.getInt64(kMaxWorkGroupSize)));
    }
  }

  // One address space is one memory on the host: where a generic pointer points is told by
  // the group's __local arena and the stack its work-items run on.
  llvm::Value* address_space_query(WorkItemBuiltin builtin, llvm::IRBuilder<>& b, llvm::CallInst& call) {
    llvm::Value* address = b.CreatePtrToInt(call.getArgOperand(0), i64_);
    auto field_address = [&](unsigned field) {
      llvm::Type* type = field == kLocalMemoryBytes ? i64_ : static_cast<llvm::Type*>(b.getPtrTy());
      llvm::Value* value = load_context_field(b, context_type_, context(), field, type);
      return type == i64_ ? value : b.CreatePtrToInt(value, i64_);
    };
    auto within = [&](llvm::Value* low, llvm::Value* high) {
      return b.CreateAnd(b.CreateICmpUGE(address, low), b.CreateICmpULT(address, high));
    };
    llvm::Value* local_low = field_address(kLocalMemory);
    llvm::Value* is_local = within(local_low, b.CreateAdd(local_low, field_address(kLocalMemoryBytes)));
    llvm::Value* is_private = within(field_address(kPrivateLow), field_address(kPrivateHigh));
    if (builtin == WorkItemBuiltin::GetFence) {
      // CLK_LOCAL_MEM_FENCE = 1, CLK_GLOBAL_MEM_FENCE = 2, and no fence for private memory.
      return b.CreateSelect(is_local, b.getInt32(1), b.CreateSelect(is_private, b.getInt32(0), b.getInt32(2)));
    }
    llvm::Value* keep = builtin == WorkItemBuiltin::ToLocal     ? is_local
                        : builtin == WorkItemBuiltin::ToPrivate ? is_private
                                                        : b.CreateNot(b.CreateOr(is_local, is_private));
    auto* result_type = llvm::cast<llvm::PointerType>(call.getType());
    llvm::Value* cast = b.CreateAddrSpaceCast(call.getArgOperand(0), result_type);
    return b.CreateSelect(keep, cast, llvm::ConstantPointerNull::get(result_type));
  }

  // context->field[dim] for dim < 3, else `otherwise` (the specification's answer for
  // dimensions past the third).
  llvm::Value* field(llvm::IRBuilder<>& b, unsigned field, llvm::Value* dim, uint64_t otherwise) {
    if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(dim)) {
      if (constant->getZExtValue() >= 3) return b.getInt64(otherwise);
      return load_context_element(b, context_type_, context(), field, static_cast<unsigned>(constant->getZExtValue()));
    }
    llvm::Value* in_range = b.CreateICmpULT(dim, b.getInt64(3));
    llvm::Value* clamped = b.CreateSelect(in_range, dim, b.getInt64(0));
    llvm::Value* address = b.CreateInBoundsGEP(context_type_, context(), {b.getInt32(0), b.getInt32(field), clamped});
    return b.CreateSelect(in_range, mark_invariant(b.CreateLoad(i64_, address)), b.getInt64(otherwise));
  }

  llvm::Value* local_id(llvm::IRBuilder<>& b, llvm::Value* dim) {
    if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(dim)) {
      const uint64_t d = constant->getZExtValue();
      return d < 3 ? static_cast<llvm::Value*>(work_item_.getArg(2 + static_cast<unsigned>(d))) : b.getInt64(0);
    }
    llvm::Value* value = b.getInt64(0);
    for (unsigned d = 3; d-- > 0;) {
      value = b.CreateSelect(b.CreateICmpEQ(dim, b.getInt64(d)), work_item_.getArg(2 + d), value);
    }
    return value;
  }

  llvm::FunctionCallee barrier_function() {
    llvm::LLVMContext& c = work_item_.getContext();
    auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {llvm::PointerType::get(c, 0)}, false);
    return work_item_.getParent()->getOrInsertFunction(kBarrierFunction, type);
  }

  llvm::Function& work_item_;
  llvm::StructType* context_type_;
  llvm::Type* i64_;
};

}  // namespace

bool lower_work_item_builtins(llvm::Function& work_item, llvm::StructType* context_type) {
  return Lowering(work_item, context_type).run();
}

}  // namespace cucl::backend::host

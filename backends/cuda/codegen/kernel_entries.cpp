#include "backends/cuda/codegen/kernel_entries.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <optional>
#include <string_view>

#include "backends/codegen/module_tools.h"
#include "backends/codegen/printf_lowering.h"
#include "backends/codegen/work_item_functions.h"
#include "backends/cuda/codegen/textured_variants.h"
#include "backends/cuda/kernel_abi.h"

namespace cucl::backend::cuda {
namespace {

constexpr unsigned kShared = 3;
constexpr const char* kDynamicShared = "__cucl_dynamic_shared";
constexpr const char* kBodySuffix = ".cucl_body";


llvm::StructType* launch_context_type(llvm::LLVMContext& c) {
  llvm::Type* dims = llvm::ArrayType::get(llvm::Type::getInt64Ty(c), 3);
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  return llvm::StructType::get(c, {dims, dims, dims, dims, dims, dims, i64, i32, i32});
}

bool is_local_pointer(llvm::Type* type) { return type->isPointerTy() && type->getPointerAddressSpace() == kShared; }

llvm::GlobalVariable* dynamic_shared_memory(llvm::Module& module) {
  if (llvm::GlobalVariable* existing = module.getNamedGlobal(kDynamicShared)) return existing;
  llvm::Type* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()), 0);
  auto* memory = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                          kDynamicShared, nullptr, llvm::GlobalValue::NotThreadLocal, kShared);
  memory->setAlignment(llvm::Align(16));
  return memory;
}

// void <kernel>(<arguments as kernel_abi.h says>, ptr byval(LaunchContext) context): calls
// the kernel body, which the inliner then dissolves into it.
llvm::Function* make_entry(llvm::Function& body, const std::string& name, llvm::StructType* context_type) {
  llvm::Module& module = *body.getParent();
  llvm::LLVMContext& c = module.getContext();
  std::vector<llvm::Type*> params;
  for (llvm::Argument& arg : body.args()) {
    params.push_back(is_local_pointer(arg.getType()) ? llvm::Type::getInt32Ty(c) : arg.getType());
  }
  params.push_back(llvm::PointerType::get(c, 0));
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(c), params, false);
  auto* entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, module);
  for (llvm::Argument& arg : body.args()) {
    // The entry only passes a pointer on to the body, so the body's restrict (noalias) holds for
    // the entry's whole run; the inliner would turn it into scoped metadata, which the NVPTX
    // back end does not read when it decides that a read-only pointer may use ld.global.nc.
    if (arg.hasNoAliasAttr() && !is_local_pointer(arg.getType())) {
      entry->addParamAttr(arg.getArgNo(), llvm::Attribute::NoAlias);
    }
    if (arg.hasByValAttr()) {
      entry->addParamAttr(arg.getArgNo(), llvm::Attribute::getWithByValType(c, arg.getParamByValType()));
      if (llvm::MaybeAlign align = arg.getParamAlign()) {
        entry->addParamAttr(arg.getArgNo(), llvm::Attribute::getWithAlignment(c, *align));
      }
    }
  }
  const unsigned context_index = static_cast<unsigned>(params.size() - 1);
  entry->addParamAttr(context_index, llvm::Attribute::getWithByValType(c, context_type));
  entry->addParamAttr(context_index, llvm::Attribute::getWithAlignment(c, llvm::Align(8)));
  entry->addParamAttr(context_index, llvm::Attribute::NoAlias);
  if (llvm::MDNode* required = body.getMetadata("reqd_work_group_size")) {
    entry->setMetadata("reqd_work_group_size", required);
  }
  for (const char* attribute : {"denormal-fp-math", "denormal-fp-math-f32", "unsafe-fp-math", "no-nans-fp-math",
                                "no-infs-fp-math", "no-signed-zeros-fp-math", "less-precise-fpmad"}) {
    if (body.hasFnAttribute(attribute)) entry->addFnAttr(body.getFnAttribute(attribute));
  }

  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", entry));
  std::vector<llvm::Value*> values;
  for (llvm::Argument& arg : body.args()) {
    llvm::Value* value = entry->getArg(arg.getArgNo());
    if (is_local_pointer(arg.getType())) {
      value = b.CreateInBoundsGEP(b.getInt8Ty(), dynamic_shared_memory(module), value);
    }
    values.push_back(value);
  }
  llvm::CallInst* call = b.CreateCall(&body, values);
  call->setAttributes(body.getAttributes());
  b.CreateRetVoid();
  return entry;
}

// Replaces the work-item functions of one entry with special registers and context loads.
class BuiltinLowering {
 public:
  BuiltinLowering(llvm::Function& entry, llvm::StructType* context_type)
      : entry_(entry), module_(*entry.getParent()), context_type_(context_type),
        context_(entry.getArg(entry.arg_size() - 1)) {}

  void run() {
    std::vector<std::pair<llvm::CallInst*, WorkItemBuiltin>> calls;
    for (llvm::Instruction& instruction : llvm::instructions(entry_)) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      if (!call || !call->getCalledFunction()) continue;
      if (auto builtin = work_item_builtin_named(call->getCalledFunction()->getName())) calls.emplace_back(call, *builtin);
    }
    for (auto [call, builtin] : calls) {
      llvm::IRBuilder<> b(call);
      llvm::Value* value = replacement(builtin, b, *call);
      if (value) call->replaceAllUsesWith(value);
      call->eraseFromParent();
    }
  }

  llvm::Value* printf_buffer(llvm::Instruction& before) {
    llvm::IRBuilder<> b(&before);
    llvm::Value* address = b.CreateLoad(b.getInt64Ty(), b.CreateStructGEP(context_type_, context_, kPrintfBuffer));
    return b.CreateIntToPtr(address, llvm::PointerType::get(before.getContext(), 1));
  }

 private:
  using PerDimension = std::function<llvm::Value*(llvm::IRBuilder<>&, unsigned)>;

  llvm::Value* replacement(WorkItemBuiltin builtin, llvm::IRBuilder<>& b, llvm::CallInst& call) {
    switch (builtin) {
      case WorkItemBuiltin::Barrier:
        b.CreateCall(llvm::Intrinsic::getDeclaration(&module_, llvm::Intrinsic::nvvm_barrier0));
        return nullptr;
      case WorkItemBuiltin::WorkDim: return b.CreateLoad(b.getInt32Ty(), b.CreateStructGEP(context_type_, context_, kWorkDim));
      case WorkItemBuiltin::ToGlobal: return address_space_cast(b, call, llvm::Intrinsic::nvvm_isspacep_global);
      case WorkItemBuiltin::ToLocal: return address_space_cast(b, call, llvm::Intrinsic::nvvm_isspacep_shared);
      case WorkItemBuiltin::ToPrivate: return address_space_cast(b, call, llvm::Intrinsic::nvvm_isspacep_local);
      case WorkItemBuiltin::GetFence: {
        // CLK_LOCAL_MEM_FENCE = 1, CLK_GLOBAL_MEM_FENCE = 2, and no fence for private memory.
        llvm::Value* pointer = call.getArgOperand(0);
        llvm::Value* local = is_in(b, pointer, llvm::Intrinsic::nvvm_isspacep_shared);
        llvm::Value* global = is_in(b, pointer, llvm::Intrinsic::nvvm_isspacep_global);
        return b.CreateSelect(local, b.getInt32(1), b.CreateSelect(global, b.getInt32(2), b.getInt32(0)));
      }
      default: break;
    }
    const bool is_size = builtin == WorkItemBuiltin::LocalSize || builtin == WorkItemBuiltin::EnqueuedLocalSize ||
                         builtin == WorkItemBuiltin::GlobalSize || builtin == WorkItemBuiltin::NumGroups;
    PerDimension value = [this, builtin](llvm::IRBuilder<>& b, unsigned d) -> llvm::Value* {
      switch (builtin) {
        case WorkItemBuiltin::LocalId: return special(b, kThreadId, d);
        case WorkItemBuiltin::LocalSize: return special(b, kBlockSize, d);
        case WorkItemBuiltin::GroupId: return group_id(b, d);
        case WorkItemBuiltin::GlobalId: {
          // Both factors are zero-extended 32-bit values (LLVM 15 still emits mul.lo.s64 for
          // them; ptxas may narrow it), where the whole product used to take two 64-bit fields.
          llvm::Value* local = b.CreateZExt(b.CreateTrunc(field(b, kEnqueuedLocalSize, d), b.getInt32Ty()),
                                            b.getInt64Ty());
          llvm::Value* in_region = b.CreateNUWMul(special(b, kBlockId, d), local);
          return b.CreateAdd(b.CreateAdd(field(b, kGlobalBase, d), in_region), special(b, kThreadId, d));
        }
        case WorkItemBuiltin::EnqueuedLocalSize: return field(b, kEnqueuedLocalSize, d);
        case WorkItemBuiltin::GlobalSize: return field(b, kGlobalSize, d);
        case WorkItemBuiltin::NumGroups: return field(b, kNumGroups, d);
        case WorkItemBuiltin::GlobalOffset: return field(b, kGlobalOffset, d);
        default: return nullptr;
      }
    };
    return per_dimension(b, call.getArgOperand(0), value, b.getInt64(is_size ? 1 : 0));
  }

  // value(d) for dimension `dim`; `outside` for a dimension >= 3.
  static llvm::Value* per_dimension(llvm::IRBuilder<>& b, llvm::Value* dim, const PerDimension& value,
                                    llvm::Value* outside) {
    if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(dim)) {
      const uint64_t d = constant->getZExtValue();
      return d < 3 ? value(b, static_cast<unsigned>(d)) : outside;
    }
    llvm::Value* result = outside;
    for (int d = 2; d >= 0; --d) {
      result = b.CreateSelect(b.CreateICmpEQ(dim, b.getInt32(d)), value(b, static_cast<unsigned>(d)), result);
    }
    return result;
  }

  enum Register { kThreadId, kBlockSize, kBlockId };
  llvm::Value* special(llvm::IRBuilder<>& b, Register kind, unsigned d) {
    static constexpr llvm::Intrinsic::ID kIds[3][3] = {
        {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
         llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z},
        {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
         llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z},
        {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
         llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z}};
    // The hardware's limits (blocks of at most 1024 x 1024 x 64 threads; grids of 2^31 - 1 x
    // 65535 x 65535 blocks): int index arithmetic on work-item ids is then provably exact in 64
    // bits (index_widening.h).
    static constexpr uint64_t kLimits[3][3] = {{1024, 1024, 64}, {1025, 1025, 65}, {0x7fffffff, 0xffff, 0xffff}};
    llvm::CallInst* read = b.CreateCall(llvm::Intrinsic::getDeclaration(&module_, kIds[kind][d]));
    const llvm::APInt lowest(32, kind == kBlockSize ? 1 : 0), beyond(32, kLimits[kind][d]);
    read->setMetadata(llvm::LLVMContext::MD_range, llvm::MDBuilder(module_.getContext()).createRange(lowest, beyond));
    return b.CreateZExt(read, b.getInt64Ty());
  }

  llvm::Value* field(llvm::IRBuilder<>& b, LaunchContextField field, unsigned d) {
    llvm::Value* address = b.CreateInBoundsGEP(context_type_, context_, {b.getInt32(0), b.getInt32(field), b.getInt32(d)});
    return b.CreateLoad(b.getInt64Ty(), address);
  }

  llvm::Value* group_id(llvm::IRBuilder<>& b, unsigned d) {
    return b.CreateAdd(special(b, kBlockId, d), field(b, kGroupOffset, d));
  }

  llvm::Value* is_in(llvm::IRBuilder<>& b, llvm::Value* pointer, llvm::Intrinsic::ID test) {
    if (pointer->getType()->getPointerAddressSpace() != 0) pointer = b.CreateAddrSpaceCast(pointer, b.getPtrTy(0));
    return b.CreateCall(llvm::Intrinsic::getDeclaration(&module_, test), {pointer});
  }

  // to_global/to_local/to_private: the pointer in the result's address space if it points
  // there, else NULL.
  llvm::Value* address_space_cast(llvm::IRBuilder<>& b, llvm::CallInst& call, llvm::Intrinsic::ID test) {
    llvm::Value* pointer = call.getArgOperand(0);
    llvm::Type* result_type = call.getType();
    llvm::Value* converted = pointer;
    if (pointer->getType() != result_type) {
      // Not an addrspacecast: InstCombine would fold generic->specific after specific->generic
      // into a cast between two specific spaces, which NVPTX cannot select.
      const llvm::Intrinsic::ID to = result_type->getPointerAddressSpace() == kShared
                                         ? llvm::Intrinsic::nvvm_ptr_gen_to_shared
                                         : llvm::Intrinsic::nvvm_ptr_gen_to_global;
      converted = b.CreateCall(llvm::Intrinsic::getDeclaration(&module_, to, {result_type, pointer->getType()}), {pointer});
    }
    return b.CreateSelect(is_in(b, pointer, test), converted, llvm::ConstantPointerNull::get(
                                                                   llvm::cast<llvm::PointerType>(result_type)));
  }

  llvm::Function& entry_;
  llvm::Module& module_;
  llvm::StructType* context_type_;
  llvm::Value* context_;
};

std::string calls_left(llvm::Function& entry) {
  for (llvm::Instruction& instruction : llvm::instructions(entry)) {
    auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
    if (call && !call->isInlineAsm() && (!callee || !callee->isDeclaration())) {
      return "error: internal compiler error: kernel '" + entry.getName().str() + "' still calls " +
             (callee ? "'" + callee->getName().str() + "'" : std::string("through a pointer")) + "\n";
    }
  }
  return {};
}

// Each entry is a kernel; one with reqd_work_group_size also tells ptxas its largest block
// (.maxntid), so registers are allotted for that many threads rather than any block size.
// Not .reqntid: the edge groups of a non-uniform range are smaller blocks of the same kernel.
void annotate_kernels(llvm::Module& module, const std::vector<llvm::Function*>& entries) {
  llvm::LLVMContext& c = module.getContext();
  llvm::NamedMDNode* annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  auto annotate = [&](llvm::Function* entry, const char* key, uint64_t value) {
    llvm::Metadata* operands[] = {
        llvm::ValueAsMetadata::get(entry), llvm::MDString::get(c, key),
        llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), value))};
    annotations->addOperand(llvm::MDNode::get(c, operands));
  };
  for (llvm::Function* entry : entries) {
    annotate(entry, "kernel", 1);
    const llvm::MDNode* required = entry->getMetadata("reqd_work_group_size");
    if (!required || required->getNumOperands() != 3) continue;
    const char* keys[] = {"maxntidx", "maxntidy", "maxntidz"};
    for (unsigned d = 0; d < 3; ++d) {
      auto* size = llvm::mdconst::dyn_extract<llvm::ConstantInt>(required->getOperand(d));
      if (size && size->getZExtValue() > 0) annotate(entry, keys[d], size->getZExtValue());
    }
  }
}

}  // namespace

std::string build_kernel_entries(llvm::Module& module, NvptxProgram& program) {
  if (std::string error = find_recursion(module); !error.empty()) return error;
  std::vector<llvm::Function*> bodies = prepare_kernels_for_inlining(module);
  llvm::StructType* context_type = launch_context_type(module.getContext());
  std::vector<llvm::Function*> entries;
  for (llvm::Function* body : bodies) {
    const std::string name = body->getName().str();
    body->setName(name + kBodySuffix);
    body->setLinkage(llvm::GlobalValue::InternalLinkage);
    entries.push_back(make_entry(*body, name, context_type));
  }
  run_always_inliner(module);
  const std::vector<llvm::Function*> variants = make_textured_variants(module, entries);

  auto lower = [&](llvm::Function& entry, bool& uses_printf) {
    if (std::string error = calls_left(entry); !error.empty()) return error;
    BuiltinLowering builtins(entry, context_type);
    builtins.run();
    std::string error;
    auto buffer = [&](llvm::Instruction& call) { return builtins.printf_buffer(call); };
    uses_printf = lower_printf(entry, buffer, program.printf_sites, error);
    return error;
  };
  for (size_t i = 0; i < entries.size(); ++i) {
    NvptxKernel kernel{entries[i]->getName().str()};
    if (std::string error = lower(*entries[i], kernel.uses_printf); !error.empty()) return error;
    if (variants[i]) {
      bool variant_printf = false;
      if (std::string error = lower(*variants[i], variant_printf); !error.empty()) return error;
      kernel.textured_variant = true;
    }
    program.kernels.push_back(std::move(kernel));
  }
  for (llvm::Function* variant : variants) {
    if (variant) entries.push_back(variant);
  }
  for (llvm::Function& function : llvm::make_early_inc_range(module)) {
    if (function.isDeclaration() && function.use_empty()) function.eraseFromParent();
  }
  annotate_kernels(module, entries);
  return {};
}

}  // namespace cucl::backend::cuda

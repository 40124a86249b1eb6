#include "backends/cuda/codegen/address_space_remap.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/ReplaceConstant.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <vector>

namespace cucl::backend::cuda {
namespace {

constexpr unsigned kSpirConstant = 2, kSpirGeneric = 4;
constexpr unsigned kNvptxGlobal = 1, kNvptxGeneric = 0;

constexpr unsigned kNvptxShared = 3, kNvptxConst = 4, kNvptxLocal = 5;

bool known_space(unsigned space) {
  return space == kNvptxGeneric || space == kNvptxGlobal || space == kNvptxShared || space == kNvptxConst ||
         space == kNvptxLocal;
}

llvm::Intrinsic::ID to_generic(unsigned from) {
  switch (from) {
    case kNvptxGlobal: return llvm::Intrinsic::nvvm_ptr_global_to_gen;
    case kNvptxShared: return llvm::Intrinsic::nvvm_ptr_shared_to_gen;
    case kNvptxConst: return llvm::Intrinsic::nvvm_ptr_constant_to_gen;
    default: return llvm::Intrinsic::nvvm_ptr_local_to_gen;
  }
}

llvm::Intrinsic::ID from_generic(unsigned to) {
  switch (to) {
    case kNvptxGlobal: return llvm::Intrinsic::nvvm_ptr_gen_to_global;
    case kNvptxShared: return llvm::Intrinsic::nvvm_ptr_gen_to_shared;
    case kNvptxConst: return llvm::Intrinsic::nvvm_ptr_gen_to_constant;
    default: return llvm::Intrinsic::nvvm_ptr_gen_to_local;
  }
}

unsigned nvptx_address_space(unsigned spir) {
  if (spir == kSpirConstant) return kNvptxGlobal;
  if (spir == kSpirGeneric) return kNvptxGeneric;
  return spir;
}

class AddressSpaceTypes final : public llvm::ValueMapTypeRemapper {
 public:
  llvm::Type* remapType(llvm::Type* type) override {
    if (auto found = mapped_.find(type); found != mapped_.end()) return found->second;
    llvm::Type* result = remap_uncached(type);
    mapped_[type] = result;
    return result;
  }

 private:
  llvm::Type* remap_uncached(llvm::Type* type) {
    llvm::LLVMContext& c = type->getContext();
    if (auto* pointer = llvm::dyn_cast<llvm::PointerType>(type)) {
      return llvm::PointerType::get(c, nvptx_address_space(pointer->getAddressSpace()));
    }
    if (auto* vector = llvm::dyn_cast<llvm::VectorType>(type)) {
      return llvm::VectorType::get(remapType(vector->getElementType()), vector->getElementCount());
    }
    if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) {
      return llvm::ArrayType::get(remapType(array->getElementType()), array->getNumElements());
    }
    if (auto* function = llvm::dyn_cast<llvm::FunctionType>(type)) {
      std::vector<llvm::Type*> params;
      for (llvm::Type* param : function->params()) params.push_back(remapType(param));
      return llvm::FunctionType::get(remapType(function->getReturnType()), params, function->isVarArg());
    }
    if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) return remap_struct(structure);
    return type;
  }

  llvm::Type* remap_struct(llvm::StructType* structure) {
    if (structure->isOpaque()) return structure;
    bool changes = false;
    for (llvm::Type* element : structure->elements()) changes |= contains_renumbered_pointer(element);
    if (!changes) return structure;
    if (structure->isLiteral()) {
      std::vector<llvm::Type*> elements;
      for (llvm::Type* element : structure->elements()) elements.push_back(remapType(element));
      return llvm::StructType::get(structure->getContext(), elements, structure->isPacked());
    }
    // Named first and filled in after, so that self-referencing structs terminate.
    llvm::StructType* renamed = llvm::StructType::create(structure->getContext(), structure->getName().str() + ".nvptx");
    mapped_[structure] = renamed;
    std::vector<llvm::Type*> elements;
    for (llvm::Type* element : structure->elements()) elements.push_back(remapType(element));
    renamed->setBody(elements, structure->isPacked());
    return renamed;
  }

  bool contains_renumbered_pointer(llvm::Type* type) {
    if (auto* pointer = llvm::dyn_cast<llvm::PointerType>(type)) {
      return nvptx_address_space(pointer->getAddressSpace()) != pointer->getAddressSpace();
    }
    if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) {
      if (!visiting_.insert(structure).second) return false;
      bool found = false;
      for (llvm::Type* element : structure->elements()) found |= contains_renumbered_pointer(element);
      visiting_.erase(structure);
      return found;
    }
    for (llvm::Type* contained : type->subtypes()) {
      if (contains_renumbered_pointer(contained)) return true;
    }
    return false;
  }

  llvm::DenseMap<llvm::Type*, llvm::Type*> mapped_;
  llvm::SmallPtrSet<llvm::StructType*, 4> visiting_;
};

// Constant address-space casts whose two sides now share an address space become their
// operand (ConstantExpr cannot represent a cast between equal address spaces).
class NoOpCastFolder final : public llvm::ValueMaterializer {
 public:
  NoOpCastFolder(llvm::ValueToValueMapTy& map, AddressSpaceTypes& types) : map_(map), types_(types) {}
  llvm::Value* materialize(llvm::Value* value) override {
    auto* cast = llvm::dyn_cast<llvm::ConstantExpr>(value);
    if (!cast || cast->getOpcode() != llvm::Instruction::AddrSpaceCast) return nullptr;
    llvm::Constant* operand = llvm::MapValue(cast->getOperand(0), map_, llvm::RF_None, &types_, this);
    llvm::Type* type = types_.remapType(cast->getType());
    if (operand->getType() == type) return operand;
    return llvm::ConstantExpr::getAddrSpaceCast(operand, type);
  }

 private:
  llvm::ValueToValueMapTy& map_;
  AddressSpaceTypes& types_;
};

void fold_no_op_casts(llvm::Function& function) {
  std::vector<llvm::Instruction*> casts;
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    if (auto* cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&instruction)) {
      if (cast->getSrcAddressSpace() == cast->getDestAddressSpace()) casts.push_back(cast);
    }
  }
  for (llvm::Instruction* cast : casts) {
    cast->replaceAllUsesWith(cast->getOperand(0));
    cast->eraseFromParent();
  }
}

// A cast NVPTX can select, and that keeps NULL NULL (cvta alone maps the null pointer of
// one space to a non-null address of another, where OpenCL C requires NULL).
llvm::Value* cast_through_generic(llvm::IRBuilder<>& b, llvm::Value* pointer, unsigned to) {
  llvm::Module& module = *b.GetInsertBlock()->getModule();
  const unsigned from = pointer->getType()->getPointerAddressSpace();
  llvm::Type* generic_type = b.getPtrTy(kNvptxGeneric);
  llvm::Type* to_type = b.getPtrTy(to);
  llvm::Value* generic = pointer;
  if (from != kNvptxGeneric) {
    generic = b.CreateCall(llvm::Intrinsic::getDeclaration(&module, to_generic(from), {generic_type, pointer->getType()}),
                           {pointer});
  }
  llvm::Value* converted = generic;
  if (to != kNvptxGeneric) {
    converted =
        b.CreateCall(llvm::Intrinsic::getDeclaration(&module, from_generic(to), {to_type, generic_type}), {generic});
  }
  llvm::Value* is_null = b.CreateICmpEQ(pointer, llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(pointer->getType())));
  return b.CreateSelect(is_null, llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(to_type)), converted);
}

void rewrite_cast(llvm::AddrSpaceCastInst& cast) {
  const unsigned from = cast.getSrcAddressSpace(), to = cast.getDestAddressSpace();
  if (!known_space(from) || !known_space(to)) return;
  llvm::IRBuilder<> b(&cast);
  cast.replaceAllUsesWith(cast_through_generic(b, cast.getOperand(0), to));
  cast.eraseFromParent();
}

bool contains_address_space_cast(llvm::ConstantExpr* constant) {
  if (constant->getOpcode() == llvm::Instruction::AddrSpaceCast) return true;
  for (llvm::Value* operand : constant->operand_values()) {
    auto* inner = llvm::dyn_cast<llvm::ConstantExpr>(operand);
    if (inner && contains_address_space_cast(inner)) return true;
  }
  return false;
}

}  // namespace

void legalize_address_space_casts(llvm::Module& module) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    // Constant casts (of NULL, of globals) become instructions, so they can be rewritten.
    // Each conversion unwraps one level of a nested constant: repeat until none is left.
    for (bool converted = true; converted;) {
      converted = false;
      for (llvm::Instruction& instruction : llvm::make_early_inc_range(llvm::instructions(function))) {
        for (llvm::Value* operand : instruction.operand_values()) {
          auto* constant = llvm::dyn_cast<llvm::ConstantExpr>(operand);
          if (constant && contains_address_space_cast(constant)) {
            llvm::convertConstantExprsToInstructions(&instruction, constant);
            converted = true;
          }
        }
      }
    }
    std::vector<llvm::AddrSpaceCastInst*> casts;
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      if (auto* cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&instruction)) casts.push_back(cast);
    }
    for (llvm::AddrSpaceCastInst* cast : casts) rewrite_cast(*cast);
  }
}

void remap_address_spaces_for_nvptx(llvm::Module& module) {
  AddressSpaceTypes types;
  llvm::ValueToValueMapTy map;
  NoOpCastFolder folder(map, types);

  std::vector<llvm::GlobalVariable*> old_globals;
  std::vector<std::pair<llvm::GlobalVariable*, llvm::GlobalVariable*>> globals;
  for (llvm::GlobalVariable& global : module.globals()) old_globals.push_back(&global);
  for (llvm::GlobalVariable* global : old_globals) {
    auto* renumbered = new llvm::GlobalVariable(
        module, types.remapType(global->getValueType()), global->isConstant(), global->getLinkage(), nullptr, "",
        nullptr, global->getThreadLocalMode(), nvptx_address_space(global->getAddressSpace()),
        global->isExternallyInitialized());
    renumbered->copyAttributesFrom(global);
    map[global] = renumbered;
    globals.emplace_back(global, renumbered);
  }

  std::vector<llvm::Function*> old_functions;
  for (llvm::Function& function : module) old_functions.push_back(&function);
  std::vector<std::pair<llvm::Function*, llvm::Function*>> functions;
  for (llvm::Function* function : old_functions) {
    auto* type = llvm::cast<llvm::FunctionType>(types.remapType(function->getFunctionType()));
    if (function->isDeclaration() && type == function->getFunctionType()) continue;  // kept as it is
    llvm::Function* renumbered =
        llvm::Function::Create(type, function->getLinkage(), function->getAddressSpace(), "", &module);
    renumbered->copyAttributesFrom(function);
    map[function] = renumbered;
    functions.emplace_back(function, renumbered);
  }

  for (auto [old_function, renumbered] : functions) {
    if (old_function->isDeclaration()) continue;
    auto new_arg = renumbered->arg_begin();
    for (llvm::Argument& arg : old_function->args()) {
      new_arg->setName(arg.getName());
      map[&arg] = &*new_arg++;
    }
    llvm::SmallVector<llvm::ReturnInst*, 4> returns;
    llvm::CloneFunctionInto(renumbered, old_function, map, llvm::CloneFunctionChangeType::LocalChangesOnly, returns, "",
                            nullptr, &types, &folder);
  }
  for (auto [old_global, renumbered] : globals) {
    if (old_global->hasInitializer()) {
      renumbered->setInitializer(llvm::MapValue(old_global->getInitializer(), map, llvm::RF_None, &types, &folder));
    }
  }

  for (auto [old_function, renumbered] : functions) old_function->dropAllReferences();
  for (auto [old_global, renumbered] : globals) old_global->dropAllReferences();
  for (auto [old_function, renumbered] : functions) {
    renumbered->takeName(old_function);
    old_function->replaceAllUsesWith(llvm::UndefValue::get(old_function->getType()));
    old_function->eraseFromParent();
  }
  for (auto [old_global, renumbered] : globals) {
    renumbered->takeName(old_global);
    old_global->replaceAllUsesWith(llvm::UndefValue::get(old_global->getType()));
    old_global->eraseFromParent();
  }

  for (auto [old_function, renumbered] : functions) {
    if (!renumbered->isDeclaration()) fold_no_op_casts(*renumbered);
  }
  // Overloaded intrinsics (llvm.memcpy.p0.p2...) now carry a stale name for their type.
  for (auto [old_function, renumbered] : functions) {
    if (!renumbered->getName().startswith("llvm.")) continue;
    // takeName does not recompute the intrinsic ID; naming the function again does.
    const std::string name = renumbered->getName().str();
    renumbered->setName("");
    renumbered->setName(name);
    if (auto remangled = llvm::Intrinsic::remangleIntrinsicFunction(renumbered)) {
      renumbered->replaceAllUsesWith(*remangled);
      renumbered->eraseFromParent();
    }
  }
}

}  // namespace cucl::backend::cuda

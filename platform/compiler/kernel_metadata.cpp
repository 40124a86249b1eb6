#include "platform/compiler/kernel_metadata.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <sstream>

#include "base/error.h"

namespace cucl::compiler {
namespace {

// Address spaces of the front end's (SPIR-compatible) map.
constexpr unsigned kGlobal = 1, kConstant = 2, kLocal = 3;

std::string string_operand(const llvm::MDNode* node, unsigned index) {
  if (!node || index >= node->getNumOperands()) return {};
  if (auto* text = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(index).get())) return text->getString().str();
  return {};
}

int64_t integer_operand(const llvm::MDNode* node, unsigned index, int64_t fallback) {
  if (!node || index >= node->getNumOperands()) return fallback;
  if (auto* value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(index))) {
    return value->getSExtValue();
  }
  return fallback;
}

std::array<size_t, 3> three_sizes(const llvm::MDNode* node) {
  std::array<size_t, 3> sizes{0, 0, 0};
  if (!node) return sizes;
  for (unsigned d = 0; d < 3; ++d) sizes[d] = static_cast<size_t>(integer_operand(node, d, 0));
  return sizes;
}

bool is_image_type(std::string_view type) { return type.find("image") != std::string_view::npos && type.ends_with("_t"); }

cl_kernel_arg_type_qualifier type_qualifier(const std::string& text, const llvm::Type* type, unsigned address_space) {
  cl_kernel_arg_type_qualifier qualifier = CL_KERNEL_ARG_TYPE_NONE;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (word == "const") qualifier |= CL_KERNEL_ARG_TYPE_CONST;
    if (word == "volatile") qualifier |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (word == "restrict") qualifier |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (word == "pipe") qualifier |= CL_KERNEL_ARG_TYPE_PIPE;
  }
  // __constant pointers are const by definition (the specification reports them so).
  if (type->isPointerTy() && address_space == kConstant) qualifier |= CL_KERNEL_ARG_TYPE_CONST;
  return qualifier;
}

cl_kernel_arg_access_qualifier access_qualifier(const std::string& text) {
  if (text == "read_only") return CL_KERNEL_ARG_ACCESS_READ_ONLY;
  if (text == "write_only") return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
  if (text == "read_write") return CL_KERNEL_ARG_ACCESS_READ_WRITE;
  return CL_KERNEL_ARG_ACCESS_NONE;
}

KernelArgMetadata read_argument(const llvm::Function& kernel, unsigned index, const llvm::DataLayout& layout) {
  const llvm::Argument& param = *kernel.getArg(index);
  KernelArgMetadata arg;
  const unsigned address_space =
      static_cast<unsigned>(integer_operand(kernel.getMetadata("kernel_arg_addr_space"), index, 0));
  arg.type_name = string_operand(kernel.getMetadata("kernel_arg_type"), index);
  arg.name = string_operand(kernel.getMetadata("kernel_arg_name"), index);
  arg.access = access_qualifier(string_operand(kernel.getMetadata("kernel_arg_access_qual"), index));
  llvm::Type* type = param.getType();
  arg.type_qualifier = type_qualifier(string_operand(kernel.getMetadata("kernel_arg_type_qual"), index), type,
                                      address_space);

  if (arg.type_qualifier & CL_KERNEL_ARG_TYPE_PIPE) {
    arg.kind = KernelArgMetadata::Kind::Pipe;
  } else if (arg.type_name == "sampler_t") {
    arg.kind = KernelArgMetadata::Kind::Sampler;
  } else if (is_image_type(arg.type_name)) {
    arg.kind = KernelArgMetadata::Kind::Image;
  } else if (arg.type_name == "queue_t") {
    arg.kind = KernelArgMetadata::Kind::Queue;
  } else if (type->isPointerTy() && !param.hasByValAttr()) {
    arg.kind = address_space == kLocal      ? KernelArgMetadata::Kind::LocalPointer
               : address_space == kConstant ? KernelArgMetadata::Kind::ConstantPointer
                                            : KernelArgMetadata::Kind::GlobalPointer;
  }
  arg.address = address_space == kGlobal     ? CL_KERNEL_ARG_ADDRESS_GLOBAL
                : address_space == kConstant ? CL_KERNEL_ARG_ADDRESS_CONSTANT
                : address_space == kLocal    ? CL_KERNEL_ARG_ADDRESS_LOCAL
                                             : CL_KERNEL_ARG_ADDRESS_PRIVATE;

  if (arg.kind == KernelArgMetadata::Kind::Value) {
    llvm::Type* value_type = param.hasByValAttr() ? param.getParamByValType() : type;
    arg.size = static_cast<uint32_t>(layout.getTypeAllocSize(value_type));
    arg.alignment = static_cast<uint32_t>(layout.getABITypeAlignment(value_type));
    if (param.hasByValAttr()) arg.alignment = std::max<uint32_t>(arg.alignment, param.getParamAlign().valueOrOne().value());
  } else {
    arg.size = sizeof(void*);
    arg.alignment = alignof(void*);
  }
  return arg;
}

std::string attributes_text(const llvm::Function& kernel, const KernelMetadata& metadata) {
  std::vector<std::string> parts;
  auto sizes_text = [](const char* name, const std::array<size_t, 3>& s) {
    return std::string(name) + "(" + std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]) + ")";
  };
  if (metadata.reqd_work_group_size[0]) parts.push_back(sizes_text("reqd_work_group_size", metadata.reqd_work_group_size));
  if (metadata.work_group_size_hint[0]) parts.push_back(sizes_text("work_group_size_hint", metadata.work_group_size_hint));
  if (const llvm::MDNode* hint = kernel.getMetadata("vec_type_hint")) {
    if (hint->getNumOperands() >= 1) {
      llvm::Type* type = llvm::cast<llvm::ValueAsMetadata>(hint->getOperand(0))->getType();
      const bool is_signed = integer_operand(hint, 1, 1) != 0;
      std::string element;
      llvm::Type* scalar = type->getScalarType();
      if (scalar->isFloatTy()) element = "float";
      else if (scalar->isDoubleTy()) element = "double";
      else if (scalar->isHalfTy()) element = "half";
      else if (scalar->isIntegerTy(8)) element = is_signed ? "char" : "uchar";
      else if (scalar->isIntegerTy(16)) element = is_signed ? "short" : "ushort";
      else if (scalar->isIntegerTy(32)) element = is_signed ? "int" : "uint";
      else if (scalar->isIntegerTy(64)) element = is_signed ? "long" : "ulong";
      if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) element += std::to_string(vector->getNumElements());
      if (!element.empty()) parts.push_back("vec_type_hint(" + element + ")");
    }
  }
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : " ") + part;
  return text;
}

}  // namespace

ProgramMetadata read_program_metadata(std::string_view bitcode) {
  llvm::LLVMContext context;
  context.setOpaquePointers(true);  // typed-pointer bitcode (from the SPIR-V translator) is upgraded
  auto buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(bitcode.data(), bitcode.size()), "", false);
  auto module = llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (!module) {
    llvm::consumeError(module.takeError());
    fail(CL_INVALID_BINARY);
  }
  const llvm::DataLayout& layout = (*module)->getDataLayout();
  ProgramMetadata program;
  for (const llvm::Function& function : **module) {
    if (function.isDeclaration() || function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL) continue;
    KernelMetadata kernel;
    kernel.name = function.getName().str();
    for (unsigned i = 0; i < function.arg_size(); ++i) kernel.args.push_back(read_argument(function, i, layout));
    kernel.reqd_work_group_size = three_sizes(function.getMetadata("reqd_work_group_size"));
    kernel.work_group_size_hint = three_sizes(function.getMetadata("work_group_size_hint"));
    if (const llvm::MDNode* sub_groups = function.getMetadata(kSubGroupsPerWorkGroupMetadata)) {
      kernel.sub_groups_per_work_group = static_cast<size_t>(integer_operand(sub_groups, 0, 0));
    }
    kernel.attributes = attributes_text(function, kernel);
    program.kernels.push_back(std::move(kernel));
  }
  for (const llvm::GlobalVariable& global : (*module)->globals()) {
    if (global.getAddressSpace() == kGlobal && !global.isDeclaration()) {
      program.global_variable_total_size += layout.getTypeAllocSize(global.getValueType());
    }
  }
  return program;
}

}  // namespace cucl::compiler

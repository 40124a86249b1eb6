// SPIR-V 1.4 instructions that the SPIRV-LLVM-Translator of LLVM 15 cannot read (it aborts
// the process on them, or misreads their operands), rewritten into instructions of earlier
// versions with the same meaning, so that modules of SPIR-V 1.4 reach the translator:
//   OpPtrEqual / OpPtrNotEqual   -> both pointers as integers (OpConvertPtrToU), compared
//   OpPtrDiff                    -> the integer difference divided by the element size, taken
//                                   as the distance from a pointer to the next element
//   OpCopyLogical                -> member by member (OpCompositeExtract / Construct)
//   OpCopyMemory                 -> OpLoad and OpStore (the translator crashes on OpCopyMemory
//                                   in every version), each with its own memory operands
//   OpCopyMemorySized with a second (source) memory operand -> the first one only
//   OpDecorateString / OpMemberDecorateString (UserSemantic and the like) -> dropped: they
//                                   annotate, and OpenCL gives them no meaning
//   OpExtension "SPV_EXT_shader_atomic_float16_add" -> dropped: the translator rejects the
//                                   name, but reads its capability (AtomicFloat16AddEXT) and
//                                   OpAtomicFAddEXT on 16-bit floats, all it adds
// The module must have passed the validator.
#pragma once

#include <string>
#include <string_view>

namespace cucl::compiler {

struct LegalizedSpirv {
  std::string il;       // the rewritten module (the input where nothing needed rewriting)
  std::string problem;  // why the module cannot be rewritten; empty on success
};

LegalizedSpirv legalize_spirv_for_translator(std::string_view il);

}  // namespace cucl::compiler

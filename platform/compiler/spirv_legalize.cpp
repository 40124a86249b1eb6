#include "platform/compiler/spirv_legalize.h"

#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <vector>

namespace cucl::compiler {
namespace {

// Opcodes and operand values from the SPIR-V specification.
enum Op : uint32_t {
  kOpExtension = 10,
  kOpCapability = 17,
  kOpMemoryModel = 14,
  kOpTypeInt = 21,
  kOpTypeArray = 28,
  kOpTypeStruct = 30,
  kOpConstant = 43,
  kOpFunction = 54,
  kOpLoad = 61,
  kOpStore = 62,
  kOpCopyMemory = 63,
  kOpCopyMemorySized = 64,
  kOpPtrAccessChain = 67,
  kOpCompositeConstruct = 80,
  kOpCompositeExtract = 81,
  kOpCopyObject = 83,
  kOpConvertPtrToU = 117,
  kOpISub = 130,
  kOpSDiv = 135,
  kOpIEqual = 170,
  kOpINotEqual = 171,
  kOpCopyLogical = 400,
  kOpPtrEqual = 401,
  kOpPtrNotEqual = 402,
  kOpPtrDiff = 403,
  kOpDecorateString = 5632,
  kOpMemberDecorateString = 5633,
};
constexpr uint32_t kCapabilityInt64 = 11;
// Extensions the translator does not know by name whose instructions and capabilities it reads.
constexpr std::string_view kExtensionsUnknownToTranslator[] = {"SPV_EXT_shader_atomic_float16_add"};
constexpr uint32_t kAddressingPhysical64 = 2;
// Memory operand bits that carry an extra operand word: Aligned, MakePointerAvailable,
// MakePointerVisible.
constexpr uint32_t kMemoryOperandsWithAWord[] = {0x2, 0x8, 0x10};
constexpr size_t kHeaderWords = 5;

struct Instruction {
  std::vector<uint32_t> words;
  uint32_t opcode = 0;
  uint32_t type_id = 0;
  uint32_t result_id = 0;
};

spv_result_t collect(void* user_data, const spv_parsed_instruction_t* parsed) {
  auto* instructions = static_cast<std::vector<Instruction>*>(user_data);
  instructions->push_back({std::vector<uint32_t>(parsed->words, parsed->words + parsed->num_words), parsed->opcode,
                           parsed->type_id, parsed->result_id});
  return SPV_SUCCESS;
}

uint32_t word_head(uint32_t opcode, size_t count) { return static_cast<uint32_t>(count << 16) | opcode; }

class Rewriter {
 public:
  Rewriter(std::vector<Instruction> instructions, uint32_t bound)
      : instructions_(std::move(instructions)), next_id_(bound) {
    for (const Instruction& instruction : instructions_) {
      if (instruction.result_id) {
        definitions_[instruction.result_id] = &instruction;
        if (instruction.type_id) type_of_[instruction.result_id] = instruction.type_id;
      }
      if (instruction.opcode == kOpCapability) capabilities_.insert(instruction.words[1]);
      if (instruction.opcode == kOpMemoryModel) pointer_bits_ = instruction.words[1] == kAddressingPhysical64 ? 64 : 32;
    }
  }

  // Empty on success, with the global section (capabilities to types, variables and the
  // declarations the rewrites need) and the functions in the two vectors.
  std::string rewrite(std::vector<uint32_t>& globals_out, std::vector<uint32_t>& functions_out) {
    bool in_functions = false;
    for (const Instruction& instruction : instructions_) {
      if (instruction.opcode == kOpFunction) in_functions = true;
      std::vector<uint32_t>& out = in_functions ? functions_ : globals_;
      if (std::string problem = rewrite_one(instruction, out); !problem.empty()) return problem;
    }
    globals_out = std::move(globals_);
    globals_out.insert(globals_out.end(), added_globals_.begin(), added_globals_.end());
    if (needs_int64_ && !capabilities_.count(kCapabilityInt64)) {
      globals_out.insert(globals_out.begin(), {word_head(kOpCapability, 2), kCapabilityInt64});
    }
    functions_out = std::move(functions_);
    return {};
  }

  uint32_t bound() const { return next_id_; }
  bool changed() const { return changed_; }

 private:
  std::string rewrite_one(const Instruction& in, std::vector<uint32_t>& out) {
    const std::vector<uint32_t>& w = in.words;
    switch (in.opcode) {
      case kOpDecorateString:
      case kOpMemberDecorateString: changed_ = true; return {};
      case kOpExtension: {
        // A literal string: nul-terminated, padded with nuls to whole words.
        const std::string_view name(reinterpret_cast<const char*>(w.data() + 1));
        if (std::find(std::begin(kExtensionsUnknownToTranslator), std::end(kExtensionsUnknownToTranslator), name) !=
            std::end(kExtensionsUnknownToTranslator)) {
          changed_ = true;
          return {};
        }
        out.insert(out.end(), w.begin(), w.end());
        return {};
      }
      case kOpCopyMemory: {
        // A load and a store: the first memory operands are the target's, the second (or
        // again the first) the source's.
        const std::vector<uint32_t> target_access = memory_operands(w, 3);
        std::vector<uint32_t> source_access = memory_operands(w, 3 + target_access.size());
        if (source_access.empty()) source_access = target_access;
        const Instruction* pointer = definitions_[type_of_[w[2]]];
        if (!pointer || pointer->words.size() < 4) return "OpCopyMemory from a value that is not a pointer";
        std::vector<uint32_t> load = {w[2]};
        load.insert(load.end(), source_access.begin(), source_access.end());
        const uint32_t value = emit_value(out, kOpLoad, pointer->words[3], load);
        std::vector<uint32_t> store = {w[1], value};
        store.insert(store.end(), target_access.begin(), target_access.end());
        emit(out, kOpStore, store);
        changed_ = true;
        return {};
      }
      case kOpCopyMemorySized: {
        const std::vector<uint32_t> target_access = memory_operands(w, 4);
        std::vector<uint32_t> kept(w.begin() + 1, w.begin() + 4);
        kept.insert(kept.end(), target_access.begin(), target_access.end());
        if (kept.size() + 1 != w.size()) changed_ = true;
        emit(out, kOpCopyMemorySized, kept);
        return {};
      }
      case kOpPtrEqual:
      case kOpPtrNotEqual: {
        const uint32_t integer = integer_type(pointer_bits_);
        const uint32_t a = convert_pointer(out, integer, w[3]), b = convert_pointer(out, integer, w[4]);
        emit(out, in.opcode == kOpPtrEqual ? kOpIEqual : kOpINotEqual, {w[1], w[2], a, b});
        changed_ = true;
        return {};
      }
      case kOpPtrDiff: {
        const uint32_t type = w[1];
        const uint32_t a = convert_pointer(out, type, w[3]), b = convert_pointer(out, type, w[4]);
        const uint32_t distance = emit_value(out, kOpISub, type, {a, b});
        const uint32_t next = emit_value(out, kOpPtrAccessChain, type_of_[w[4]], {w[4], constant_one(type)});
        const uint32_t element = emit_value(out, kOpISub, type, {convert_pointer(out, type, next), b});
        emit(out, kOpSDiv, {type, w[2], distance, element});
        changed_ = true;
        return {};
      }
      case kOpCopyLogical: {
        changed_ = true;
        return copy_logical(out, w[1], w[3], w[2]).problem;
      }
      default: out.insert(out.end(), w.begin(), w.end()); return {};
    }
  }

  // The memory operands (a mask and the words its bits take) starting at words[at]; empty
  // where there are none.
  static std::vector<uint32_t> memory_operands(const std::vector<uint32_t>& words, size_t at) {
    if (at >= words.size()) return {};
    size_t count = 1;
    for (uint32_t bit : kMemoryOperandsWithAWord) count += (words[at] & bit) ? 1 : 0;
    return std::vector<uint32_t>(words.begin() + static_cast<long>(at),
                                 words.begin() + static_cast<long>(std::min(words.size(), at + count)));
  }

  struct Copied {
    uint32_t id = 0;
    std::string problem;
  };

  // `value` (of a type logically matching `target`) as a value of `target`, in `result` when
  // given, else in a new id.
  Copied copy_logical(std::vector<uint32_t>& out, uint32_t target, uint32_t value, uint32_t result = 0) {
    const uint32_t source = type_of_[value];
    if (source == target) {
      if (!result) return {value, {}};
      emit(out, kOpCopyObject, {target, result, value});
      return {result, {}};
    }
    const Instruction* to = definitions_[target];
    const Instruction* from = definitions_[source];
    if (!to || !from || to->opcode != from->opcode) return {0, "OpCopyLogical between types that do not match"};
    std::vector<uint32_t> to_members, from_members;
    if (to->opcode == kOpTypeStruct) {
      to_members.assign(to->words.begin() + 2, to->words.end());
      from_members.assign(from->words.begin() + 2, from->words.end());
    } else if (to->opcode == kOpTypeArray) {
      const Instruction* length = definitions_[to->words[3]];
      if (!length || length->opcode != kOpConstant || length->words[3] > 4096) {
        return {0, "OpCopyLogical of an array whose length is not a small constant"};
      }
      to_members.assign(length->words[3], to->words[2]);
      from_members.assign(length->words[3], from->words[2]);
    } else {
      return {0, "OpCopyLogical between types that do not match"};
    }
    if (to_members.size() != from_members.size()) return {0, "OpCopyLogical between types that do not match"};
    std::vector<uint32_t> parts = {target, result ? result : next_id_++};
    for (uint32_t i = 0; i < to_members.size(); ++i) {
      const uint32_t member = emit_value(out, kOpCompositeExtract, from_members[i], {value, i});
      Copied copied = copy_logical(out, to_members[i], member);
      if (!copied.problem.empty()) return copied;
      parts.push_back(copied.id);
    }
    emit(out, kOpCompositeConstruct, parts);
    return {parts[1], {}};
  }

  uint32_t convert_pointer(std::vector<uint32_t>& out, uint32_t integer, uint32_t pointer) {
    return emit_value(out, kOpConvertPtrToU, integer, {pointer});
  }

  // An unsigned integer type of `bits`, declared once.
  uint32_t integer_type(uint32_t bits) {
    for (const Instruction& instruction : instructions_) {
      if (instruction.opcode == kOpTypeInt && instruction.words[2] == bits && instruction.words[3] == 0) {
        return instruction.result_id;
      }
    }
    if (auto made = made_types_.find(bits); made != made_types_.end()) return made->second;
    const uint32_t id = next_id_++;
    added_globals_.insert(added_globals_.end(), {word_head(kOpTypeInt, 4), id, bits, 0});
    made_types_[bits] = id;
    needs_int64_ = needs_int64_ || bits == 64;
    return id;
  }

  uint32_t constant_one(uint32_t type) {
    const Instruction* integer = definitions_.count(type) ? definitions_[type] : nullptr;
    const bool wide = integer && integer->opcode == kOpTypeInt && integer->words[2] == 64;
    const uint32_t id = next_id_++;
    if (wide) {
      added_globals_.insert(added_globals_.end(), {word_head(kOpConstant, 5), type, id, 1, 0});
    } else {
      added_globals_.insert(added_globals_.end(), {word_head(kOpConstant, 4), type, id, 1});
    }
    return id;
  }

  uint32_t emit_value(std::vector<uint32_t>& out, uint32_t opcode, uint32_t type, std::vector<uint32_t> operands) {
    const uint32_t id = next_id_++;
    operands.insert(operands.begin(), {type, id});
    emit(out, opcode, operands);
    type_of_[id] = type;
    return id;
  }

  static void emit(std::vector<uint32_t>& out, uint32_t opcode, const std::vector<uint32_t>& operands) {
    out.push_back(word_head(opcode, operands.size() + 1));
    out.insert(out.end(), operands.begin(), operands.end());
  }

  std::vector<Instruction> instructions_;
  std::map<uint32_t, const Instruction*> definitions_;
  std::map<uint32_t, uint32_t> type_of_;
  std::map<uint32_t, uint32_t> made_types_;
  std::set<uint32_t> capabilities_;
  std::vector<uint32_t> globals_, functions_, added_globals_;
  uint32_t next_id_;
  uint32_t pointer_bits_ = 64;
  bool needs_int64_ = false;
  bool changed_ = false;
};

}  // namespace

LegalizedSpirv legalize_spirv_for_translator(std::string_view il) {
  LegalizedSpirv result{std::string(il), {}};
  std::vector<uint32_t> words(il.size() / 4);
  std::memcpy(words.data(), il.data(), words.size() * 4);
  std::vector<Instruction> instructions;
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_4);
  const spv_result_t parsed =
      spvBinaryParse(context, &instructions, words.data(), words.size(), nullptr, collect, nullptr);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS) {
    result.problem = "the module could not be parsed";
    return result;
  }
  Rewriter rewriter(std::move(instructions), words[3]);
  std::vector<uint32_t> globals, functions;
  result.problem = rewriter.rewrite(globals, functions);
  if (!result.problem.empty() || !rewriter.changed()) return result;
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out[3] = rewriter.bound();
  out.insert(out.end(), globals.begin(), globals.end());
  out.insert(out.end(), functions.begin(), functions.end());
  result.il.assign(reinterpret_cast<const char*>(out.data()), out.size() * 4);
  return result;
}

}  // namespace cucl::compiler

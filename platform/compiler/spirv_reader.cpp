#include "platform/compiler/spirv_reader.h"

#include "platform/compiler/kernel_metadata.h"
#include "platform/compiler/spirv_legalize.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <spirv-tools/libspirv.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
#include <map>
#include <sstream>
#include <string>

namespace cucl::compiler {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

std::istringstream stream_of(std::string_view il) { return std::istringstream(std::string(il)); }

bool has_spirv_header(std::string_view il) {
  if (il.size() < 20 || il.size() % 4 != 0) return false;
  uint32_t magic = 0;
  std::memcpy(&magic, il.data(), sizeof magic);
  return magic == kSpirvMagic;
}

// The newest SPIR-V the devices list (backends/compiler_description.cpp's `ils`). The
// instructions of SPIR-V 1.4 the translator of LLVM 15 cannot read are rewritten first
// (spirv_legalize.h); a newer module never reaches it.
constexpr uint32_t kNewestReadableVersion = 0x00010400;

uint32_t spirv_version(std::string_view il) {
  uint32_t version = 0;
  std::memcpy(&version, il.data() + 4, sizeof version);
  return version;
}

// Empty when the module's version is one the devices read.
std::string version_problem(std::string_view il) {
  const uint32_t version = spirv_version(il);
  if (version <= kNewestReadableVersion) return {};
  return "the module is SPIR-V " + std::to_string((version >> 16) & 0xff) + "." + std::to_string((version >> 8) & 0xff) +
         ", newer than the SPIR-V the devices read (1.0 to " + std::to_string((kNewestReadableVersion >> 16) & 0xff) +
         "." + std::to_string((kNewestReadableVersion >> 8) & 0xff) + ")";
}

// The translator asserts on malformed modules, so only modules SPIRV-Tools' validator
// accepts reach it. Returns the validator's message, empty when the module is valid.
std::string validation_problem(std::string_view il) {
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_5);
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result = spvValidateBinary(context, reinterpret_cast<const uint32_t*>(il.data()), il.size() / 4,
                                                &diagnostic);
  std::string problem;
  if (result != SPV_SUCCESS) problem = diagnostic && diagnostic->error ? diagnostic->error : "invalid SPIR-V module";
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return problem;
}

// The translator makes UniformConstant variables writable globals of the constant address
// space. OpenCL's constant memory is read-only whatever the module says, so they are
// constants: printf's format in one is a literal, and the optimizer may fold their loads.
void mark_constant_memory_constant(llvm::Module& module) {
  constexpr unsigned kSpirConstantAddressSpace = 2;
  for (llvm::GlobalVariable& global : module.globals()) {
    if (global.getAddressSpace() == kSpirConstantAddressSpace && global.hasInitializer()) global.setConstant(true);
  }
}

// OpExecutionMode SubgroupsPerWorkgroup (SubgroupDispatch), which the translator drops:
// each entry point's count as function metadata (compiler/kernel_metadata.h reads it).
void keep_sub_groups_per_work_group(std::string_view il, llvm::Module& module) {
  constexpr uint32_t kOpEntryPoint = 15, kOpExecutionMode = 16, kSubgroupsPerWorkgroup = 36;
  std::map<uint32_t, std::string> names;
  std::map<uint32_t, uint32_t> counts;
  const size_t count = il.size() / 4;
  auto word = [&](size_t i) {
    uint32_t w = 0;
    std::memcpy(&w, il.data() + i * 4, 4);
    return w;
  };
  for (size_t i = 5; i < count;) {
    const uint32_t head = word(i), opcode = head & 0xffff, length = head >> 16;
    if (length == 0 || i + length > count) break;
    if (opcode == kOpEntryPoint && length >= 4) {
      names[word(i + 2)] = std::string(il.data() + (i + 3) * 4, strnlen(il.data() + (i + 3) * 4, (length - 3) * 4));
    } else if (opcode == kOpExecutionMode && length >= 4 && word(i + 2) == kSubgroupsPerWorkgroup) {
      counts[word(i + 1)] = word(i + 3);
    }
    i += length;
  }
  for (auto [id, sub_groups] : counts) {
    llvm::Function* kernel = names.count(id) ? module.getFunction(names[id]) : nullptr;
    if (!kernel) continue;
    llvm::LLVMContext& context = module.getContext();
    llvm::Metadata* value = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), sub_groups));
    kernel->setMetadata(kSubGroupsPerWorkGroupMetadata, llvm::MDNode::get(context, {value}));
  }
}

SPIRV::TranslatorOpts translator_options() {
  SPIRV::TranslatorOpts options;
  options.enableAllExtensions();
  // Builtins as OpenCL C 2.0 names them: atomics become atomic_*_explicit with the order and
  // scope of their SPIR-V semantics (OpenCL 1.2's atomic_add and the like would drop both,
  // leaving every SPIR-V atomic relaxed on GPUs).
  options.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::OpenCL20);
  return options;
}

}  // namespace

bool is_readable_spirv(std::string_view il) {
  if (!has_spirv_header(il)) return false;
  // The translator's module type is not public, so a full translation is the check.
  return translate_spirv(il, {}).ok;
}

std::map<uint32_t, uint32_t> specialization_constant_sizes(std::string_view il) {
  std::map<uint32_t, uint32_t> sizes;
  if (!has_spirv_header(il) || !version_problem(il).empty() || !validation_problem(il).empty()) return sizes;
  const LegalizedSpirv legal = legalize_spirv_for_translator(il);
  if (!legal.problem.empty()) return sizes;
  auto stream = stream_of(legal.il);
  std::vector<llvm::SpecConstInfoTy> constants;
  if (!llvm::getSpecConstInfo(stream, constants)) return sizes;
  for (auto [id, size] : constants) sizes[id] = size;
  return sizes;
}

FrontendResult translate_spirv(std::string_view il, const SpecializationConstants& constants) {
  FrontendResult result;
  if (!has_spirv_header(il)) {
    result.log = "error: the IL is not a SPIR-V module\n";
    return result;
  }
  if (std::string problem = version_problem(il); !problem.empty()) {
    result.log = "error: " + problem + "\n";
    return result;
  }
  if (std::string problem = validation_problem(il); !problem.empty()) {
    result.log = "error: invalid SPIR-V module: " + problem + "\n";
    return result;
  }
  const LegalizedSpirv legal = legalize_spirv_for_translator(il);
  if (!legal.problem.empty()) {
    result.log = "error: the SPIR-V module could not be translated: " + legal.problem + "\n";
    return result;
  }
  SPIRV::TranslatorOpts options = translator_options();
  for (auto [id, value] : constants) options.setSpecConst(id, value);
  auto stream = stream_of(legal.il);
  llvm::LLVMContext context;
  // The translator of LLVM 15 works with typed pointers (it asserts on opaque ones, e.g. for
  // the OpenCL.std printf instruction); the bitcode it gives is read back with opaque ones.
  context.setOpaquePointers(false);
  llvm::Module* module = nullptr;
  std::string error;
  if (!llvm::readSpirv(context, options, stream, module, error) || !module) {
    result.log = "error: the SPIR-V module could not be translated: " + error + "\n";
    delete module;
    return result;
  }
  std::unique_ptr<llvm::Module> owned(module);
  mark_constant_memory_constant(*owned);
  keep_sub_groups_per_work_group(legal.il, *owned);
  llvm::raw_string_ostream bitcode(result.bitcode);
  llvm::WriteBitcodeToFile(*owned, bitcode);
  bitcode.flush();
  result.ok = true;
  return result;
}

}  // namespace cucl::compiler

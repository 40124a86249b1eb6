#include "platform/compiler/spirv_reader.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <spirv-tools/libspirv.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
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
// translator of LLVM 15 aborts the process on instructions of SPIR-V 1.4 (OpDecorateString,
// OpCopyLogical, OpPtrEqual, ...), so a newer module never reaches it.
constexpr uint32_t kNewestReadableVersion = 0x00010200;

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

SPIRV::TranslatorOpts translator_options() {
  SPIRV::TranslatorOpts options;
  options.enableAllExtensions();
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
  auto stream = stream_of(il);
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
  SPIRV::TranslatorOpts options = translator_options();
  for (auto [id, value] : constants) options.setSpecConst(id, value);
  auto stream = stream_of(il);
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
  llvm::raw_string_ostream bitcode(result.bitcode);
  llvm::WriteBitcodeToFile(*owned, bitcode);
  bitcode.flush();
  result.ok = true;
  return result;
}

}  // namespace cucl::compiler

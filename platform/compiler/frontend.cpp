#include "platform/compiler/frontend.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <iterator>

namespace cucl::compiler {
namespace {

// The program and its embedded headers live in an in-memory folder of this name, laid
// over the real file system so that -I folders still work.
constexpr std::string_view kProgramFolder = "/cucl-program/";
constexpr std::string_view kProgramFile = "program.cl";

std::string without_program_folder(std::string log) {
  for (size_t at = log.find(kProgramFolder); at != std::string::npos; at = log.find(kProgramFolder, at)) {
    log.erase(at, kProgramFolder.size());
  }
  return log;
}

constexpr std::string_view kExtensionsUnknownToClang[] = {
    "cl_khr_extended_bit_ops", "cl_khr_subgroup_extended_types", "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_rotate", "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_clustered_reduce",
    "cl_khr_integer_dot_product", "cl_ext_float_atomics"};

std::vector<std::string> clang_arguments(const FrontendRequest& request, const backend::DeviceDescription& device) {
  const std::string resource_dir = CUCL_CLANG_RESOURCE_DIR;
  std::vector<std::string> args = {"-triple", device.compiler.triple};
  args.insert(args.end(), device.compiler.clang_args.begin(), device.compiler.clang_args.end());
  // clang 15 knows OpenCL C up to 3.0. OpenCL C 3.1 is 3.0 with extensions promoted (which
  // the devices list, so their functions are declared) and printf's z and t length
  // modifiers (which clang does not check for OpenCL): 3.0 with 3.1's version macros.
  const bool opencl_c_3_1 = request.cl_std == "CL3.1";
  args.insert(args.end(), {"-resource-dir", resource_dir, "-internal-isystem", resource_dir + "/include",
                           "-finclude-default-header", "-fdeclare-opencl-builtins", opencl_extensions_flag(device),
                           "-cl-std=" + std::string(opencl_c_3_1 ? "CL3.0" : request.cl_std), "-cl-kernel-arg-info",
                           "-fno-caret-diagnostics"});
  if (opencl_c_3_1) {
    args.insert(args.end(), {"-U__OPENCL_C_VERSION__", "-D__OPENCL_C_VERSION__=310", "-DCL_VERSION_3_1=310"});
  }
  // clang 15 defines some OpenCL C 3.0 features only in its header, and there only for
  // SPIR targets (atomic scopes, work-group collectives, read-write images): each
  // reported feature is also defined directly (an identical redefinition is harmless).
  // Extensions clang 15's -cl-ext does not know: it declares their builtins only where their
  // macro is defined, and defines no macro for them itself.
  for (const auto& extension : device.extensions) {
    if (std::find(std::begin(kExtensionsUnknownToClang), std::end(kExtensionsUnknownToClang), extension.name) !=
        std::end(kExtensionsUnknownToClang)) {
      args.push_back("-D" + extension.name + "=1");
    }
  }
  // The device's OpenCL version, which clang cannot know.
  args.push_back("-D__OPENCL_VERSION__=" + std::to_string(CL_VERSION_MAJOR(device.numeric_version) * 100 +
                                                          CL_VERSION_MINOR(device.numeric_version) * 10));
  // cl_khr_integer_dot_product's functions exist in every OpenCL C version, but clang 15
  // declares them only under the feature macros, which only OpenCL C 3.0 defines otherwise.
  for (const auto& feature : device.opencl_c_features) {
    if (request.cl_std.starts_with("CL3") || feature.name.starts_with("__opencl_c_integer_dot_product")) {
      args.push_back("-D" + feature.name + "=1");
    }
  }
  if (device.image_support) {
    // OpenCL C defines it for every device with images; clang leaves it to the driver.
    args.push_back("-D__IMAGE_SUPPORT__=1");
    // The image channel type OpenCL 3.0 added, which clang 15's header does not name.
    args.push_back("-DCLK_UNORM_INT_101010_2=0x10E0");
  }
  // Optimisation happens after the builtins are linked (in the backend): the front end
  // only sets the level, which decides the metadata later passes rely on.
  if (request.optimize) {
    args.insert(args.end(), {"-O2", "-disable-llvm-passes"});
  } else {
    args.insert(args.end(), {"-O0", "-disable-O0-optnone", "-disable-llvm-passes"});
  }
  args.insert(args.end(), request.user_args.begin(), request.user_args.end());
  args.insert(args.end(), {"-x", "cl", std::string(kProgramFolder) + std::string(kProgramFile)});
  return args;
}

}  // namespace

std::string opencl_extensions_flag(const backend::DeviceDescription& device) {
  std::string flag = "-cl-ext=-all";
  for (const auto& extension : device.extensions) flag += ",+" + extension.name;
  for (const auto& feature : device.opencl_c_features) flag += ",+" + feature.name;
  return flag;
}

FrontendResult compile_opencl_c(const FrontendRequest& request, const backend::DeviceDescription& device) {
  FrontendResult result;
  llvm::raw_string_ostream log(result.log);

  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagnostic_options = new clang::DiagnosticOptions();
  diagnostic_options->ShowColors = false;
  auto* printer = new clang::TextDiagnosticPrinter(log, diagnostic_options.get());

  const std::vector<std::string> args = clang_arguments(request, device);
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());

  auto files = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  files->addFile(std::string(kProgramFolder) + std::string(kProgramFile), 0,
                 llvm::MemoryBuffer::getMemBufferCopy(request.source));
  for (const EmbeddedHeader& header : request.headers) {
    files->addFile(std::string(kProgramFolder) + header.name, 0, llvm::MemoryBuffer::getMemBufferCopy(header.text));
  }
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::createPhysicalFileSystem());
  overlay->pushOverlay(files);

  clang::CompilerInstance compiler;
  compiler.createDiagnostics(printer, /*ShouldOwnClient=*/true);
  if (!clang::CompilerInvocation::CreateFromArgs(compiler.getInvocation(), argv, compiler.getDiagnostics())) {
    log.flush();
    result.log = without_program_folder(std::move(result.log));
    if (result.log.empty()) result.log = "error: the compiler rejected the build options\n";
    return result;
  }
  // The options parsed above include -w, -Werror and -W...: apply them to the engine
  // that already exists.
  clang::ProcessWarningOptions(compiler.getDiagnostics(), compiler.getDiagnosticOpts(), /*ReportDiags=*/false);
  compiler.createFileManager(overlay);

  llvm::LLVMContext context;
  clang::EmitLLVMOnlyAction action(&context);
  const bool ok = compiler.ExecuteAction(action);
  std::unique_ptr<llvm::Module> module = ok ? action.takeModule() : nullptr;
  log.flush();
  result.log = without_program_folder(std::move(result.log));
  if (!module) return result;

  llvm::raw_string_ostream bitcode(result.bitcode);
  llvm::WriteBitcodeToFile(*module, bitcode);
  bitcode.flush();
  result.ok = true;
  return result;
}

}  // namespace cucl::compiler

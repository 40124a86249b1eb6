#include "platform/compiler/ir_linker.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

namespace cucl::compiler {

LinkResult link_modules(const std::vector<std::string_view>& bitcodes) {
  LinkResult result;
  llvm::LLVMContext context;
  context.setOpaquePointers(true);  // typed-pointer bitcode (from the SPIR-V translator) is upgraded
  llvm::raw_string_ostream log(result.log);
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo& info, void* stream) {
        llvm::DiagnosticPrinterRawOStream printer(*static_cast<llvm::raw_string_ostream*>(stream));
        printer << (info.getSeverity() == llvm::DS_Error ? "error: " : "warning: ");
        info.print(printer);
        printer << "\n";
      },
      &log);
  std::unique_ptr<llvm::Module> linked;
  for (std::string_view bitcode : bitcodes) {
    auto buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(bitcode.data(), bitcode.size()), "object", false);
    auto module = llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
    if (!module) {
      log << "error: unreadable compiled object: " << llvm::toString(module.takeError()) << "\n";
      log.flush();
      return result;
    }
    if (!linked) {
      linked = std::move(*module);
    } else if (llvm::Linker::linkModules(*linked, std::move(*module))) {
      log << "error: linking failed\n";
      log.flush();
      return result;
    }
  }
  if (!linked) return result;
  llvm::raw_string_ostream out(result.bitcode);
  llvm::WriteBitcodeToFile(*linked, out);
  out.flush();
  log.flush();
  result.ok = true;
  return result;
}

}  // namespace cucl::compiler

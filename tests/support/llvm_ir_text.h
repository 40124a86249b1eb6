// LLVM IR written in a test, parsed into a module; a parse error fails the test with the
// parser's message (and gives null). Header-only: the unit tests that read IR link LLVM.
#pragma once

#include <gtest/gtest.h>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

namespace cucl::test {

inline std::unique_ptr<llvm::Module> parse_ir(const std::string& text, llvm::LLVMContext& context) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, error, context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    error.print("test", stream);
    ADD_FAILURE() << message;
  }
  return module;
}

// How often `what` occurs in `text`.
inline size_t occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
  return count;
}

}  // namespace cucl::test

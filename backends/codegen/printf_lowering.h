// printf calls become records written to the launch's printf buffer
// (backends/printf_format.h); the call sites go into the program's printf table.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

#include <string>
#include <vector>

#include "backends/printf_format.h"

namespace llvm {
class Function;
class Instruction;
class Value;
}  // namespace llvm

namespace cucl::backend {

// Emits, before `call`, the address of the launch's printf buffer.
using PrintfBufferSource = llvm::function_ref<llvm::Value*(llvm::Instruction& call)>;

// Lowers every printf call of `function` (an entry point with everything inlined). Returns
// whether it had any; a format that is not a string literal adds to `error`.
bool lower_printf(llvm::Function& function, PrintfBufferSource buffer, std::vector<PrintfCallSite>& sites,
                  std::string& error);

}  // namespace cucl::backend

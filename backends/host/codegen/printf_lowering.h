// printf calls become records written to the launch's printf buffer
// (backends/printf_format.h); the call sites go into the program's printf table.
#pragma once

#include <string>
#include <vector>

#include "backends/printf_format.h"

namespace llvm {
class Function;
class StructType;
}  // namespace llvm

namespace cucl::backend::host {

// Lowers every printf call of a work-item entry point (args, context, x, y, z). Returns
// whether it had any; a format that is not a string literal adds to `error`.
bool lower_printf(llvm::Function& work_item, llvm::StructType* context_type, std::vector<PrintfCallSite>& sites,
                  std::string& error);

}  // namespace cucl::backend::host

// x86's integer divide instruction traps (SIGFPE) on a zero divisor and on the one signed
// quotient that overflows (MIN / -1), which would kill the application. OpenCL C leaves
// those results undefined but the program must go on, as it does on GPUs, whose division
// never traps. Every integer division and remainder of the module gets a divisor that
// cannot trap: 1 in those cases (so MIN / -1 gives MIN, the wrapped quotient, and x % 0
// gives 0), chosen with a select per element, which vectorises and folds away where the
// divisor is a constant.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace cucl::backend::host {

void guard_integer_division(llvm::Module& module);

}  // namespace cucl::backend::host

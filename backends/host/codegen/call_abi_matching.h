// Modules translated from SPIR-V call builtins with SPIR's calling convention: vectors and
// results passed as they are. The host's builtin library is compiled for x86-64, whose C ABI
// passes a float2 as a double, a char4 as an i32, a float8 (without AVX) through memory
// (byval), and may return through memory (sret). Calling such a definition with the
// translator's types passes garbage or crashes. Each call whose types differ from its
// callee's is rewritten to the callee's ABI: values reinterpreted through memory where the
// ABI coerced them, stored to a stack slot where it takes them byval or returns sret.
#pragma once

#include <string>

namespace llvm {
class Module;
}  // namespace llvm

namespace cucl::backend::host {

// Empty when every call now matches its callee, else an error line per call it could not
// match (an internal error: the definition takes arguments the call does not have).
std::string match_call_abis(llvm::Module& module);

}  // namespace cucl::backend::host

// The LLVM target machine for this process's CPU, shared by code generation and the JIT.
#pragma once

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace cucl::backend::host {

struct HostTarget {
  std::string triple;
  std::string cpu;
  std::string features;
};

const HostTarget& host_target();
std::unique_ptr<llvm::TargetMachine> create_host_target_machine(bool optimize);
// Marks every function of `module` as code for this CPU. The OpenCL front end and the
// builtin library mark theirs for generic x86-64 (SSE2), and a function's own feature list
// replaces the target machine's: only the features its CPU name implies would be left, and
// none beyond SSE2 where LLVM does not know the CPU by name (AMD's Zen 4 to LLVM 15 is a
// Zen 3, without AVX-512).
void target_this_cpu(llvm::Module& module);

}  // namespace cucl::backend::host

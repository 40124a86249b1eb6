// The LLVM target machine for this process's CPU, shared by code generation and the JIT.
#pragma once

#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
}

namespace cucl::backend::host {

struct HostTarget {
  std::string triple;
  std::string cpu;
  std::string features;
};

const HostTarget& host_target();
std::unique_ptr<llvm::TargetMachine> create_host_target_machine(bool optimize);

}  // namespace cucl::backend::host

#include "backends/host/codegen/target_machine.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include "base/error.h"

namespace cucl::backend::host {
namespace {

HostTarget detect_host_target() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  HostTarget target;
  target.triple = "x86_64-unknown-linux-gnu";
  target.cpu = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features;
  if (llvm::sys::getHostCPUFeatures(features)) {
    std::vector<std::string> enabled;
    for (const auto& feature : features) enabled.push_back((feature.second ? "+" : "-") + feature.first().str());
    std::sort(enabled.begin(), enabled.end());
    for (const std::string& feature : enabled) target.features += (target.features.empty() ? "" : ",") + feature;
  }
  return target;
}

}  // namespace

const HostTarget& host_target() {
  static const HostTarget target = detect_host_target();  // immutable after the first call
  return target;
}

std::unique_ptr<llvm::TargetMachine> create_host_target_machine(bool optimize) {
  const HostTarget& target = host_target();
  std::string error;
  const llvm::Target* llvm_target = llvm::TargetRegistry::lookupTarget(target.triple, error);
  if (!llvm_target) fail(CL_OUT_OF_RESOURCES);
  llvm::TargetOptions options;
  return std::unique_ptr<llvm::TargetMachine>(llvm_target->createTargetMachine(
      target.triple, target.cpu, target.features, options, llvm::Reloc::PIC_, llvm::CodeModel::Small,
      optimize ? llvm::CodeGenOpt::Aggressive : llvm::CodeGenOpt::None));
}

void target_this_cpu(llvm::Module& module) {
  const HostTarget& target = host_target();
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    function.addFnAttr("target-cpu", target.cpu);
    function.addFnAttr("target-features", target.features);
  }
}

}  // namespace cucl::backend::host

#include "backends/host/codegen/register_pressure.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace cucl::backend::host {
namespace {

using LiveSet = llvm::DenseSet<const llvm::Value*>;

// The values a block needs from before it: its operands not defined in it, and what its
// successors need that it does not define. Phis need their incoming values at the end of
// the block they come from.
void add_uses_before(const llvm::Instruction& instruction, const std::function<bool(const llvm::Value*)>& tracked,
                     LiveSet& live) {
  if (llvm::isa<llvm::PHINode>(instruction)) return;
  for (const llvm::Value* operand : instruction.operand_values()) {
    if (tracked(operand)) live.insert(operand);
  }
}

}  // namespace

uint64_t peak_varying_bytes(const llvm::Function& function, const std::function<bool(const llvm::Value*)>& varying) {
  const llvm::DataLayout& layout = function.getParent()->getDataLayout();
  auto tracked = [&](const llvm::Value* value) {
    return llvm::isa<llvm::Instruction, llvm::Argument>(value) && varying(value) && value->getType()->isSized();
  };
  auto bytes_of = [&](const llvm::Value* value) {
    return std::max<uint64_t>(1, layout.getTypeStoreSize(value->getType()).getFixedSize());
  };
  // Live-out sets by iteration to a fixed point, over the blocks in reverse.
  llvm::DenseMap<const llvm::BasicBlock*, LiveSet> live_in, live_out;
  for (bool changed = true; changed;) {
    changed = false;
    for (const llvm::BasicBlock& block : llvm::reverse(function)) {
      LiveSet out;
      for (const llvm::BasicBlock* successor : llvm::successors(&block)) {
        for (const llvm::Value* value : live_in[successor]) out.insert(value);
        for (const llvm::PHINode& phi : successor->phis()) {
          const llvm::Value* incoming = phi.getIncomingValueForBlock(&block);
          if (tracked(incoming)) out.insert(incoming);
        }
      }
      LiveSet in = out;
      for (const llvm::Instruction& instruction : llvm::reverse(block)) {
        in.erase(&instruction);
        add_uses_before(instruction, tracked, in);
      }
      if (in.size() != live_in[&block].size()) {
        live_in[&block] = std::move(in);
        changed = true;
      }
      live_out[&block] = std::move(out);
    }
  }
  uint64_t peak = 0;
  for (const llvm::BasicBlock& block : function) {
    LiveSet live = live_out[&block];
    uint64_t bytes = 0;
    for (const llvm::Value* value : live) bytes += bytes_of(value);
    peak = std::max(peak, bytes);
    for (const llvm::Instruction& instruction : llvm::reverse(block)) {
      if (live.erase(&instruction)) bytes -= bytes_of(&instruction);
      if (llvm::isa<llvm::PHINode>(instruction)) continue;
      for (const llvm::Value* operand : instruction.operand_values()) {
        if (tracked(operand) && live.insert(operand).second) bytes += bytes_of(operand);
      }
      peak = std::max(peak, bytes);
    }
  }
  return peak;
}

}  // namespace cucl::backend::host

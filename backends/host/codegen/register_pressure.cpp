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
using Tracked = std::function<bool(const llvm::Use&)>;
using BytesOf = std::function<uint64_t(const llvm::Value*)>;

// Steps `live` from just after `instruction` to just before it; `bytes` follows the set's
// size. A phi's incoming values are live at the end of the blocks they come from, not here.
void step_back(const llvm::Instruction& instruction, const Tracked& tracked, const BytesOf& bytes_of, LiveSet& live,
               uint64_t& bytes) {
  if (live.erase(&instruction)) bytes -= bytes_of(&instruction);
  if (llvm::isa<llvm::PHINode>(instruction)) return;
  for (const llvm::Use& operand : instruction.operands()) {
    if (tracked(operand) && live.insert(operand.get()).second) bytes += bytes_of(operand.get());
  }
}

}  // namespace

uint64_t peak_varying_bytes(const llvm::Function& function, const std::function<bool(const llvm::Use&)>& held) {
  const llvm::DataLayout& layout = function.getParent()->getDataLayout();
  const Tracked tracked = [&](const llvm::Use& use) {
    const llvm::Value* value = use.get();
    return llvm::isa<llvm::Instruction, llvm::Argument>(value) && value->getType()->isSized() && held(use);
  };
  const BytesOf bytes_of = [&](const llvm::Value* value) {
    return std::max<uint64_t>(1, layout.getTypeStoreSize(value->getType()).getFixedSize());
  };
  auto total = [&](const LiveSet& live) {
    uint64_t bytes = 0;
    for (const llvm::Value* value : live) bytes += bytes_of(value);
    return bytes;
  };
  // Live-out sets by iteration to a fixed point (the sets only grow), over the blocks in reverse.
  llvm::DenseMap<const llvm::BasicBlock*, LiveSet> live_in, live_out;
  for (bool changed = true; changed;) {
    changed = false;
    for (const llvm::BasicBlock& block : llvm::reverse(function)) {
      LiveSet out;
      for (const llvm::BasicBlock* successor : llvm::successors(&block)) {
        for (const llvm::Value* value : live_in[successor]) out.insert(value);
        for (const llvm::PHINode& phi : successor->phis()) {
          const llvm::Use& incoming = phi.getOperandUse(static_cast<unsigned>(phi.getBasicBlockIndex(&block)));
          if (tracked(incoming)) out.insert(incoming.get());
        }
      }
      LiveSet in = out;
      uint64_t unused = total(in);
      for (const llvm::Instruction& instruction : llvm::reverse(block)) step_back(instruction, tracked, bytes_of, in, unused);
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
    uint64_t bytes = total(live);
    peak = std::max(peak, bytes);
    for (const llvm::Instruction& instruction : llvm::reverse(block)) {
      step_back(instruction, tracked, bytes_of, live, bytes);
      peak = std::max(peak, bytes);
    }
  }
  return peak;
}

}  // namespace cucl::backend::host

#include "backends/codegen/linear_switch_arms.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include <llvm/Analysis/LazyValueInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace cucl::backend {
namespace {

// Bounds the switched values and slopes handled, so that the linear fit below is exact in
// 64-bit arithmetic.
constexpr unsigned kLargestBits = 24;
constexpr int64_t kLargestMagnitude = int64_t{1} << kLargestBits;

// An arm as a funnel shift: the high word of `high:low` shifted left by `amount` (modulo
// the width). Shifts by a constant are funnel shifts with a zero word.
struct FunnelArm {
  llvm::Value* high;
  llvm::Value* low;
  uint64_t amount;
};

std::optional<FunnelArm> funnel_form(llvm::Value* value) {
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || !instruction->getType()->isIntegerTy()) return std::nullopt;
  const uint64_t bits = instruction->getType()->getIntegerBitWidth();
  llvm::Value* zero = llvm::ConstantInt::get(instruction->getType(), 0);
  if (const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(instruction)) {
    const llvm::Intrinsic::ID id = intrinsic->getIntrinsicID();
    if (id != llvm::Intrinsic::fshl && id != llvm::Intrinsic::fshr) return std::nullopt;
    const auto* amount = llvm::dyn_cast<llvm::ConstantInt>(intrinsic->getArgOperand(2));
    if (!amount) return std::nullopt;
    const uint64_t shift = amount->getValue().urem(bits);
    return FunnelArm{intrinsic->getArgOperand(0), intrinsic->getArgOperand(1),
                     id == llvm::Intrinsic::fshl ? shift : (bits - shift) % bits};
  }
  const unsigned opcode = instruction->getOpcode();
  if (opcode != llvm::Instruction::Shl && opcode != llvm::Instruction::LShr) return std::nullopt;
  const auto* amount = llvm::dyn_cast<llvm::ConstantInt>(instruction->getOperand(1));
  if (!amount || amount->getValue().uge(bits)) return std::nullopt;
  const uint64_t shift = amount->getZExtValue();
  if (opcode == llvm::Instruction::Shl) return FunnelArm{instruction->getOperand(0), zero, shift};
  if (shift == 0) return FunnelArm{instruction->getOperand(0), zero, 0};
  return FunnelArm{zero, instruction->getOperand(0), bits - shift};
}

// The amount by which `value` is `shape` shifted: `shape.high` itself is a shift by 0.
std::optional<int64_t> amount_in(llvm::Value* value, const FunnelArm& shape) {
  if (value == shape.high) return 0;
  std::optional<FunnelArm> arm = funnel_form(value);
  if (!arm || arm->high != shape.high || arm->low != shape.low) return std::nullopt;
  return static_cast<int64_t>(arm->amount);
}

// Values the phi's choice may depend on: what the switches and equality branches above it test.
std::vector<llvm::Value*> switched_values(llvm::BasicBlock& block, const llvm::DominatorTree& dominators) {
  std::vector<llvm::Value*> values;
  const llvm::DomTreeNode* node = dominators.getNode(&block);
  for (int depth = 0; node && node->getIDom() && depth < 4; ++depth) {
    node = node->getIDom();
    const llvm::Instruction* terminator = node->getBlock()->getTerminator();
    if (const auto* choice = llvm::dyn_cast<llvm::SwitchInst>(terminator)) {
      values.push_back(choice->getCondition());
    } else if (const auto* branch = llvm::dyn_cast<llvm::BranchInst>(terminator); branch && branch->isConditional()) {
      const auto* compare = llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition());
      if (compare && compare->isEquality() && llvm::isa<llvm::ConstantInt>(compare->getOperand(1))) {
        values.push_back(compare->getOperand(0));
      }
    }
  }
  return values;
}

struct LinearFit {
  int64_t scale;
  int64_t offset;
};

// S and T with amount == S * key + T (modulo the width) for every pair.
std::optional<LinearFit> fit(const std::vector<int64_t>& keys, const std::vector<int64_t>& amounts, uint64_t modulus) {
  size_t other = 1;
  while (other < keys.size() && keys[other] == keys[0]) ++other;
  if (other == keys.size()) return std::nullopt;
  const auto m = static_cast<int64_t>(modulus);
  auto reduced = [m](int64_t amount) { return ((amount % m) + m) % m; };
  const int64_t key_step = keys[other] - keys[0];
  // Modulo the width the amounts may have wrapped: the first slope that fits both points.
  std::optional<int64_t> slope;
  for (int64_t wraps = 0; wraps < std::min<int64_t>(key_step < 0 ? -key_step : key_step, 64) && !slope; ++wraps) {
    const int64_t amount_step = amounts[other] - amounts[0] + wraps * m;
    if (amount_step % key_step == 0) slope = amount_step / key_step;
  }
  if (!slope) return std::nullopt;
  const LinearFit line{*slope, amounts[0] - *slope * keys[0]};
  for (size_t i = 0; i < keys.size(); ++i) {
    if (reduced(line.scale * keys[i] + line.offset) != reduced(amounts[i])) return std::nullopt;
  }
  return line;
}

// The one value `switched` can hold on the edge from a switch on it to its default
// destination `to`: the one value of `defined` that no case takes. LazyValueInfo takes the
// cases out of the full range one at a time, and a range with a hole in the middle stays whole
// (cases 3, 1, 2 of c & 3 leave it [0, 3) rather than {0}).
std::optional<llvm::APInt> default_key(llvm::Value* switched, llvm::BasicBlock& from, llvm::BasicBlock& to,
                                       const llvm::ConstantRange& defined) {
  constexpr uint64_t kLargestDefinedRange = 64;
  const auto* choice = llvm::dyn_cast<llvm::SwitchInst>(from.getTerminator());
  if (!choice || choice->getCondition() != switched || choice->getDefaultDest() != &to || defined.isFullSet() ||
      defined.isWrappedSet() || (defined.getUpper() - defined.getLower()).ugt(kLargestDefinedRange)) {
    return std::nullopt;
  }
  for (const auto& option : choice->cases()) {
    if (option.getCaseSuccessor() == &to) return std::nullopt;  // the edge carries that case too
  }
  std::optional<llvm::APInt> key;
  for (llvm::APInt value = defined.getLower(); value != defined.getUpper(); ++value) {
    const bool taken = std::any_of(choice->case_begin(), choice->case_end(), [&](const auto& option) {
      return option.getCaseValue()->getValue() == value;
    });
    if (taken) continue;
    if (key) return std::nullopt;  // two values reach the default
    key = value;
  }
  return key;
}

bool dominates_block(llvm::Value* value, llvm::BasicBlock& block, const llvm::DominatorTree& dominators) {
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
  return !instruction || dominators.properlyDominates(instruction->getParent(), &block);
}

// Replaces `phi` when its arms fit; true when it did.
bool fold_phi(llvm::PHINode& phi, llvm::LazyValueInfo& values, const llvm::DominatorTree& dominators) {
  auto* type = llvm::dyn_cast<llvm::IntegerType>(phi.getType());
  if (!type || phi.getNumIncomingValues() < 2) return false;
  std::optional<FunnelArm> shape;
  for (llvm::Value* incoming : phi.incoming_values()) {
    if ((shape = funnel_form(incoming))) break;
  }
  if (!shape) return false;
  llvm::BasicBlock& block = *phi.getParent();
  if (!dominates_block(shape->high, block, dominators) || !dominates_block(shape->low, block, dominators)) return false;
  std::vector<int64_t> amounts;
  for (llvm::Value* incoming : phi.incoming_values()) {
    std::optional<int64_t> amount = amount_in(incoming, *shape);
    if (!amount) return false;
    amounts.push_back(*amount);
  }
  for (llvm::Value* switched : switched_values(block, dominators)) {
    if (!switched->getType()->isIntegerTy() || !dominates_block(switched, block, dominators)) continue;
    // LazyValueInfo loses what a value defined outside a loop holds when asked inside it:
    // the range its definition gives is added back.
    const llvm::ConstantRange defined = llvm::computeConstantRange(switched, /*ForSigned=*/false);
    std::vector<int64_t> keys;
    for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i) {
      const llvm::ConstantRange on_edge =
          values.getConstantRangeOnEdge(switched, phi.getIncomingBlock(i), &block, &phi).intersectWith(defined);
      std::optional<llvm::APInt> key;
      if (const llvm::APInt* single = on_edge.getSingleElement()) key = *single;
      if (!key) key = default_key(switched, *phi.getIncomingBlock(i), block, defined);
      if (!key) break;
      // The key as the rebuilt amount will see it: zero-extended or truncated to its type.
      const llvm::APInt cast = key->zextOrTrunc(type->getBitWidth());
      if (cast.getActiveBits() > kLargestBits) break;
      keys.push_back(static_cast<int64_t>(cast.getZExtValue()));
    }
    if (keys.size() != phi.getNumIncomingValues()) continue;
    const std::optional<LinearFit> line = fit(keys, amounts, type->getBitWidth());
    if (!line || line->scale < -kLargestMagnitude || line->scale > kLargestMagnitude) continue;
    llvm::IRBuilder<> builder(&block, block.getFirstInsertionPt());
    llvm::Value* amount = builder.CreateZExtOrTrunc(switched, type);
    if (line->scale != 1) amount = builder.CreateMul(amount, llvm::ConstantInt::get(type, line->scale, true));
    if (line->offset != 0) amount = builder.CreateAdd(amount, llvm::ConstantInt::get(type, line->offset, true));
    llvm::Value* shifted = builder.CreateIntrinsic(llvm::Intrinsic::fshl, {type}, {shape->high, shape->low, amount});
    shifted->takeName(&phi);
    phi.replaceAllUsesWith(shifted);
    phi.eraseFromParent();
    return true;
  }
  return false;
}

}  // namespace

llvm::PreservedAnalyses LinearSwitchArmsPass::run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses) {
  auto& values = analyses.getResult<llvm::LazyValueAnalysis>(function);
  const auto& dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  bool changed = false;
  for (llvm::BasicBlock& block : function) {
    std::vector<llvm::PHINode*> phis;
    for (llvm::PHINode& phi : block.phis()) phis.push_back(&phi);
    for (llvm::PHINode* phi : phis) changed |= fold_phi(*phi, values, dominators);
  }
  if (!changed) return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  return kept;
}

}  // namespace cucl::backend

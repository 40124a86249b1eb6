// Folds a switch whose arms compute one operation with a constant that grows linearly with
// the switched value into that operation on the value itself. Byte-aligning code written
// portably (hashcat's generic `hc_bytealign`, and code like it) selects among
// `(a >> 24) | (b << 8)`, `(a >> 16) | (b << 16)`, ... by `c & 3`: each arm is a funnel
// shift by 8 * k, so the whole switch is one funnel shift by 8 * (c & 3) -- one `shf` on a
// GPU (what NVIDIA's `prmt` path costs), one `shld` on x86 -- instead of branches between
// values that LLVM 15 precomputes and keeps alive in registers.
//
// The pass finds a phi whose incoming values are one funnel shift of the same two words
// (shifts by a constant count as funnel shifts with a zero word; the high word alone is a
// shift by 0) by constant amounts C_k, and a value x known (LazyValueInfo) to equal a
// constant K_k on each incoming edge, with C_k = S * K_k + T modulo the width for all
// edges. The phi becomes the funnel shift by S * x + T.
#pragma once

#include <llvm/IR/PassManager.h>

namespace cucl::backend {

class LinearSwitchArmsPass : public llvm::PassInfoMixin<LinearSwitchArmsPass> {
 public:
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

}  // namespace cucl::backend

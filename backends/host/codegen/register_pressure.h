// An estimate of how many bytes of values that differ between work-items a work-item
// function holds at once (at its busiest point): what the whole-function vectoriser
// (work_item_vectorizer.h) multiplies by its width to keep within the CPU's vector
// registers. A kernel that holds 64 floats of its own (a GEMM's block of accumulators)
// would, 32 work-items wide, hold 8 KiB, and spend its time spilling.
#pragma once

#include <cstdint>
#include <functional>

namespace llvm {
class Function;
class Use;
}  // namespace llvm

namespace cucl::backend::host {

// `held(use)`: whether the use reads a value that differs between work-items from a register
// of its own (a value whose every lane follows from lane 0's is read, by a consecutive
// access or by more such arithmetic, as lane 0's alone).
uint64_t peak_varying_bytes(const llvm::Function& function, const std::function<bool(const llvm::Use&)>& held);

}  // namespace cucl::backend::host

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
class Value;
}  // namespace llvm

namespace cucl::backend::host {

uint64_t peak_varying_bytes(const llvm::Function& function, const std::function<bool(const llvm::Value*)>& varying);

}  // namespace cucl::backend::host

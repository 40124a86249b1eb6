// LLVM 15's NVPTX back end expands a 32-bit funnel shift by a variable amount into three
// shifts, a mask and an or, though PTX has it as one instruction (`shf.l.wrap` /
// `shf.r.wrap`, every target LLVM 15 emits). This pass, run after optimisation, writes each
// such `llvm.fshl.i32` / `llvm.fshr.i32` as that instruction. Shifts by a constant already
// come out as one `shf` and are left alone.
#pragma once

namespace llvm {
class Module;
}

namespace cucl::backend::cuda {

void emit_variable_funnel_shifts_as_shf(llvm::Module& module);

}  // namespace cucl::backend::cuda

// 64-bit index arithmetic where OpenCL C's int arithmetic promised not to overflow.
#pragma once

namespace llvm {
class Function;
}

namespace cucl::backend {

struct IndexWidening {
  // Multiplications and shifts by a constant are widened too. A CPU's 64-bit multiply costs
  // what a 32-bit one does; a GPU's costs several instructions, and there only the additions
  // matter: they carry the constant offsets.
  bool multiplications = true;
};

// Rewrites each sign extension of nsw int arithmetic (add and sub; with `how.multiplications`,
// mul and shl by a constant too) to 64 bits as the same arithmetic on sign-extended operands:
// sext(a +nsw b) is sext(a) + sext(b) wherever the former is defined. A truncation to int of a
// 64-bit value whose range fits in an int (ScalarEvolution's range: work-item ids, induction
// variables) is that value itself: int ng = get_local_id(1) + i * 8 reaches 64 bits whole.
// Run before the optimiser reassociates the arithmetic, which drops the nsw flags. Without
// it, the host's vectoriser cannot prove that the index of neighbouring work-items does not
// wrap between them, and checks it at run time before every vector access (CLBlast's Xgemm:
// two checks per iteration of its inner loop); and the NVPTX back end cannot take the
// constant offsets of unrolled loads out of their 32-bit indices, so each load computes its
// own 64-bit address instead of using one with an immediate offset (CLBlast's Xgemm with
// strided access: 32 such address computations in its inner loop).
void widen_signed_index_arithmetic(llvm::Function& function, const IndexWidening& how = {});

}  // namespace cucl::backend

// 64-bit index arithmetic where OpenCL C's int arithmetic promised not to overflow.
#pragma once

namespace llvm {
class Function;
}

namespace cucl::backend::host {

// Rewrites each sign extension of nsw int arithmetic (add, sub, mul, shl by a constant) to
// 64 bits as the same arithmetic on sign-extended operands: sext(a +nsw b) is sext(a) +
// sext(b) wherever the former is defined. Run before the optimiser reassociates the
// arithmetic, which drops the nsw flags: then the vectoriser can no longer prove that the
// index of neighbouring work-items does not wrap between them, and checks it at run time
// before every vector access (CLBlast's Xgemm: two checks per iteration of its inner loop).
void widen_signed_index_arithmetic(llvm::Function& function);

}  // namespace cucl::backend::host

// The GPU's non-uniform sub-group functions (shuffles, votes, ballots, non-uniform and
// clustered arithmetic: libclc-builtins/src/sub_group*.cl) take part with the lanes
// converged where they are called, which they read with `activemask`. LLVM 15 knows nothing
// of that: where both sides of a branch make the same call, SimplifyCFG hoists the identical
// code of the two sides above the branch, and the work-items of both sides then meet in one
// call (CTS subgroup_functions_ballot: sub_group_broadcast_first in `if (c) {...} else {...}`
// broadcast one lane's value to the whole sub-group). Marking every activemask `nomerge`
// keeps such calls, and what follows them, in the branch they were written in.
#pragma once

namespace llvm {
class Module;
}

namespace cucl::backend::cuda {

// Call before inlining: the mark travels with each inlined copy of the call.
void keep_converged_lane_reads_in_place(llvm::Module& module);

}  // namespace cucl::backend::cuda

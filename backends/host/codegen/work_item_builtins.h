// Replaces the work-item functions (get_global_id, get_local_size, ...) in a work-item
// entry point with values computed from its context and local-id parameters, and
// barrier() with a call into the fiber scheduler.
#pragma once

namespace llvm {
class Function;
class StructType;
}  // namespace llvm

namespace cucl::backend::host {

// `work_item` has the parameters (args, context, x, y, z). Returns true if it calls barrier().
bool lower_work_item_builtins(llvm::Function& work_item, llvm::StructType* context_type);

}  // namespace cucl::backend::host

// The OpenCL C functions the builtin libraries leave undefined for each code generator to
// replace: work-item queries, barrier, and the generic-address-space queries.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <optional>

namespace cucl::backend {

enum class WorkItemBuiltin { GlobalId, LocalId, LocalSize, EnqueuedLocalSize, GlobalSize, GroupId, NumGroups,
                              GlobalOffset, WorkDim, Barrier, ToGlobal, ToLocal, ToPrivate, GetFence };

// Which one a function (by its mangled name) is, if any.
std::optional<WorkItemBuiltin> work_item_builtin_named(llvm::StringRef name);

}  // namespace cucl::backend

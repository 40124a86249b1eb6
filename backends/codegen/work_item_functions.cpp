#include "backends/codegen/work_item_functions.h"

#include <string_view>
#include <utility>

namespace cucl::backend {

std::optional<WorkItemBuiltin> work_item_builtin_named(llvm::StringRef name) {
  using F = WorkItemBuiltin;
  static constexpr std::pair<std::string_view, WorkItemBuiltin> kNames[] = {
      {"_Z13get_global_idj", F::GlobalId},         {"_Z12get_local_idj", F::LocalId},
      {"_Z14get_local_sizej", F::LocalSize},       {"_Z23get_enqueued_local_sizej", F::EnqueuedLocalSize},
      {"_Z15get_global_sizej", F::GlobalSize},     {"_Z12get_group_idj", F::GroupId},
      {"_Z14get_num_groupsj", F::NumGroups},       {"_Z17get_global_offsetj", F::GlobalOffset},
      {"_Z12get_work_dimv", F::WorkDim},           {"_Z7barrierj", F::Barrier},
      {"__to_global", F::ToGlobal},                {"__to_local", F::ToLocal},
      {"__to_private", F::ToPrivate}};
  if (name.startswith("_Z9get_fence")) return F::GetFence;
  for (const auto& [known, function] : kNames) {
    if (name == llvm::StringRef(known.data(), known.size())) return function;
  }
  return std::nullopt;
}

}  // namespace cucl::backend

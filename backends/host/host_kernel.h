// A kernel of JIT-compiled host code: its entry point and what the launch needs to know.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "backends/host/work_group_abi.h"
#include "backends/kernel_code.h"
#include "backends/printf_format.h"

namespace cucl::backend::host {

class HostKernel final : public KernelCode {
 public:
  HostKernel(WorkGroupFunction work_group, WorkItemFunction work_item, KernelInfoRecord info,
             std::shared_ptr<const std::vector<PrintfCallSite>> printf_sites)
      : work_group_(work_group), work_item_(work_item), info_(info), printf_sites_(std::move(printf_sites)) {}

  // Kernels with barriers run each work-item on a stack of its own (stack_bytes()). Where
  // private memory makes those larger than usual, a group's stacks (all touched, on every
  // worker at once) stay within kLargeStackBudget.
  size_t max_work_group_size() const override {
    if (const size_t state = region_state_bytes(1); state > 0) {
      return std::clamp<size_t>(kLargeStackBudget / state, 1, kMaxWorkGroupSize);
    }
    if (!has_barriers() || stack_bytes() == kMinStackBytes) return kMaxWorkGroupSize;
    return std::clamp<size_t>(kLargeStackBudget / stack_bytes(), 1, kMaxWorkGroupSize);
  }
  uint64_t static_local_memory() const override { return info_.local_memory_bytes; }
  // Work-groups whose rows are whole multiples of the vector form's width run no work-item
  // one by one.
  size_t preferred_work_group_size_multiple() const override { return info_.vector_width > 1 ? info_.vector_width : 0; }
  uint64_t private_memory() const override { return info_.private_memory_bytes; }

  // Whether its work-items run as fibers (a kernel with barriers that could not be split
  // into regions, or built without the vectoriser).
  bool has_barriers() const { return info_.has_barriers != 0; }
  // The region state (WorkGroupContext::region_state) a group of `items` work-items needs,
  // or 0 where the kernel has no regions.
  size_t region_state_bytes(size_t items) const {
    return items * (info_.region_item_bytes + info_.region_row_bytes);
  }
  // A work-item's stack: its private memory and room for the calls it makes (SLEEF, the
  // barrier), at least kMinStackBytes.
  size_t stack_bytes() const {
    constexpr size_t kPage = 4096;
    const size_t needed = (info_.private_memory_bytes + kStackMargin + kPage - 1) / kPage * kPage;
    return std::max(kMinStackBytes, needed);
  }
  // A kernel without barriers whose private memory may not fit the stack of the thread
  // that runs it (a oneTBB worker's is 4 MiB) runs on a stack of stack_bytes() instead.
  bool needs_own_stack() const { return !has_barriers() && stack_bytes() > kMinStackBytes; }
  WorkGroupFunction work_group() const { return work_group_; }
  WorkItemFunction work_item() const { return work_item_; }
  bool uses_printf() const { return info_.uses_printf != 0; }
  const std::vector<PrintfCallSite>& printf_sites() const { return *printf_sites_; }

  static constexpr size_t kMinStackBytes = 256 * 1024;
  static constexpr size_t kStackMargin = 64 * 1024;
  static constexpr size_t kLargeStackBudget = 256 * 1024 * 1024;

 private:
  WorkGroupFunction work_group_;
  WorkItemFunction work_item_;
  KernelInfoRecord info_;
  std::shared_ptr<const std::vector<PrintfCallSite>> printf_sites_;
};

}  // namespace cucl::backend::host

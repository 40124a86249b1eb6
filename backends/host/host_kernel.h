// A kernel of JIT-compiled host code: its entry point and what the launch needs to know.
#pragma once

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

  size_t max_work_group_size() const override { return kMaxWorkGroupSize; }
  uint64_t static_local_memory() const override { return info_.local_memory_bytes; }
  uint64_t private_memory() const override { return info_.private_memory_bytes; }

  bool has_barriers() const { return info_.has_barriers != 0; }
  WorkGroupFunction work_group() const { return work_group_; }
  WorkItemFunction work_item() const { return work_item_; }
  bool uses_printf() const { return info_.uses_printf != 0; }
  const std::vector<PrintfCallSite>& printf_sites() const { return *printf_sites_; }

  static constexpr size_t kMaxWorkGroupSize = 4096;

 private:
  WorkGroupFunction work_group_;
  WorkItemFunction work_item_;
  KernelInfoRecord info_;
  std::shared_ptr<const std::vector<PrintfCallSite>> printf_sites_;
};

}  // namespace cucl::backend::host

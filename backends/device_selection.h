// Which devices CUCL_DEVICES lets the platform list: a comma-separated list of `all`,
// `host`, `cuda` (every GPU) and `cuda:N` (the GPU of CUDA ordinal N), e.g. `host,cuda:1`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cucl::backend {

struct DeviceSelection {
  bool host = false;
  bool every_gpu = false;
  std::vector<int> gpu_ordinals;  // when not every_gpu, in the order given
  std::vector<std::string> unknown;  // items that name nothing (ignored)

  bool wants_gpu(int ordinal) const;
  bool wants_any_gpu() const { return every_gpu || !gpu_ordinals.empty(); }
};

// An empty or wholly unknown list selects everything, as `all` does.
DeviceSelection parse_device_selection(std::string_view text);

}  // namespace cucl::backend

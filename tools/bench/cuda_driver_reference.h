// A reference column for the GPU rows: the same loops made with the CUDA driver API itself
// (no OpenCL) on CUDA device 0, so a GPU figure can be read against what the driver allows
// on this machine: launch and copy costs no OpenCL implementation on top of it can beat.
#pragma once

#include <cstddef>
#include <optional>

#include "table.h"

namespace bench {

// Null when there is no CUDA driver or GPU. `bytes`: the bandwidth rows' buffer size.
std::optional<Column> cuda_driver_reference(const Settings& settings, std::size_t bytes);

}  // namespace bench

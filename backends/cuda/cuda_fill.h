// clEnqueueFillBuffer on the GPU: cuMemsetD8/16/32 where the pattern repeats at that
// width, the kernels of cuda_fill_ptx.h otherwise.
#pragma once

#include <array>
#include <cstdint>

#include "backends/cuda/cuda_driver.h"

namespace cucl::backend::cuda {

class CudaContext;

// Fills `size` bytes at `dst` with `pattern_size` (a power of two, 1 to 128) bytes of
// `pattern`, on `stream`. `size` is a multiple of `pattern_size`.
void enqueue_fill(CudaContext& context, CUstream stream, CUdeviceptr dst, size_t size,
                  const std::array<uint8_t, 128>& pattern, size_t pattern_size);

}  // namespace cucl::backend::cuda

// clEnqueueFillBuffer on the GPU: cuMemsetD8/16/32 where the pattern repeats at that
// width, the kernels of cuda_fill_ptx.h otherwise; clEnqueueFillImage's rows with those
// kernels, in one launch.
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

// Fills `rows` rows of `row_bytes` bytes in each of `slices` slices at `dst`, the rows
// `row_pitch` and the slices `slice_pitch` bytes apart, each row from the pattern's start.
// `row_bytes` is a multiple of `pattern_size`.
void enqueue_fill_rows(CudaContext& context, CUstream stream, CUdeviceptr dst, size_t row_bytes, size_t rows,
                       size_t slices, size_t row_pitch, size_t slice_pitch, const std::array<uint8_t, 128>& pattern,
                       size_t pattern_size);

}  // namespace cucl::backend::cuda

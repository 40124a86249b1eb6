#include "backends/cuda/cuda_fill.h"

#include <algorithm>
#include <cstring>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_fill_kernels.h"

namespace cucl::backend::cuda {
namespace {

// The shortest period (1, 2 or 4 bytes) at which `pattern` repeats, or 0.
size_t repeat_width(const std::array<uint8_t, 128>& pattern, size_t pattern_size) {
  for (size_t width : {1u, 2u, 4u}) {
    if (width > pattern_size) break;
    bool repeats = true;
    for (size_t i = width; i < pattern_size && repeats; ++i) repeats = pattern[i] == pattern[i % width];
    if (repeats) return width;
  }
  return 0;
}

}  // namespace

void enqueue_fill(CudaContext& context, CUstream stream, CUdeviceptr dst, size_t size,
                  const std::array<uint8_t, 128>& pattern, size_t pattern_size) {
  const CudaDriver& driver = context.driver();
  size_t width = repeat_width(pattern, pattern_size);
  // The driver's memset is the fastest fill, but it needs an address aligned to its width.
  if (width > 1 && dst % width != 0) width = 0;
  if (width == 1) {
    context.check(driver.cuMemsetD8Async(dst, pattern[0], size, stream), "cuMemsetD8Async");
    return;
  }
  if (width == 2) {
    uint16_t value;
    std::memcpy(&value, pattern.data(), 2);
    context.check(driver.cuMemsetD16Async(dst, value, size / 2, stream), "cuMemsetD16Async");
    return;
  }
  if (width == 4) {
    uint32_t value;
    std::memcpy(&value, pattern.data(), 4);
    context.check(driver.cuMemsetD32Async(dst, value, size / 4, stream), "cuMemsetD32Async");
    return;
  }
  enqueue_fill_rows(context, stream, dst, size, 1, 1, 0, 0, pattern, pattern_size);
}

void enqueue_fill_rows(CudaContext& context, CUstream stream, CUdeviceptr dst, size_t row_bytes, size_t rows,
                       size_t slices, size_t row_pitch, size_t slice_pitch, const std::array<uint8_t, 128>& pattern,
                       size_t pattern_size) {
  const bool words = dst % 4 == 0 && pattern_size % 4 == 0 && row_pitch % 4 == 0 && slice_pitch % 4 == 0;
  const size_t element = words ? 4 : 1;
  uint64_t count = row_bytes / element;
  uint32_t mask = static_cast<uint32_t>(pattern_size / element - 1);
  alignas(4) std::array<uint8_t, 128> value = pattern;
  uint64_t row_step = row_pitch, slice_step = slice_pitch;
  CUfunction kernel = words ? context.fill_kernels().words() : context.fill_kernels().bytes();
  constexpr unsigned kBlock = 256;
  constexpr size_t kMostBlocks = 65535;  // the driver's limit on a grid's y and z
  const unsigned across = static_cast<unsigned>(std::clamp<uint64_t>((count + kBlock - 1) / kBlock, 1, 8192));
  for (size_t slice = 0; slice < slices; slice += kMostBlocks) {
    for (size_t row = 0; row < rows; row += kMostBlocks) {
      CUdeviceptr first = dst + slice * slice_pitch + row * row_pitch;
      void* parameters[] = {&first, &count, &mask, value.data(), &row_step, &slice_step};
      const auto down = static_cast<unsigned>(std::min(kMostBlocks, rows - row));
      const auto deep = static_cast<unsigned>(std::min(kMostBlocks, slices - slice));
      context.check(context.driver().cuLaunchKernel(kernel, across, down, deep, kBlock, 1, 1, 0, stream, parameters,
                                                    nullptr),
                    "cuLaunchKernel (fill)");
    }
  }
}

}  // namespace cucl::backend::cuda

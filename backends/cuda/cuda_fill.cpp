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
  const bool words = dst % 4 == 0 && pattern_size % 4 == 0;
  const size_t element = words ? 4 : 1;
  uint64_t count = size / element;
  uint32_t mask = static_cast<uint32_t>(pattern_size / element - 1);
  alignas(4) std::array<uint8_t, 128> value = pattern;
  CUfunction kernel = words ? context.fill_kernels().words() : context.fill_kernels().bytes();
  void* parameters[] = {&dst, &count, &mask, value.data()};
  constexpr unsigned kBlock = 256;
  unsigned grid = static_cast<unsigned>(std::clamp<uint64_t>((count + kBlock - 1) / kBlock, 1, 8192));
  context.check(driver.cuLaunchKernel(kernel, grid, 1, 1, kBlock, 1, 1, 0, stream, parameters, nullptr),
                "cuLaunchKernel (fill)");
}

}  // namespace cucl::backend::cuda

#include "backends/host/host_device.h"

#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "backends/host/codegen/host_codegen.h"
#include "backends/host/codegen/host_jit.h"
#include "backends/host/host_memory.h"
#include "backends/host/host_stream.h"
#include "base/clock.h"

namespace cucl::backend::host {
namespace {

// What the pool of released allocations may keep: a sixteenth of the device's global memory
// (the machine's, or its container's limit), at most 4 GiB, in at most 64 blocks.
std::shared_ptr<HostMemoryPool> make_memory_pool(uint64_t global_memory) {
  const size_t limit = static_cast<size_t>(std::min<uint64_t>(global_memory / 16, uint64_t{4} << 30));
  return std::make_shared<HostMemoryPool>(HostMemory::kAlignment, limit, 64);
}

}  // namespace

HostDevice::HostDevice()
    : description_(describe_host_device(static_cast<unsigned>(tbb::info::default_concurrency()))),
      memory_pool_(make_memory_pool(description_.global_mem_size)),
      fibers_(static_cast<size_t>(tbb::info::default_concurrency())),
      workers_(tbb::global_control::max_allowed_parallelism, tbb::info::default_concurrency() + 1),
      // No slot is kept for application threads: they never join the arena (work reaches
      // it through enqueue), so every core runs kernels.
      arena_(tbb::info::default_concurrency(), /*reserved_for_masters=*/0) {}

// Host memory is what ALLOC_HOST_PTR asks for anyway.
std::unique_ptr<Memory> HostDevice::allocate(size_t size, void* host_ptr, bool /*alloc_host_ptr*/) {
  if (host_ptr) return std::make_unique<HostMemory>(host_ptr, false);
  size_t block_size = size;
  void* data = memory_pool_->take(block_size);
  if (!data) return nullptr;
  return std::make_unique<HostMemory>(data, memory_pool_, block_size);
}

// The host's own heap: every host thread and the host device's kernels reach it at once,
// which is fine-grain system SVM.
std::unique_ptr<Memory> HostDevice::allocate_shared(size_t size, size_t alignment, bool /*coarse_grain_alone*/) {
  alignment = std::max(alignment, HostMemory::kAlignment);
  void* data = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (!data) return nullptr;
  return std::make_unique<HostMemory>(data, true);
}

std::unique_ptr<Stream> HostDevice::create_stream() { return std::make_unique<HostStream>(arena_, fibers_); }

uint64_t HostDevice::device_timer_ns() const { return now_ns(); }

CodegenResult HostDevice::generate_code(std::string_view bitcode, const CodegenOptions& options) {
  return generate_host_code(bitcode, options);
}

std::unique_ptr<LoadedProgram> HostDevice::load_program(std::string_view native, std::string& error) {
  return load_host_program(native, error);
}

}  // namespace cucl::backend::host

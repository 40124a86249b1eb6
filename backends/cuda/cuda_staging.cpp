#include "backends/cuda/cuda_staging.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_staging_pool.h"

namespace cucl::backend::cuda {
namespace {

// One core's memcpy falls well short of the bus, so the host side of a chunk is copied
// by several threads, in blocks large enough that each is worth a task.
void parallel_copy(void* dst, const void* src, size_t size) {
  constexpr size_t kBlock = 1u << 20;
  if (size <= kBlock) {
    std::memcpy(dst, src, size);
    return;
  }
  size_t blocks = (size + kBlock - 1) / kBlock;
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, blocks, 1),
      [&](const tbb::blocked_range<size_t>& range) {
        for (size_t block = range.begin(); block != range.end(); ++block) {
          size_t offset = block * kBlock;
          std::memcpy(static_cast<char*>(dst) + offset, static_cast<const char*>(src) + offset,
                      std::min(kBlock, size - offset));
        }
      },
      tbb::simple_partitioner());
}

size_t chunk_count(size_t size) { return (size + StagingSet::kChunkSize - 1) / StagingSet::kChunkSize; }

}  // namespace

void staged_host_to_device(CudaContext& context, CUstream stream, CUdeviceptr dst, const void* src, size_t size) {
  const CudaDriver& driver = context.driver();
  StagingPool::Lease set = context.staging().acquire();
  if (!set) {  // no page-locked memory: the driver stages it itself
    context.check(driver.cuMemcpyHtoDAsync(dst, src, size, stream), "cuMemcpyHtoDAsync");
    return;
  }
  const size_t chunks = chunk_count(size);
  for (size_t i = 0; i < chunks; ++i) {
    size_t slot = i % StagingSet::kChunks;
    size_t offset = i * StagingSet::kChunkSize;
    size_t bytes = std::min(StagingSet::kChunkSize, size - offset);
    if (i >= StagingSet::kChunks) context.check(driver.cuEventSynchronize(set->done[slot]), "cuEventSynchronize");
    parallel_copy(set->chunks[slot], static_cast<const char*>(src) + offset, bytes);
    context.check(driver.cuMemcpyHtoDAsync(dst + offset, set->chunks[slot], bytes, stream), "cuMemcpyHtoDAsync");
    context.check(driver.cuEventRecord(set->done[slot], stream), "cuEventRecord");
  }
  for (size_t slot = 0; slot < std::min(chunks, StagingSet::kChunks); ++slot) {
    context.check(driver.cuEventSynchronize(set->done[slot]), "cuEventSynchronize");
  }
}

void staged_device_to_host(CudaContext& context, CUstream stream, void* dst, CUdeviceptr src, size_t size) {
  const CudaDriver& driver = context.driver();
  StagingPool::Lease set = context.staging().acquire();
  if (!set) {
    context.check(driver.cuMemcpyDtoHAsync(dst, src, size, stream), "cuMemcpyDtoHAsync");
    context.check(driver.cuStreamSynchronize(stream), "cuStreamSynchronize");
    return;
  }
  const size_t chunks = chunk_count(size);
  auto start_chunk = [&](size_t i) {
    size_t slot = i % StagingSet::kChunks;
    size_t offset = i * StagingSet::kChunkSize;
    size_t bytes = std::min(StagingSet::kChunkSize, size - offset);
    context.check(driver.cuMemcpyDtoHAsync(set->chunks[slot], src + offset, bytes, stream), "cuMemcpyDtoHAsync");
    context.check(driver.cuEventRecord(set->done[slot], stream), "cuEventRecord");
  };
  for (size_t i = 0; i < std::min(chunks, StagingSet::kChunks); ++i) start_chunk(i);
  for (size_t i = 0; i < chunks; ++i) {
    size_t slot = i % StagingSet::kChunks;
    size_t offset = i * StagingSet::kChunkSize;
    context.check(driver.cuEventSynchronize(set->done[slot]), "cuEventSynchronize");
    parallel_copy(static_cast<char*>(dst) + offset, set->chunks[slot], std::min(StagingSet::kChunkSize, size - offset));
    if (i + StagingSet::kChunks < chunks) start_chunk(i + StagingSet::kChunks);
  }
}

}  // namespace cucl::backend::cuda

#include "backends/cuda/cuda_prefetch.h"

#include "backends/cuda/cuda_memory.h"

namespace cucl::backend::cuda {

bool prefetch_shared(CudaContext& context, CUstream stream, const op::Migrate& migrate) {
  const CudaDriver& driver = context.driver();
  if (!driver.cuMemPrefetchAsync) return false;
  CUmemLocation location{};
  location.type = migrate.to_host ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
  location.id = migrate.to_host ? 0 : context.device();
  bool enqueued = false;
  for (const op::SharedRange& range : migrate.shared) {
    const auto* memory = static_cast<const CudaMemory*>(range.where.memory);
    if (!memory || !memory->managed() || range.size == 0) continue;
    const CUresult result =
        driver.cuMemPrefetchAsync(memory->device_address(range.where.offset), range.size, location, 0, stream);
    // A GPU without concurrent managed access refuses prefetches to itself: it reaches the
    // pages anyway.
    if (is_context_lost_error(result)) context.check(result, "cuMemPrefetchAsync");
    enqueued = enqueued || result == CUDA_SUCCESS;
  }
  return enqueued;
}

}  // namespace cucl::backend::cuda

#include "backends/cuda/cuda_prefetch.h"

#include "backends/cuda/cuda_memory.h"

namespace cucl::backend::cuda {
namespace {

// Whether a dual view's range is copied: for a map (unless its content is undefined) and back
// at the unmap of a map that let the host write. Hints move nothing: each side's copy is
// current where it is used.
bool view_copies(const op::Migrate& migrate, const op::SharedRange& range) {
  switch (migrate.why) {
    case op::SharedMove::ForHostAccess: return !migrate.content_undefined;
    case op::SharedMove::AfterHostAccess: return range.host_wrote;
    case op::SharedMove::Hint: return false;
  }
  return false;
}

bool move_view(CudaContext& context, CUstream stream, const op::Migrate& migrate, const CudaMemory& memory,
               const op::SharedRange& range) {
  if (!view_copies(migrate, range)) return false;
  copy_view(context, stream, memory, range.where.offset, range.size, migrate.to_host);
  return true;
}

}  // namespace

void copy_view(CudaContext& context, CUstream stream, const CudaMemory& memory, size_t offset, size_t bytes,
               bool to_host) {
  for (const SvmDualView::Piece& piece : memory.view_pieces(offset, bytes)) {
    const CUdeviceptr from = to_host ? piece.device : piece.host, to = to_host ? piece.host : piece.device;
    context.check(context.driver().cuMemcpyDtoDAsync(to, from, piece.bytes, stream), "cuMemcpyDtoDAsync");
  }
}

size_t shared_bytes_moved(const CudaDriver& driver, const op::Migrate& migrate) {
  size_t bytes = 0;
  for (const op::SharedRange& range : migrate.shared) {
    const auto* memory = static_cast<const CudaMemory*>(range.where.memory);
    if (!memory) continue;
    const bool moves = memory->dual_view() ? view_copies(migrate, range)
                                           : memory->managed() && driver.cuMemPrefetchAsync != nullptr;
    if (moves) bytes += range.size;
  }
  return bytes;
}

bool prefetch_shared(CudaContext& context, CUstream stream, const op::Migrate& migrate) {
  const CudaDriver& driver = context.driver();
  CUmemLocation location{};
  location.type = migrate.to_host ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
  location.id = migrate.to_host ? 0 : context.device();
  bool enqueued = false;
  for (const op::SharedRange& range : migrate.shared) {
    const auto* memory = static_cast<const CudaMemory*>(range.where.memory);
    if (!memory || range.size == 0) continue;
    if (memory->dual_view()) {
      enqueued = move_view(context, stream, migrate, *memory, range) || enqueued;
      continue;
    }
    if (!memory->managed() || !driver.cuMemPrefetchAsync) continue;
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

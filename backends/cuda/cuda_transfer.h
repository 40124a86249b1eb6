// Transfers between application host memory and device memory. Small transfers and
// page-locked host memory go straight to the DMA engine; large pageable transfers, and
// host ranges partly inside pages registered for a USE_HOST_PTR buffer, go through
// page-locked staging (cuda_staging.h).
#pragma once

#include <cstddef>

#include "backends/cuda/cuda_driver.h"

namespace cucl::backend::cuda {

class CudaContext;

// What a transfer left behind on its stream.
enum class Pending : bool { Nothing, StreamWork };

Pending host_to_device(CudaContext& context, CUstream stream, CUdeviceptr dst, const void* src, size_t size);
Pending device_to_host(CudaContext& context, CUstream stream, void* dst, CUdeviceptr src, size_t size);

// Whether the calls above would make the calling thread wait for the stream's earlier work:
// staged transfers, and reads into memory that is not page-locked (the driver returns from
// those only once the data has arrived).
bool host_to_device_waits(CudaContext& context, const void* src, size_t size);
bool device_to_host_waits(CudaContext& context, const void* dst, size_t size);

// A synchronous write outside any stream (initial contents of a buffer).
void copy_host_to_device_now(CudaContext& context, CUdeviceptr dst, const void* src, size_t size);

}  // namespace cucl::backend::cuda

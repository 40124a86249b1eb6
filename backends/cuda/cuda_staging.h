// Page-locked staging for transfers between pageable host memory and the GPU. A DMA
// engine reads or writes only page-locked memory, so pageable data goes through a few
// page-locked chunks: the host copies one chunk while the DMA of another is in flight.
#pragma once

#include <cstddef>

#include "backends/cuda/cuda_driver.h"

namespace cucl::backend::cuda {

class CudaContext;

// Pageable host memory to device memory and back through staging, on `stream`, after
// the stream's earlier work. Both return once the data has arrived.
void staged_host_to_device(CudaContext& context, CUstream stream, CUdeviceptr dst, const void* src, size_t size);
void staged_device_to_host(CudaContext& context, CUstream stream, void* dst, CUdeviceptr src, size_t size);

}  // namespace cucl::backend::cuda

// One buffer allocation on a CUDA device.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "backends/backend.h"
#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_map_regions.h"
#include "backends/cuda/cuda_svm_view.h"

namespace cucl::backend::cuda {

class CudaMemory final : public Memory {
 public:
  // Device memory (cuMemAlloc); for CL_MEM_USE_HOST_PTR (`host_ptr` given) the
  // application's memory registered with the driver, or, where the driver refuses, device
  // memory that starts with a copy of it and is copied back into it by map commands.
  // `alloc_host_ptr` (CL_MEM_ALLOC_HOST_PTR): maps are expected, so page-locked memory for
  // them is made now (cuda_map_regions.h). Null when the device has no room.
  // USE_HOST_PTR memory that is already managed memory or a dual view (SVM allocations) is
  // used as it is.
  static std::unique_ptr<CudaMemory> create(std::shared_ptr<CudaContext> context, size_t size, void* host_ptr,
                                            bool alloc_host_ptr);
  // Shared virtual memory: managed memory (cuMemAllocManaged, attached globally), one address
  // on the host and every GPU. Null when the card has not that much free memory, or not that
  // much beside the managed memory still allocated, with a margin to spare (ManagedBudget):
  // asking for more managed memory than is free can hang the GPU.
  static std::unique_ptr<CudaMemory> create_shared(std::shared_ptr<CudaContext> context, size_t size,
                                                   size_t alignment);
  // Coarse-grain shared virtual memory that only this GPU's kernels reach: a dual view
  // (cuda_svm_view.h) where one is made (at least the driver's granularity in size), else
  // managed memory as create_shared() makes it. Null when the GPU has no room.
  static std::unique_ptr<CudaMemory> create_coarse_shared(std::shared_ptr<CudaContext> context, size_t size,
                                                          size_t alignment);
  ~CudaMemory() override;

  CudaContext& context() const { return *context_; }
  // The address of byte `offset` as the GPU sees it.
  CUdeviceptr device_address(size_t offset) const { return device_ + offset; }
  // The address of byte `offset` on the host, where the storage is host memory (null otherwise).
  // Managed memory counts as device memory here: copies to and from it go through the
  // driver (cuMemcpyAsync), not through host threads.
  char* host_address(size_t offset) const { return registered_ ? host_ptr_ + offset : nullptr; }
  // Whether a map of byte `offset` hands out the storage itself (registered and managed
  // memory), so that maps and unmaps copy nothing.
  bool maps_in_place(size_t offset, const void* mapped) const {
    return (registered_ || managed_) && host_ptr_ + offset == mapped;
  }
  bool managed() const { return managed_; }
  // Device memory with a host copy at the same address (a dual view): maps and unmaps copy
  // between the two (view_pieces), and the GPU's address is the host's too.
  bool dual_view() const { return view_ != nullptr; }
  // Bytes [offset, offset + bytes) of both copies, in pieces for the copy engines (dual views
  // only: SvmDualView::pieces).
  std::vector<SvmDualView::Piece> view_pieces(size_t offset, size_t bytes) const {
    return view_->pieces(view_offset_ + offset, bytes);
  }

  // For device memory: page-locked memory that the map command fills and the unmap
  // command copies back (cuda_map_regions.h). For USE_HOST_PTR: the application's memory,
  // as OpenCL requires.
  void* map_pointer(size_t offset, size_t size) override;
  void unmap_pointer(void* mapped) override;
  void write_now(size_t offset, const void* src, size_t size) override;
  uint64_t kernel_address(size_t offset) const override { return device_address(offset); }

  // How many writes have been put on streams (or made now) so far: a copy of the contents
  // (a CUDA array a texture reads, cuda_image_arrays.h) made after the n-th matches them
  // while this stays n. Counted as the writes are enqueued, in the order streams run them.
  uint64_t writes() const { return writes_.load(std::memory_order_acquire); }
  void note_write() { writes_.fetch_add(1, std::memory_order_acq_rel); }

 private:
  CudaMemory(std::shared_ptr<CudaContext> context, size_t size, char* host_ptr)
      : context_(std::move(context)), size_(size), host_ptr_(host_ptr) {}

  std::shared_ptr<CudaContext> context_;
  size_t size_;
  char* host_ptr_;           // USE_HOST_PTR memory, or null
  bool registered_ = false;  // host_ptr_ is the storage (registered); else device memory
  bool managed_ = false;     // host_ptr_ is managed memory, device_ the same address
  CUdeviceptr owned_managed_ = 0;  // the managed allocation to free (create_shared), else 0
  size_t owned_managed_bytes_ = 0;  // its size, counted in the context's ManagedBudget
  CUdeviceptr device_ = 0;
  std::shared_ptr<SvmDualView> view_;  // a dual view this memory is (part of), else null
  size_t view_offset_ = 0;             // where this memory starts in view_
  std::unique_ptr<MapRegions> map_regions_;  // device memory only
  std::atomic<uint64_t> writes_{0};
};

}  // namespace cucl::backend::cuda

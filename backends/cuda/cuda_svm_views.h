// The dual views (cuda_svm_view.h) of one CUDA context by address, so that memory made on a
// pointer into one (a CL_MEM_USE_HOST_PTR buffer on an SVM pointer) uses its device memory and
// its host copy rather than taking the pointer for host memory.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace cucl::backend::cuda {

class SvmDualView;

class SvmDualViews {
 public:
  void add(CUdeviceptr address, size_t size, const std::shared_ptr<SvmDualView>& view);
  void remove(CUdeviceptr address);
  // The view that holds `pointer`, and where in it, if any.
  std::pair<std::shared_ptr<SvmDualView>, size_t> find(const void* pointer) const;

 private:
  struct Entry {
    size_t size;
    std::weak_ptr<SvmDualView> view;
  };
  mutable std::mutex mutex_;
  std::map<CUdeviceptr, Entry> by_address_;
};

}  // namespace cucl::backend::cuda

#include "backends/host/host_memory.h"

#include <cstdlib>

namespace cucl::backend::host {

HostMemory::~HostMemory() {
  if (pool_) {
    pool_->give_back(data_, pool_size_);
  } else if (owned_) {
    std::free(data_);
  }
}

}  // namespace cucl::backend::host

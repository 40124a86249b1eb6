#include "backends/host/host_memory.h"

#include <cstdlib>

namespace cucl::backend::host {

HostMemory::~HostMemory() {
  if (owned_) std::free(data_);
}

}  // namespace cucl::backend::host

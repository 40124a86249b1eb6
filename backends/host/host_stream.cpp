#include "backends/host/host_stream.h"

namespace cucl::backend::host {

void HostStream::submit(Work& work) {
  Work* item = &work;
  FiberGroups* fibers = &fibers_;
  arena_.enqueue([item, fibers] {
    item->started();
    cl_int status = CL_OUT_OF_RESOURCES;
    try {
      status = execute_on_host(item->operation(), *fibers);
    } catch (...) {
      // Work that throws (a host function, an allocation) fails its command; the
      // exception must not reach the worker thread.
    }
    item->finished(status);
  });
}

}  // namespace cucl::backend::host

#include "backends/host/host_stream.h"

namespace cucl::backend::host {

void HostStream::submit(Work& work) {
  Work* item = &work;
  arena_.enqueue([item] {
    item->started();
    item->finished(execute_on_host(item->operation()));
  });
}

}  // namespace cucl::backend::host

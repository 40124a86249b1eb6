#pragma once

#include <tbb/task_arena.h>

#include "backends/backend.h"
#include "backends/host/fiber_group.h"

namespace cucl::backend::host {

// Runs each submitted work item as its own oneTBB task, so independent commands of an
// out-of-order queue run concurrently.
class HostStream final : public Stream {
 public:
  HostStream(tbb::task_arena& arena, FiberGroups& fibers) : arena_(arena), fibers_(fibers) {}
  void submit(Work& work) override;

 private:
  tbb::task_arena& arena_;
  FiberGroups& fibers_;
};

// Performs one operation on the calling thread; returns CL_SUCCESS or a negative status.
cl_int execute_on_host(const Operation& operation, FiberGroups& fibers);

}  // namespace cucl::backend::host

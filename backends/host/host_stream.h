#pragma once

#include <tbb/task_arena.h>

#include "backends/backend.h"

namespace cucl::backend::host {

// Runs each submitted work item as its own oneTBB task, so independent commands of an
// out-of-order queue run concurrently.
class HostStream final : public Stream {
 public:
  explicit HostStream(tbb::task_arena& arena) : arena_(arena) {}
  void submit(Work& work) override;

 private:
  tbb::task_arena& arena_;
};

// Performs one operation on the calling thread; returns CL_SUCCESS or a negative status.
cl_int execute_on_host(const Operation& operation);

}  // namespace cucl::backend::host

// The CPU device: memory is host memory, work runs on oneTBB worker threads.
#pragma once

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <memory>

#include "backends/backend.h"
#include "backends/host/fiber_group.h"
#include "backends/host/host_memory_pool.h"

namespace cucl::backend::host {

class HostDevice final : public Device {
 public:
  HostDevice();
  const DeviceDescription& description() const override { return description_; }
  std::unique_ptr<Memory> allocate(size_t size, void* host_ptr, bool alloc_host_ptr) override;
  std::unique_ptr<Memory> allocate_shared(size_t size, size_t alignment, bool coarse_grain_alone) override;
  std::unique_ptr<Stream> create_stream() override;
  uint64_t device_timer_ns() const override;
  CodegenResult generate_code(std::string_view bitcode, const CodegenOptions& options) override;
  std::unique_ptr<LoadedProgram> load_program(std::string_view native, std::string& error) override;

 private:
  DeviceDescription description_;
  std::shared_ptr<HostMemoryPool> memory_pool_;  // released buffers' memory, for the next ones
  FiberGroups fibers_;  // before arena_: destroyed after every task that uses them
  // oneTBB keeps one core for an application thread unless told otherwise (and says so on
  // stderr when an arena asks for more): this lets the arena have a worker on every core.
  // The least of all such limits wins, so an application's own lower limit still holds.
  tbb::global_control workers_;
  tbb::task_arena arena_;
};

// Fills in what the host device is, from the machine it runs on.
DeviceDescription describe_host_device(unsigned concurrency);
// The compiler part: front-end target, OpenCL C versions and features, extensions.
void describe_host_compiler(DeviceDescription& description);

}  // namespace cucl::backend::host

// Runs the work-items of one work-group of a kernel that contains barriers. Each
// work-item is a fiber with its own stack; barrier() switches back to the group, which
// resumes the work-items round by round, so every work-item reaches a barrier before any
// leaves it. One FiberGroup belongs to one thread and is reused for many groups.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/host/work_group_abi.h"

namespace cucl::backend::host {

class FiberGroup {
 public:
  FiberGroup() = default;
  FiberGroup(const FiberGroup&) = delete;
  FiberGroup& operator=(const FiberGroup&) = delete;
  ~FiberGroup();

  // Runs every work-item of `context`'s group to completion, each on a stack of
  // `stack_bytes`. Sets context.scheduler and the private memory range.
  void run(WorkItemFunction work_item, void* const* args, WorkGroupContext& context, size_t stack_bytes);
  // Runs a kernel without barriers (`work_group`, the loop over its work-items) on one
  // stack of `stack_bytes`, for private memory larger than a thread's stack may hold.
  void run_on_stack(WorkGroupFunction work_group, void* const* args, WorkGroupContext& context, size_t stack_bytes);
  // Called on a work-item's fiber by cucl_host_barrier.
  void barrier();
  // At least `bytes` (128-byte aligned) for a kernel split into barrier regions
  // (WorkGroupContext::region_state): kept across launches like the stacks, because a fresh
  // block of that size is mapped and unmapped by every launch's every thread.
  char* region_state(size_t bytes);

 private:
  struct Fiber {
    void* stack_pointer = nullptr;
    bool finished = false;
    uint64_t x = 0, y = 0, z = 0;
  };

  static void fiber_main(void* group);
  void reserve_stacks(size_t count, size_t stack_bytes);
  size_t slot_bytes() const;
  void start_fibers(void* const* args, WorkGroupContext& context, const size_t sizes[3]);
  void run_rounds();
  void switch_to_fiber(size_t index);
  void switch_to_scheduler();

  char* stacks_ = nullptr;  // `capacity_` stacks of `stack_bytes_`, each after a guard page
  size_t capacity_ = 0;
  size_t stack_bytes_ = 0;
  std::vector<Fiber> fibers_;
  size_t current_ = 0;
  void* scheduler_stack_ = nullptr;
  WorkItemFunction work_item_ = nullptr;
  WorkGroupFunction work_group_ = nullptr;  // set instead of work_item_ by run_on_stack
  void* const* args_ = nullptr;
  WorkGroupContext* context_ = nullptr;
  const void* scheduler_stack_bottom_ = nullptr;  // for AddressSanitizer's fiber annotations
  size_t scheduler_stack_size_ = 0;
  struct Free {
    void operator()(char* memory) const { std::free(memory); }
  };
  std::unique_ptr<char, Free> region_state_;
  size_t region_state_bytes_ = 0;
};

// Idle FiberGroups, kept by the device across launches so that their stacks are mapped (and
// their guard pages set) once, not once per launch. A thread takes one for a range of
// work-groups and gives it back.
//
// Each oneTBB thread of the device's arena keeps the group it gave back in a slot of its
// own, taken and filled by one atomic exchange: with one locked list, 16 threads running
// small work-groups (a range of a few groups per take) waited on each other for most of a
// launch (a barrier kernel of 4096 groups: 2.0 ms on 16 Xeon cores, 0.84 on 4). Threads of
// other arenas may share a slot; the atomics keep that safe, and the locked list takes
// what a full slot cannot.
class FiberGroups {
 public:
  explicit FiberGroups(size_t slots);
  ~FiberGroups();
  FiberGroups(const FiberGroups&) = delete;
  FiberGroups& operator=(const FiberGroups&) = delete;

  std::unique_ptr<FiberGroup> take();
  void give_back(std::unique_ptr<FiberGroup> group);

 private:
  struct alignas(64) Slot {  // a cache line each: neighbours' exchanges must not collide
    std::atomic<FiberGroup*> group{nullptr};
  };
  Slot* own_slot();

  std::unique_ptr<Slot[]> slots_;
  size_t slot_count_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<FiberGroup>> idle_;
};

}  // namespace cucl::backend::host

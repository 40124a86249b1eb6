#include "backends/host/fiber_group.h"

#include <sys/mman.h>
#include <unistd.h>
#include <xmmintrin.h>

#include <tbb/task_arena.h>

#include <cstring>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define CUCL_ASAN_FIBERS 1
#endif

extern "C" void cucl_fiber_switch(void** save_stack, void* next_stack);
extern "C" void cucl_fiber_start();

extern "C" void cucl_host_barrier(const cucl::backend::host::WorkGroupContext* context) {
  static_cast<cucl::backend::host::FiberGroup*>(context->scheduler)->barrier();
}

namespace cucl::backend::host {
namespace {

size_t page_size() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

// The frame cucl_fiber_switch pops to start a fiber in cucl_fiber_start, which calls
// entry(argument) on a 16-byte aligned stack.
void* prepare_fiber_stack(char* top, void (*entry)(void*), void* argument) {
  auto* slots = reinterpret_cast<uint64_t*>(top) - 8;
  uint16_t control_word = 0;
  asm volatile("fnstcw %0" : "=m"(control_word));
  slots[0] = static_cast<uint64_t>(_mm_getcsr()) | (static_cast<uint64_t>(control_word) << 32);
  slots[1] = 0;                                          // r15
  slots[2] = 0;                                          // r14
  slots[3] = reinterpret_cast<uint64_t>(entry);          // r13
  slots[4] = reinterpret_cast<uint64_t>(argument);       // r12
  slots[5] = 0;                                          // rbx
  slots[6] = 0;                                          // rbp
  slots[7] = reinterpret_cast<uint64_t>(&cucl_fiber_start);
  return slots;
}

}  // namespace

FiberGroups::FiberGroups(size_t slots) : slots_(std::make_unique<Slot[]>(slots)), slot_count_(slots) {}

FiberGroups::~FiberGroups() {
  for (size_t i = 0; i < slot_count_; ++i) delete slots_[i].group.load();
}

FiberGroups::Slot* FiberGroups::own_slot() {
  const int index = tbb::this_task_arena::current_thread_index();
  return index >= 0 && static_cast<size_t>(index) < slot_count_ ? &slots_[index] : nullptr;
}

std::unique_ptr<FiberGroup> FiberGroups::take() {
  if (Slot* slot = own_slot()) {
    if (FiberGroup* group = slot->group.exchange(nullptr, std::memory_order_acquire)) return std::unique_ptr<FiberGroup>(group);
  }
  std::lock_guard lock(mutex_);
  if (idle_.empty()) return std::make_unique<FiberGroup>();
  std::unique_ptr<FiberGroup> group = std::move(idle_.back());
  idle_.pop_back();
  return group;
}

void FiberGroups::give_back(std::unique_ptr<FiberGroup> group) {
  if (Slot* slot = own_slot()) {
    FiberGroup* empty = nullptr;
    if (slot->group.compare_exchange_strong(empty, group.get(), std::memory_order_release, std::memory_order_relaxed)) {
      group.release();
      return;
    }
  }
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(group));
}

FiberGroup::~FiberGroup() {
  if (stacks_) munmap(stacks_, capacity_ * slot_bytes());
}

size_t FiberGroup::slot_bytes() const { return stack_bytes_ + page_size(); }

void FiberGroup::reserve_stacks(size_t count, size_t stack_bytes) {
  // Stacks at least as large serve as they are: a group that ran a kernel with large private
  // memory does not remap (and re-guard) thousands of stacks for the next ordinary one.
  if (count <= capacity_ && stack_bytes <= stack_bytes_) return;
  if (stacks_) munmap(stacks_, capacity_ * slot_bytes());
  stacks_ = nullptr;
  capacity_ = 0;
  stack_bytes_ = stack_bytes;
  void* memory = mmap(nullptr, count * slot_bytes(), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  stacks_ = static_cast<char*>(memory);
  capacity_ = count;
  // A guard page below each stack turns an overflow into a fault, not silent corruption.
  for (size_t i = 0; i < count; ++i) mprotect(stacks_ + i * slot_bytes(), page_size(), PROT_NONE);
}

char* FiberGroup::region_state(size_t bytes) {
  constexpr size_t kAlignment = 128;
  if (bytes > region_state_bytes_) {
    const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    region_state_.reset(static_cast<char*>(std::aligned_alloc(kAlignment, rounded)));
    if (!region_state_) {
      region_state_bytes_ = 0;
      throw std::bad_alloc();
    }
    region_state_bytes_ = rounded;
  }
  return region_state_.get();
}

void FiberGroup::run(WorkItemFunction work_item, void* const* args, WorkGroupContext& context, size_t stack_bytes) {
  const size_t sizes[3] = {context.local_size[0], context.local_size[1], context.local_size[2]};
  reserve_stacks(sizes[0] * sizes[1] * sizes[2], stack_bytes);
  work_item_ = work_item;
  work_group_ = nullptr;
  start_fibers(args, context, sizes);
  run_rounds();
}

void FiberGroup::run_on_stack(WorkGroupFunction work_group, void* const* args, WorkGroupContext& context,
                              size_t stack_bytes) {
  const size_t one[3] = {1, 1, 1};
  reserve_stacks(1, stack_bytes);
  work_item_ = nullptr;
  work_group_ = work_group;
  start_fibers(args, context, one);
  run_rounds();
}

void FiberGroup::start_fibers(void* const* args, WorkGroupContext& context, const size_t sizes[3]) {
  args_ = args;
  context_ = &context;
  context.scheduler = this;
  context.private_low = stacks_;
  context.private_high = stacks_ + capacity_ * slot_bytes();
  fibers_.assign(sizes[0] * sizes[1] * sizes[2], Fiber{});
  size_t index = 0;
  for (uint64_t z = 0; z < sizes[2]; ++z) {
    for (uint64_t y = 0; y < sizes[1]; ++y) {
      for (uint64_t x = 0; x < sizes[0]; ++x, ++index) {
        Fiber& fiber = fibers_[index];
        fiber.x = x;
        fiber.y = y;
        fiber.z = z;
        char* top = stacks_ + index * slot_bytes() + slot_bytes();
        fiber.stack_pointer = prepare_fiber_stack(top, &FiberGroup::fiber_main, this);
      }
    }
  }
}

// Round by round: each resumption runs a work-item to its next barrier or to its end.
void FiberGroup::run_rounds() {
  for (bool running = true; running;) {
    running = false;
    for (size_t i = 0; i < fibers_.size(); ++i) {
      if (fibers_[i].finished) continue;
      switch_to_fiber(i);
      running = running || !fibers_[i].finished;
    }
  }
}

void FiberGroup::fiber_main(void* group_pointer) {
  auto* group = static_cast<FiberGroup*>(group_pointer);
#if defined(CUCL_ASAN_FIBERS)
  __sanitizer_finish_switch_fiber(nullptr, &group->scheduler_stack_bottom_, &group->scheduler_stack_size_);
#endif
  Fiber& fiber = group->fibers_[group->current_];
  if (group->work_group_) {
    group->work_group_(group->args_, group->context_);
  } else {
    group->work_item_(group->args_, group->context_, fiber.x, fiber.y, fiber.z);
  }
  group->fibers_[group->current_].finished = true;
  group->switch_to_scheduler();
}

void FiberGroup::barrier() { switch_to_scheduler(); }

void FiberGroup::switch_to_fiber(size_t index) {
  current_ = index;
#if defined(CUCL_ASAN_FIBERS)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, stacks_ + index * slot_bytes() + page_size(), stack_bytes_);
  cucl_fiber_switch(&scheduler_stack_, fibers_[index].stack_pointer);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#else
  cucl_fiber_switch(&scheduler_stack_, fibers_[index].stack_pointer);
#endif
}

void FiberGroup::switch_to_scheduler() {
  Fiber& fiber = fibers_[current_];
#if defined(CUCL_ASAN_FIBERS)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(fiber.finished ? nullptr : &fake_stack, scheduler_stack_bottom_, scheduler_stack_size_);
  cucl_fiber_switch(&fiber.stack_pointer, scheduler_stack_);
  __sanitizer_finish_switch_fiber(fake_stack, &scheduler_stack_bottom_, &scheduler_stack_size_);
#else
  cucl_fiber_switch(&fiber.stack_pointer, scheduler_stack_);
#endif
}

}  // namespace cucl::backend::host

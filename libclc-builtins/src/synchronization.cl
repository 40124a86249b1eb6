// Work-item linear ids (6.15.1), barriers and fences (6.15.9, 6.15.10) and
// wait_group_events (6.15.11). get_local_id, barrier(flags) and the other work-item
// functions are replaced by each device's code generator; these call them.
#include "builtin_support.h"
#include "atomic_support.h"

OVLD size_t get_global_linear_id(void) {
  return ((get_global_id(2) - get_global_offset(2)) * get_global_size(1) +
          (get_global_id(1) - get_global_offset(1))) * get_global_size(0) +
         (get_global_id(0) - get_global_offset(0));
}

OVLD size_t get_local_linear_id(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
         get_local_id(0);
}

OVLD void work_group_barrier(cl_mem_fence_flags flags) { barrier(flags); }
OVLD void work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) { barrier(flags); }

#ifdef __NVPTX__
// LLVM 15's NVPTX back end selects no fence instruction: a membar of the scope the flags
// need (local memory only: the work-group's), see atomic_support.h.
static void flags_fence(cl_mem_fence_flags flags) {
  nvptx_fence(flags == CLK_LOCAL_MEM_FENCE ? memory_scope_work_group : memory_scope_device);
}
OVLD void mem_fence(cl_mem_fence_flags flags) { flags_fence(flags); }
OVLD void read_mem_fence(cl_mem_fence_flags flags) { flags_fence(flags); }
OVLD void write_mem_fence(cl_mem_fence_flags flags) { flags_fence(flags); }

OVLD void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope) {
  if (order != memory_order_relaxed) nvptx_fence(scope);
}
#else
// Work-items of one group may run on different threads, so fences are real fences.
OVLD void mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_ACQ_REL); }
OVLD void read_mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
OVLD void write_mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_RELEASE); }

OVLD void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope) {
  if (order != memory_order_relaxed) __atomic_thread_fence(order);
}
#endif

// async_work_group_copy copies at once, so waiting is making every work-item's part
// visible to the whole group.
OVLD void wait_group_events(int num_events, __private event_t *event_list) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
OVLD void wait_group_events(int num_events, event_t *event_list) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// Work-group collective functions (__opencl_c_work_group_collective_functions, 6.15.16) on
// the host device.
//
// The host runs the work-items of a group on one thread, in order of local linear id, each
// up to its next barrier (fibers, backends/host/fiber_group.cpp). So every work-item makes
// the collective call after all those with smaller ids and before all those with larger
// ones, and a scan is a running value: each work-item folds its value into an accumulator
// in __local memory, a scan returns the accumulator as it found it (exclusive) or left it
// (inclusive), and after the barrier every work-item reads the whole group's result.
//
// One barrier per call suffices: calls alternate between two accumulators (the first
// work-item flips the choice), so the next call cannot overwrite a result the slower
// work-items have still to read; the one after it can start only when every work-item has
// reached the next call, and so has read this one's.
#include "builtin_support.h"
#include "collective_types.h"

#ifndef __NVPTX__

// The scratch: [0] the choice of accumulator, [1] and [2] the accumulators.
static __local ulong* accumulator(bool first) {
  __local ulong* scratch = cucl_work_group_scratch();
  if (first) scratch[0] ^= 1;
  return scratch + 1 + (scratch[0] & 1);
}

static bool first_work_item(void) { return get_local_linear_id() == 0; }

static void wait_for_the_group(void) { barrier(CLK_LOCAL_MEM_FENCE); }

OVLD int work_group_all(int predicate) {
  const bool first = first_work_item();
  __local int* all = (__local int*)accumulator(first);
  *all = (first || *all) && predicate != 0;
  wait_for_the_group();
  return *all;
}

OVLD int work_group_any(int predicate) {
  const bool first = first_work_item();
  __local int* any = (__local int*)accumulator(first);
  *any = (!first && *any) || predicate != 0;
  wait_for_the_group();
  return *any;
}

#define ADD(a, b) ((a) + (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))

#define DEFINE_WORK_GROUP_OP(T, op, OP, IDENTITY)                        \
  OVLD T work_group_reduce_##op(T x) {                                   \
    const bool first = first_work_item();                                \
    __local T* total = (__local T*)accumulator(first);                   \
    *total = first ? x : OP(*total, x);                                  \
    wait_for_the_group();                                                \
    return *total;                                                       \
  }                                                                      \
  OVLD T work_group_scan_inclusive_##op(T x) {                           \
    const bool first = first_work_item();                                \
    __local T* running = (__local T*)accumulator(first);                 \
    const T mine = first ? x : OP(*running, x);                          \
    *running = mine;                                                     \
    wait_for_the_group();                                                \
    return mine;                                                         \
  }                                                                      \
  OVLD T work_group_scan_exclusive_##op(T x) {                           \
    const bool first = first_work_item();                                \
    __local T* running = (__local T*)accumulator(first);                 \
    const T before = first ? (T)(IDENTITY) : *running;                   \
    *running = first ? x : OP(before, x);                                \
    wait_for_the_group();                                                \
    return before;                                                       \
  }

#define DEFINE_WORK_GROUP_TYPE(T, LOWEST, HIGHEST)                       \
  static T broadcast_##T(T x, bool source) {                             \
    __local T* value = (__local T*)accumulator(first_work_item());       \
    if (source) *value = x;                                              \
    wait_for_the_group();                                                \
    return *value;                                                       \
  }                                                                      \
  DEFINE_WORK_GROUP_BROADCASTS(T)                                        \
  DEFINE_WORK_GROUP_OP(T, add, ADD, 0)                                   \
  DEFINE_WORK_GROUP_OP(T, min, MIN, HIGHEST)                             \
  DEFINE_WORK_GROUP_OP(T, max, MAX, LOWEST)

FOR_EACH_COLLECTIVE_TYPE(DEFINE_WORK_GROUP_TYPE)

#endif  // !__NVPTX__

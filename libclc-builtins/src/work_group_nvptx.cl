// Work-group collective functions (__opencl_c_work_group_collective_functions, 6.15.16) on
// the GPU. A work-group is a block of warps (sub_group.cl): each warp combines its values
// with shuffles, one lane of each writes the warp's result to __local memory, and after one
// barrier every work-item combines the warps' results, all in the same order (so
// floating-point results agree across the group). A second barrier keeps the next call
// from overwriting results slower warps have still to read. A group of one warp needs
// neither; all/any are a single bar.red.
#include "builtin_support.h"
#include "collective_types.h"
#include "nvptx_warp.h"

#ifdef __NVPTX__

OVLD int work_group_all(int predicate) { return nvptx_block_barrier_and(predicate != 0) != 0; }
OVLD int work_group_any(int predicate) { return nvptx_block_barrier_or(predicate != 0) != 0; }

// The folds over the warps' results start from the first result, not the identity: a sum of
// negative zeros stays -0 (+0, add's identity, would make it +0).
#define DEFINE_WORK_GROUP_OP(T, op, OP)                                                     \
  /* OP over the results of warps [0, count), count > 0. */                                 \
  static T warps_##op##_##T(__local const T* results, uint count) {                         \
    T all = results[0];                                                                     \
    for (uint w = 1; w < count; ++w) all = OP(all, results[w]);                             \
    return all;                                                                             \
  }                                                                                         \
  OVLD T work_group_reduce_##op(T x) {                                                      \
    const T warp = sub_group_reduce_##op(x);                                                \
    const uint warps = get_num_sub_groups();                                                \
    if (warps == 1) return warp;                                                            \
    __local T* results = (__local T*)cucl_work_group_scratch();                             \
    if (get_sub_group_local_id() == 0) results[get_sub_group_id()] = warp;                  \
    nvptx_block_barrier();                                                                  \
    const T all = warps_##op##_##T(results, warps);                                         \
    nvptx_block_barrier();                                                                  \
    return all;                                                                             \
  }                                                                                         \
  OVLD T work_group_scan_inclusive_##op(T x) {                                              \
    const T mine = sub_group_scan_inclusive_##op(x);                                        \
    if (get_num_sub_groups() == 1) return mine;                                             \
    __local T* results = (__local T*)cucl_work_group_scratch();                             \
    if (get_sub_group_local_id() == get_sub_group_size() - 1) results[get_sub_group_id()] = mine; \
    nvptx_block_barrier();                                                                  \
    const uint warp = get_sub_group_id();                                                   \
    const T all = warp == 0 ? mine : OP(warps_##op##_##T(results, warp), mine);             \
    nvptx_block_barrier();                                                                  \
    return all;                                                                             \
  }                                                                                         \
  OVLD T work_group_scan_exclusive_##op(T x) {                                              \
    const T mine = sub_group_scan_exclusive_##op(x);                                        \
    if (get_num_sub_groups() == 1) return mine;                                             \
    __local T* results = (__local T*)cucl_work_group_scratch();                             \
    const uint lane = get_sub_group_local_id();                                             \
    if (lane == get_sub_group_size() - 1) results[get_sub_group_id()] = lane == 0 ? x : OP(mine, x); \
    nvptx_block_barrier();                                                                  \
    const uint warp = get_sub_group_id();                                                   \
    /* Lane 0's exclusive value is the identity: the warps before it are all it has. */     \
    const T before = warp == 0 ? mine : warps_##op##_##T(results, warp);                    \
    const T all = warp == 0 || lane == 0 ? before : OP(before, mine);                       \
    nvptx_block_barrier();                                                                  \
    return all;                                                                             \
  }

#define DEFINE_WORK_GROUP_TYPE(T, LOWEST, HIGHEST)                                          \
  static T broadcast_##T(T x, bool source) {                                                \
    __local T* value = (__local T*)cucl_work_group_scratch();                               \
    if (source) *value = x;                                                                 \
    nvptx_block_barrier();                                                                  \
    const T result = *value;                                                                \
    nvptx_block_barrier();                                                                  \
    return result;                                                                          \
  }                                                                                         \
  DEFINE_WORK_GROUP_BROADCASTS(T)                                                           \
  DEFINE_WORK_GROUP_OP(T, add, ADD)                                                         \
  DEFINE_WORK_GROUP_OP(T, min, MIN)                                                         \
  DEFINE_WORK_GROUP_OP(T, max, MAX)

FOR_EACH_COLLECTIVE_TYPE(DEFINE_WORK_GROUP_TYPE)

#endif  // __NVPTX__

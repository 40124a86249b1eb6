// cl_khr_subgroup_non_uniform_arithmetic and cl_khr_subgroup_clustered_reduce on the GPU
// (a sub-group is a warp, see sub_group.cl). Neither needs every work-item of the sub-group:
// they combine the values of the lanes converged at the call (`activemask`), in order of
// lane, and a clustered reduction those of the converged lanes of each cluster.
//
// One scan serves both. Its lanes are any set of lanes (`group`), not necessarily
// contiguous: step d combines a lane's value with the one d places below it in the group,
// found with fns (the d-th set bit below), so log2(lanes) shuffles suffice whatever the
// mask. Every converged lane makes every shuffle (the steps are counted from values all of
// them share), with the converged lanes as the member mask.
#include "builtin_support.h"
#include "nvptx_warp.h"

#ifdef __NVPTX__

#define DEFINE_GROUP_SCAN(T, BITS, SUFFIX, MOVE, op, OP)                                                  \
  /* The inclusive scan of OP over the lanes of `group`; `steps` bounds the group's size. */              \
  static T scan_##op##_##T(T x, uint active, uint group, uint steps) {                                   \
    const uint lane = nvptx_lane_id();                                                                    \
    for (uint d = 1; d < steps; d <<= 1) {                                                                \
      const uint from = nvptx_find_lane(group, lane, -(int)(d + 1));                                      \
      const T other = (T)as_##MOVE(nvptx_shuffle_index##SUFFIX(active, as_##BITS((MOVE)x), (int)(from & 31u), WHOLE_WARP)); \
      if (from != ~0u) x = OP(other, x);                                                                  \
    }                                                                                                     \
    return x;                                                                                             \
  }

#define DEFINE_FROM_LANE(T, BITS, SUFFIX, MOVE)                                                           \
  static T from_lane_##T(T x, uint active, uint lane) {                                                   \
    return (T)as_##MOVE(nvptx_shuffle_index##SUFFIX(active, as_##BITS((MOVE)x), (int)lane, WHOLE_WARP));  \
  }

#define DEFINE_NON_UNIFORM_OP(T, op, IDENTITY)                                                            \
  OVLD T sub_group_non_uniform_scan_inclusive_##op(T x) {                                                 \
    const uint active = active_lanes();                                                                   \
    return scan_##op##_##T(x, active, active, (uint)popcount(active));                                   \
  }                                                                                                       \
  OVLD T sub_group_non_uniform_reduce_##op(T x) {                                                         \
    const uint active = active_lanes();                                                                   \
    const T all = scan_##op##_##T(x, active, active, (uint)popcount(active));                            \
    return from_lane_##T(all, active, last_active_lane(active));                                          \
  }                                                                                                       \
  OVLD T sub_group_non_uniform_scan_exclusive_##op(T x) {                                                 \
    const uint active = active_lanes();                                                                   \
    const T inclusive = scan_##op##_##T(x, active, active, (uint)popcount(active));                      \
    const uint below = nvptx_find_lane(active, nvptx_lane_id(), -2);                                      \
    const T before = from_lane_##T(inclusive, active, below & 31u);                                       \
    return below == ~0u ? (T)(IDENTITY) : before;                                                         \
  }                                                                                                       \
  OVLD T sub_group_clustered_reduce_##op(T x, uint cluster_size) {                                        \
    const uint active = active_lanes(), lane = nvptx_lane_id();                                           \
    const uint cluster = cluster_size >= WARP ? ~0u : sub_group_mask(cluster_size) << (lane & ~(cluster_size - 1u)); \
    const uint group = active & cluster;                                                                  \
    const T all = scan_##op##_##T(x, active, group, cluster_size);                                       \
    return from_lane_##T(all, active, last_active_lane(group));                                           \
  }

#define DEFINE_ARITHMETIC(T, BITS, SUFFIX, MOVE, LOWEST, HIGHEST)                                         \
  DEFINE_FROM_LANE(T, BITS, SUFFIX, MOVE)                                                                 \
  DEFINE_GROUP_SCAN(T, BITS, SUFFIX, MOVE, add, ADD)                                                      \
  DEFINE_GROUP_SCAN(T, BITS, SUFFIX, MOVE, mul, MUL)                                                      \
  DEFINE_GROUP_SCAN(T, BITS, SUFFIX, MOVE, min, MIN)                                                      \
  DEFINE_GROUP_SCAN(T, BITS, SUFFIX, MOVE, max, MAX)                                                      \
  DEFINE_NON_UNIFORM_OP(T, add, 0)                                                                        \
  DEFINE_NON_UNIFORM_OP(T, mul, 1)                                                                        \
  DEFINE_NON_UNIFORM_OP(T, min, HIGHEST)                                                                  \
  DEFINE_NON_UNIFORM_OP(T, max, LOWEST)

#define DEFINE_BITWISE(T, BITS, SUFFIX, MOVE)                                                             \
  DEFINE_GROUP_SCAN(T, BITS, SUFFIX, MOVE, and, AND)                                                      \
  DEFINE_GROUP_SCAN(T, BITS, SUFFIX, MOVE, or, OR)                                                        \
  DEFINE_GROUP_SCAN(T, BITS, SUFFIX, MOVE, xor, XOR)                                                      \
  DEFINE_NON_UNIFORM_OP(T, and, ~(T)0)                                                                    \
  DEFINE_NON_UNIFORM_OP(T, or, 0)                                                                         \
  DEFINE_NON_UNIFORM_OP(T, xor, 0)

#define DEFINE_INTEGER(T, BITS, SUFFIX, MOVE, LOWEST, HIGHEST) \
  DEFINE_ARITHMETIC(T, BITS, SUFFIX, MOVE, LOWEST, HIGHEST) DEFINE_BITWISE(T, BITS, SUFFIX, MOVE)

// MOVE: the type a value travels as (narrow integers widened to 32 bits first; half as its
// own bits); the operations themselves are done in T, so narrow sums wrap as the type does
// and half results round at every step.
DEFINE_INTEGER(char, int, , int, CHAR_MIN, CHAR_MAX)
DEFINE_INTEGER(uchar, int, , uint, 0, UCHAR_MAX)
DEFINE_INTEGER(short, int, , int, SHRT_MIN, SHRT_MAX)
DEFINE_INTEGER(ushort, int, , uint, 0, USHRT_MAX)
DEFINE_INTEGER(int, int, , int, INT_MIN, INT_MAX)
DEFINE_INTEGER(uint, int, , uint, 0, UINT_MAX)
DEFINE_INTEGER(long, long, _64, long, LONG_MIN, LONG_MAX)
DEFINE_INTEGER(ulong, long, _64, ulong, 0, ULONG_MAX)
DEFINE_ARITHMETIC(float, int, , float, -INFINITY, INFINITY)
DEFINE_ARITHMETIC(double, long, _64, double, -INFINITY, INFINITY)
DEFINE_ARITHMETIC(half, half, _half, half, -INFINITY, INFINITY)

// The logical forms: predicates as 0 or 1, combined bitwise.
#define DEFINE_LOGICAL(op)                                                                                 \
  OVLD int sub_group_non_uniform_reduce_logical_##op(int p) { return sub_group_non_uniform_reduce_##op(p != 0); } \
  OVLD int sub_group_non_uniform_scan_inclusive_logical_##op(int p) {                                     \
    return sub_group_non_uniform_scan_inclusive_##op(p != 0);                                             \
  }                                                                                                       \
  OVLD int sub_group_non_uniform_scan_exclusive_logical_##op(int p) {                                     \
    return sub_group_non_uniform_scan_exclusive_##op(p != 0) & 1;                                         \
  }                                                                                                       \
  OVLD int sub_group_clustered_reduce_logical_##op(int p, uint cluster_size) {                            \
    return sub_group_clustered_reduce_##op(p != 0, cluster_size);                                         \
  }
DEFINE_LOGICAL(and)
DEFINE_LOGICAL(or)
DEFINE_LOGICAL(xor)

#endif  // __NVPTX__

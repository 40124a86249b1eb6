// Sub-group functions (OpenCL C 3.0 __opencl_c_subgroups, 6.15.19) on the GPU: a sub-group
// is a warp. CUDA forms warps from a block's linear thread ids (x fastest), as OpenCL forms
// sub-groups from the local linear id, so sub-group k is the work-items 32k .. 32k+31 and
// the last one of a group whose size is not a multiple of 32 is partial. The functions
// here are the uniform ones (every work-item of the sub-group reaches them), so the member
// mask is every lane the sub-group has, not the lanes that happen to be converged. The warp
// operations are in nvptx_warp.h; the host device's sub-groups are in sub_group_host.cl,
// the non-uniform arithmetic and clustered reductions in sub_group_non_uniform.cl.
#include "builtin_support.h"
#include "atomic_support.h"
#include "nvptx_warp.h"
#include "collective_types.h"

#ifdef __NVPTX__

static uint linear_local_size(void) { return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2)); }

static uint enqueued_linear_local_size(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) * get_enqueued_local_size(2));
}

OVLD uint get_sub_group_local_id(void) { return nvptx_lane_id(); }
OVLD uint get_sub_group_id(void) { return (uint)get_local_linear_id() / WARP; }
OVLD uint get_num_sub_groups(void) { return (linear_local_size() + WARP - 1) / WARP; }
OVLD uint get_enqueued_num_sub_groups(void) { return (enqueued_linear_local_size() + WARP - 1) / WARP; }

OVLD uint get_sub_group_size(void) {
  const uint left = linear_local_size() - get_sub_group_id() * WARP;
  return left < WARP ? left : WARP;
}

OVLD uint get_max_sub_group_size(void) {
  const uint enqueued = enqueued_linear_local_size();
  return enqueued < WARP ? enqueued : WARP;
}

OVLD void sub_group_barrier(cl_mem_fence_flags flags) {
  nvptx_warp_sync(sub_group_mask(get_sub_group_size()));
  if (flags) nvptx_fence(__OPENCL_MEMORY_SCOPE_SUB_GROUP);
}
OVLD void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  nvptx_warp_sync(sub_group_mask(get_sub_group_size()));
  if (flags) nvptx_fence(scope);
}

OVLD int sub_group_all(int predicate) {
  const uint mask = sub_group_mask(get_sub_group_size());
  return nvptx_ballot(mask, predicate != 0) == mask;
}
OVLD int sub_group_any(int predicate) { return nvptx_ballot(sub_group_mask(get_sub_group_size()), predicate != 0) != 0; }

// Reductions and scans of one type T, which moves through shuffles as BITS (int, long or
// half) with the shuffle functions of SUFFIX (nothing, _64 or _half). Integer reductions of a
// whole warp are a butterfly (every lane ends with the same exact sum); floating-point ones,
// and partial warps, gather on lane 0 and broadcast, so that every work-item gets the same
// value.
#define DEFINE_SUB_GROUP_OP(T, BITS, SUFFIX, op, OP, IDENTITY, EXACT)                              \
  OVLD T sub_group_reduce_##op(T x) {                                                             \
    const uint size = get_sub_group_size(), mask = sub_group_mask(size), lane = nvptx_lane_id();    \
    if (EXACT && size == WARP) {                                                                  \
      for (int lanes = 16; lanes > 0; lanes >>= 1) {                                              \
        const T other = as_##T(nvptx_shuffle_xor##SUFFIX(mask, as_##BITS(x), lanes, WHOLE_WARP));  \
        x = OP(x, other);                                                                         \
      }                                                                                           \
      return x;                                                                                   \
    }                                                                                             \
    for (uint delta = 16; delta > 0; delta >>= 1) {                                               \
      const T other = as_##T(nvptx_shuffle_down##SUFFIX(mask, as_##BITS(x), (int)delta, WHOLE_WARP)); \
      if (lane + delta < size) x = OP(x, other);                                                  \
    }                                                                                             \
    return as_##T(nvptx_shuffle_index##SUFFIX(mask, as_##BITS(x), 0, WHOLE_WARP));                \
  }                                                                                               \
  OVLD T sub_group_scan_inclusive_##op(T x) {                                                     \
    const uint mask = sub_group_mask(get_sub_group_size()), lane = nvptx_lane_id();               \
    for (uint delta = 1; delta < WARP; delta <<= 1) {                                             \
      const T other = as_##T(nvptx_shuffle_up##SUFFIX(mask, as_##BITS(x), (int)delta, FROM_LANE_ZERO)); \
      if (lane >= delta) x = OP(x, other);                                                        \
    }                                                                                             \
    return x;                                                                                     \
  }                                                                                               \
  OVLD T sub_group_scan_exclusive_##op(T x) {                                                     \
    const uint mask = sub_group_mask(get_sub_group_size()), lane = nvptx_lane_id();               \
    const T inclusive = sub_group_scan_inclusive_##op(x);                                         \
    const T before = as_##T(nvptx_shuffle_up##SUFFIX(mask, as_##BITS(inclusive), 1, FROM_LANE_ZERO)); \
    return lane == 0 ? (T)(IDENTITY) : before;                                                    \
  }

#define DEFINE_SUB_GROUP_TYPE(T, BITS, SUFFIX, LOWEST, HIGHEST, EXACT)                            \
  OVLD T sub_group_broadcast(T x, uint lane) {                                                    \
    return as_##T(nvptx_shuffle_index##SUFFIX(sub_group_mask(get_sub_group_size()), as_##BITS(x), (int)lane, WHOLE_WARP)); \
  }                                                                                               \
  DEFINE_SUB_GROUP_OP(T, BITS, SUFFIX, add, ADD, 0, EXACT)                                        \
  DEFINE_SUB_GROUP_OP(T, BITS, SUFFIX, min, MIN, HIGHEST, EXACT)                                  \
  DEFINE_SUB_GROUP_OP(T, BITS, SUFFIX, max, MAX, LOWEST, EXACT)

DEFINE_SUB_GROUP_TYPE(int, int, , INT_MIN, INT_MAX, 1)
DEFINE_SUB_GROUP_TYPE(uint, int, , 0, UINT_MAX, 1)
DEFINE_SUB_GROUP_TYPE(long, long, _64, LONG_MIN, LONG_MAX, 1)
DEFINE_SUB_GROUP_TYPE(ulong, long, _64, 0, ULONG_MAX, 1)
DEFINE_SUB_GROUP_TYPE(float, int, , -INFINITY, INFINITY, 0)
DEFINE_SUB_GROUP_TYPE(double, long, _64, -INFINITY, INFINITY, 0)
DEFINE_SUB_GROUP_TYPE(half, half, _half, -INFINITY, INFINITY, 0)

// The 8- and 16-bit types of cl_khr_subgroup_extended_types go through int. Exclusive
// scans of min and max give lane 0 the narrow type's identity, not int's; the collective
// call comes first so every lane makes it.
#define DEFINE_NARROW_SUB_GROUP(T, LOWEST, HIGHEST)                                                  \
  OVLD T sub_group_broadcast(T x, uint lane) { return (T)sub_group_broadcast((int)x, lane); }          \
  OVLD T sub_group_reduce_add(T x) { return (T)sub_group_reduce_add((int)x); }                        \
  OVLD T sub_group_reduce_min(T x) { return (T)sub_group_reduce_min((int)x); }                        \
  OVLD T sub_group_reduce_max(T x) { return (T)sub_group_reduce_max((int)x); }                        \
  OVLD T sub_group_scan_inclusive_add(T x) { return (T)sub_group_scan_inclusive_add((int)x); }        \
  OVLD T sub_group_scan_inclusive_min(T x) { return (T)sub_group_scan_inclusive_min((int)x); }        \
  OVLD T sub_group_scan_inclusive_max(T x) { return (T)sub_group_scan_inclusive_max((int)x); }        \
  OVLD T sub_group_scan_exclusive_add(T x) { return (T)sub_group_scan_exclusive_add((int)x); }        \
  OVLD T sub_group_scan_exclusive_min(T x) {                                                         \
    const int before = sub_group_scan_exclusive_min((int)x);                                         \
    return nvptx_lane_id() == 0 ? (T)(HIGHEST) : (T)before;                                          \
  }                                                                                                  \
  OVLD T sub_group_scan_exclusive_max(T x) {                                                         \
    const int before = sub_group_scan_exclusive_max((int)x);                                         \
    return nvptx_lane_id() == 0 ? (T)(LOWEST) : (T)before;                                           \
  }

DEFINE_NARROW_SUB_GROUP(char, CHAR_MIN, CHAR_MAX)
DEFINE_NARROW_SUB_GROUP(uchar, 0, UCHAR_MAX)
DEFINE_NARROW_SUB_GROUP(short, SHRT_MIN, SHRT_MAX)
DEFINE_NARROW_SUB_GROUP(ushort, 0, USHRT_MAX)

// Vector broadcasts (cl_khr_subgroup_extended_types), one component at a time.
#define DEFINE_VECTOR_BROADCAST(T, N)                                                               \
  OVLD T##N sub_group_broadcast(T##N x, uint lane) {                                                \
    T##N r;                                                                                         \
    for (int i = 0; i < N; ++i) r[i] = sub_group_broadcast(x[i], lane);                             \
    return r;                                                                                       \
  }
#define DEFINE_VECTOR_BROADCASTS(T) \
  DEFINE_VECTOR_BROADCAST(T, 2) DEFINE_VECTOR_BROADCAST(T, 3) DEFINE_VECTOR_BROADCAST(T, 4) \
  DEFINE_VECTOR_BROADCAST(T, 8) DEFINE_VECTOR_BROADCAST(T, 16)
FOR_EACH_ELEMENT_TYPE(DEFINE_VECTOR_BROADCASTS)

// cl_khr_subgroup_shuffle, _shuffle_relative and _rotate need not be reached by every
// work-item of the sub-group: they take part with the lanes converged at the call.
#define DEFINE_SHUFFLES(T, BITS, SUFFIX, MOVE)                                                      \
  OVLD T sub_group_shuffle(T x, uint lane) {                                                        \
    return (T)as_##MOVE(nvptx_shuffle_index##SUFFIX(active_lanes(), as_##BITS((MOVE)x), (int)lane, WHOLE_WARP)); \
  }                                                                                                 \
  OVLD T sub_group_shuffle_xor(T x, uint lanes) {                                                   \
    return (T)as_##MOVE(nvptx_shuffle_xor##SUFFIX(active_lanes(), as_##BITS((MOVE)x), (int)lanes, WHOLE_WARP)); \
  }                                                                                                 \
  OVLD T sub_group_shuffle_up(T x, uint delta) {                                                    \
    return (T)as_##MOVE(nvptx_shuffle_up##SUFFIX(active_lanes(), as_##BITS((MOVE)x), (int)delta, FROM_LANE_ZERO)); \
  }                                                                                                 \
  OVLD T sub_group_shuffle_down(T x, uint delta) {                                                  \
    return (T)as_##MOVE(nvptx_shuffle_down##SUFFIX(active_lanes(), as_##BITS((MOVE)x), (int)delta, WHOLE_WARP)); \
  }                                                                                                 \
  OVLD T sub_group_rotate(T x, int delta) {                                                         \
    const long size = get_sub_group_size();                                                         \
    const long from = (((long)nvptx_lane_id() + delta) % size + size) % size;                       \
    return (T)as_##MOVE(nvptx_shuffle_index##SUFFIX(active_lanes(), as_##BITS((MOVE)x), (int)from, WHOLE_WARP)); \
  }                                                                                                 \
  OVLD T sub_group_clustered_rotate(T x, int delta, uint cluster_size) {                            \
    const uint lane = nvptx_lane_id();                                                              \
    const uint from = (lane & ~(cluster_size - 1)) + ((lane + (uint)delta) & (cluster_size - 1));   \
    return (T)as_##MOVE(nvptx_shuffle_index##SUFFIX(active_lanes(), as_##BITS((MOVE)x), (int)from, WHOLE_WARP)); \
  }

// MOVE: the type a value travels as (narrow integers widened to 32 bits first; half as its
// own bits).
DEFINE_SHUFFLES(char, int, , int)
DEFINE_SHUFFLES(uchar, int, , uint)
DEFINE_SHUFFLES(short, int, , int)
DEFINE_SHUFFLES(ushort, int, , uint)
DEFINE_SHUFFLES(int, int, , int)
DEFINE_SHUFFLES(uint, int, , uint)
DEFINE_SHUFFLES(long, long, _64, long)
DEFINE_SHUFFLES(ulong, long, _64, ulong)
DEFINE_SHUFFLES(float, int, , float)
DEFINE_SHUFFLES(double, long, _64, double)
DEFINE_SHUFFLES(half, half, _half, half)

// cl_khr_subgroup_non_uniform_vote and cl_khr_subgroup_ballot: among the lanes converged at
// the call. A ballot of 32 lanes lives in .x; bits above the largest sub-group are ignored
// where the functions read a ballot and never set where they make one.

OVLD int sub_group_elect(void) { return nvptx_lane_id() == first_active_lane(active_lanes()); }
OVLD int sub_group_non_uniform_all(int predicate) {
  const uint active = active_lanes();
  return nvptx_ballot(active, predicate != 0) == active;
}
OVLD int sub_group_non_uniform_any(int predicate) { return nvptx_ballot(active_lanes(), predicate != 0) != 0; }

OVLD uint4 sub_group_ballot(int predicate) { return (uint4)(nvptx_ballot(active_lanes(), predicate != 0), 0, 0, 0); }
OVLD int sub_group_inverse_ballot(uint4 value) { return (value.x >> nvptx_lane_id()) & 1u; }
OVLD int sub_group_ballot_bit_extract(uint4 value, uint index) {
  return index < 128 ? (value[index / 32] >> (index % 32)) & 1u : 0;
}
// The bit-counting functions consider the bits of lanes below the dispatch's largest
// sub-group size, whether this sub-group has those lanes or not.
static uint own_bits(uint4 value) { return value.x & sub_group_mask(get_max_sub_group_size()); }
OVLD uint sub_group_ballot_bit_count(uint4 value) { return popcount(own_bits(value)); }
OVLD uint sub_group_ballot_inclusive_scan(uint4 value) { return popcount(own_bits(value) & nvptx_lanemask_le()); }
OVLD uint sub_group_ballot_exclusive_scan(uint4 value) { return popcount(own_bits(value) & nvptx_lanemask_lt()); }
OVLD uint sub_group_ballot_find_lsb(uint4 value) { return (uint)__builtin_ctz(own_bits(value)); }
OVLD uint sub_group_ballot_find_msb(uint4 value) { return 31u - (uint)__builtin_clz(own_bits(value)); }

#define DEFINE_LANE_MASK(name)                                                                     \
  OVLD uint4 get_sub_group_##name##_mask(void) {                                                   \
    return (uint4)(nvptx_lanemask_##name() & sub_group_mask(get_sub_group_size()), 0, 0, 0);       \
  }
DEFINE_LANE_MASK(eq)
DEFINE_LANE_MASK(ge)
DEFINE_LANE_MASK(gt)
DEFINE_LANE_MASK(le)
DEFINE_LANE_MASK(lt)

#define DEFINE_NON_UNIFORM_SCALAR(T, BITS, SUFFIX, MOVE)                                            \
  OVLD T sub_group_non_uniform_broadcast(T x, uint lane) {                                          \
    return (T)as_##MOVE(nvptx_shuffle_index##SUFFIX(active_lanes(), as_##BITS((MOVE)x), (int)lane, WHOLE_WARP)); \
  }                                                                                                 \
  OVLD T sub_group_broadcast_first(T x) {                                                           \
    const uint active = active_lanes();                                                             \
    return (T)as_##MOVE(nvptx_shuffle_index##SUFFIX(active, as_##BITS((MOVE)x), (int)first_active_lane(active), WHOLE_WARP)); \
  }                                                                                                 \
  OVLD int sub_group_non_uniform_all_equal(T x) {                                                   \
    const T first = sub_group_broadcast_first(x);                                                   \
    return sub_group_non_uniform_all(x == first);                                                   \
  }
DEFINE_NON_UNIFORM_SCALAR(char, int, , int)
DEFINE_NON_UNIFORM_SCALAR(uchar, int, , uint)
DEFINE_NON_UNIFORM_SCALAR(short, int, , int)
DEFINE_NON_UNIFORM_SCALAR(ushort, int, , uint)
DEFINE_NON_UNIFORM_SCALAR(int, int, , int)
DEFINE_NON_UNIFORM_SCALAR(uint, int, , uint)
DEFINE_NON_UNIFORM_SCALAR(long, long, _64, long)
DEFINE_NON_UNIFORM_SCALAR(ulong, long, _64, ulong)
DEFINE_NON_UNIFORM_SCALAR(float, int, , float)
DEFINE_NON_UNIFORM_SCALAR(double, long, _64, double)
DEFINE_NON_UNIFORM_SCALAR(half, half, _half, half)

#define DEFINE_NON_UNIFORM_VECTOR(T, N)                                                             \
  OVLD T##N sub_group_non_uniform_broadcast(T##N x, uint lane) {                                    \
    T##N r;                                                                                         \
    for (int i = 0; i < N; ++i) r[i] = sub_group_non_uniform_broadcast(x[i], lane);                 \
    return r;                                                                                       \
  }
#define DEFINE_NON_UNIFORM_VECTORS(T) \
  DEFINE_NON_UNIFORM_VECTOR(T, 2) DEFINE_NON_UNIFORM_VECTOR(T, 3) DEFINE_NON_UNIFORM_VECTOR(T, 4) \
  DEFINE_NON_UNIFORM_VECTOR(T, 8) DEFINE_NON_UNIFORM_VECTOR(T, 16)
FOR_EACH_ELEMENT_TYPE(DEFINE_NON_UNIFORM_VECTORS)

#endif  // __NVPTX__

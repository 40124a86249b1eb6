// Sub-group functions (OpenCL C 3.0 __opencl_c_subgroups, 6.15.19) on the GPU: a sub-group
// is a warp. CUDA forms warps from a block's linear thread ids (x fastest), as OpenCL forms
// sub-groups from the local linear id, so sub-group k is the work-items 32k .. 32k+31 and
// the last one of a group whose size is not a multiple of 32 is partial. The functions
// here are the uniform ones (every work-item of the sub-group reaches them), so the member
// mask is every lane the sub-group has, not the lanes that happen to be converged.
//
// The warp operations are LLVM's NVVM intrinsics, named through asm labels (clang's
// __nvvm_* builtins need a PTX target feature the library is not compiled with): they
// carry the convergent attribute, so no optimisation moves them into divergent code.
// The host device has no sub-groups yet.
#include "builtin_support.h"
#include "atomic_support.h"

#ifdef __NVPTX__

uint nvptx_lane_id(void) __asm("llvm.nvvm.read.ptx.sreg.laneid");
int nvptx_shuffle_index(uint mask, int value, int lane, int clamp) __asm("llvm.nvvm.shfl.sync.idx.i32");
int nvptx_shuffle_up(uint mask, int value, int delta, int clamp) __asm("llvm.nvvm.shfl.sync.up.i32");
int nvptx_shuffle_down(uint mask, int value, int delta, int clamp) __asm("llvm.nvvm.shfl.sync.down.i32");
int nvptx_shuffle_xor(uint mask, int value, int lanes, int clamp) __asm("llvm.nvvm.shfl.sync.bfly.i32");
uint nvptx_ballot(uint mask, bool predicate) __asm("llvm.nvvm.vote.ballot.sync");
void nvptx_warp_sync(uint mask) __asm("llvm.nvvm.bar.warp.sync");

#define WARP 32u
// shfl's clamp operand: the source lane stays within the whole warp.
#define WHOLE_WARP 31
// up: lanes below the delta keep their value (clamp 0 for shfl.up).
#define FROM_LANE_ZERO 0

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

// The lanes of this work-item's sub-group.
static uint sub_group_mask(uint size) { return size >= WARP ? 0xffffffffu : (1u << size) - 1u; }

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

// 64-bit values move as two 32-bit halves.
#define SHUFFLE_64(name)                                                           \
  static long name##_64(uint mask, long value, int lane, int clamp) {               \
    const int lo = name(mask, (int)value, lane, clamp);                             \
    const int hi = name(mask, (int)(value >> 32), lane, clamp);                     \
    return (long)(((ulong)(uint)hi << 32) | (uint)lo);                              \
  }
SHUFFLE_64(nvptx_shuffle_index)
SHUFFLE_64(nvptx_shuffle_up)
SHUFFLE_64(nvptx_shuffle_down)
SHUFFLE_64(nvptx_shuffle_xor)

// Each operand is evaluated once or twice: never a shuffle (it would run in divergent code).
#define ADD(a, b) ((a) + (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))

// Reductions and scans of one type T, which moves through shuffles as BITS (int or long) with
// the shuffle functions of SUFFIX (nothing or _64). Integer reductions of a whole warp are a
// butterfly (every lane ends with the same exact sum); floating-point ones, and partial
// warps, gather on lane 0 and broadcast, so that every work-item gets the same value.
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
DEFINE_VECTOR_BROADCASTS(char)
DEFINE_VECTOR_BROADCASTS(uchar)
DEFINE_VECTOR_BROADCASTS(short)
DEFINE_VECTOR_BROADCASTS(ushort)
DEFINE_VECTOR_BROADCASTS(int)
DEFINE_VECTOR_BROADCASTS(uint)
DEFINE_VECTOR_BROADCASTS(long)
DEFINE_VECTOR_BROADCASTS(ulong)
DEFINE_VECTOR_BROADCASTS(float)
DEFINE_VECTOR_BROADCASTS(double)

// cl_khr_subgroup_shuffle, _shuffle_relative and _rotate need not be reached by every
// work-item of the sub-group: they take part with the lanes converged at the call. (A mask
// naming a lane that never makes the call would hang the warp.)
static uint active_lanes(void) {
  uint mask;
  __asm__ volatile("activemask.b32 %0;" : "=r"(mask));
  return mask;
}

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

// MOVE: the 32- or 64-bit type a value travels as (narrow integers widened first).
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

#endif  // __NVPTX__

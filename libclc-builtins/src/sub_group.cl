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

#endif  // __NVPTX__

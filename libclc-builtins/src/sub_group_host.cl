// Sub-group functions on the host device, where a sub-group is one work-item.
//
// The host runs the work-items of a group one at a time on one thread (a loop nest, or
// fibers that switch at barriers), so no two work-items ever execute an instruction
// together: a wider sub-group would have to meet at every sub-group function like a barrier,
// which cannot be done where only some work-items make the call (shuffles, votes, ballots
// and the non-uniform and clustered functions need not be reached by every work-item). A
// sub-group of one is exact in every control flow, and each function is its value for one
// work-item: reductions and inclusive scans return the value, exclusive scans the
// operation's identity, broadcasts and shuffles the work-item's own value (any other lane
// would be out of range), a ballot the predicate in bit 0. A group of n work-items has n
// sub-groups.
#include "builtin_support.h"
#include "atomic_support.h"
#include "collective_types.h"

#ifndef __NVPTX__

static uint linear_size(size_t x, size_t y, size_t z) { return (uint)(x * y * z); }

OVLD uint get_sub_group_size(void) { return 1; }
OVLD uint get_max_sub_group_size(void) { return 1; }
OVLD uint get_sub_group_local_id(void) { return 0; }
OVLD uint get_sub_group_id(void) { return (uint)get_local_linear_id(); }
OVLD uint get_num_sub_groups(void) { return linear_size(get_local_size(0), get_local_size(1), get_local_size(2)); }
OVLD uint get_enqueued_num_sub_groups(void) {
  return linear_size(get_enqueued_local_size(0), get_enqueued_local_size(1), get_enqueued_local_size(2));
}

// Nothing to wait for; the fence orders this work-item's memory operations as asked.
OVLD void sub_group_barrier(cl_mem_fence_flags flags) {
  if (flags) __atomic_thread_fence(__ATOMIC_ACQ_REL);
}
OVLD void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  if (flags) __atomic_thread_fence(__ATOMIC_ACQ_REL);
}

OVLD int sub_group_all(int predicate) { return predicate != 0; }
OVLD int sub_group_any(int predicate) { return predicate != 0; }
OVLD int sub_group_elect(void) { return 1; }
OVLD int sub_group_non_uniform_all(int predicate) { return predicate != 0; }
OVLD int sub_group_non_uniform_any(int predicate) { return predicate != 0; }

// Ballots: lane 0 is bit 0 of .x; the other 127 bits name lanes this sub-group does not have.
OVLD uint4 sub_group_ballot(int predicate) { return (uint4)(predicate != 0, 0, 0, 0); }
OVLD int sub_group_inverse_ballot(uint4 value) { return value.x & 1u; }
OVLD int sub_group_ballot_bit_extract(uint4 value, uint index) {
  return index < 128 ? (value[index / 32] >> (index % 32)) & 1u : 0;
}
OVLD uint sub_group_ballot_bit_count(uint4 value) { return value.x & 1u; }
OVLD uint sub_group_ballot_inclusive_scan(uint4 value) { return value.x & 1u; }
OVLD uint sub_group_ballot_exclusive_scan(uint4 value) { return 0; }
OVLD uint sub_group_ballot_find_lsb(uint4 value) { return 0; }
OVLD uint sub_group_ballot_find_msb(uint4 value) { return 0; }
OVLD uint4 get_sub_group_eq_mask(void) { return (uint4)(1, 0, 0, 0); }
OVLD uint4 get_sub_group_ge_mask(void) { return (uint4)(1, 0, 0, 0); }
OVLD uint4 get_sub_group_gt_mask(void) { return (uint4)(0); }
OVLD uint4 get_sub_group_le_mask(void) { return (uint4)(1, 0, 0, 0); }
OVLD uint4 get_sub_group_lt_mask(void) { return (uint4)(0); }

// Functions of one value: the value itself, or the operation's identity for exclusive scans.
#define DEFINE_OWN_VALUE(T)                                                        \
  OVLD T sub_group_broadcast(T x, uint lane) { return x; }                          \
  OVLD T sub_group_non_uniform_broadcast(T x, uint lane) { return x; }              \
  OVLD T sub_group_broadcast_first(T x) { return x; }                               \
  OVLD int sub_group_non_uniform_all_equal(T x) { return 1; }                       \
  OVLD T sub_group_shuffle(T x, uint lane) { return x; }                            \
  OVLD T sub_group_shuffle_xor(T x, uint lanes) { return x; }                       \
  OVLD T sub_group_shuffle_up(T x, uint delta) { return x; }                        \
  OVLD T sub_group_shuffle_down(T x, uint delta) { return x; }                      \
  OVLD T sub_group_rotate(T x, int delta) { return x; }                             \
  OVLD T sub_group_clustered_rotate(T x, int delta, uint cluster_size) { return x; }

#define DEFINE_ONE_VALUE_OP(T, op, IDENTITY)                                       \
  OVLD T sub_group_reduce_##op(T x) { return x; }                                   \
  OVLD T sub_group_scan_inclusive_##op(T x) { return x; }                           \
  OVLD T sub_group_scan_exclusive_##op(T x) { return (T)(IDENTITY); }

#define DEFINE_NON_UNIFORM_OP(T, op, IDENTITY)                                     \
  OVLD T sub_group_non_uniform_reduce_##op(T x) { return x; }                       \
  OVLD T sub_group_non_uniform_scan_inclusive_##op(T x) { return x; }               \
  OVLD T sub_group_non_uniform_scan_exclusive_##op(T x) { return (T)(IDENTITY); }   \
  OVLD T sub_group_clustered_reduce_##op(T x, uint cluster_size) { return x; }

#define DEFINE_ARITHMETIC(T, LOWEST, HIGHEST)                                      \
  DEFINE_OWN_VALUE(T)                                                               \
  DEFINE_ONE_VALUE_OP(T, add, 0)                                                    \
  DEFINE_ONE_VALUE_OP(T, min, HIGHEST)                                              \
  DEFINE_ONE_VALUE_OP(T, max, LOWEST)                                               \
  DEFINE_NON_UNIFORM_OP(T, add, 0)                                                  \
  DEFINE_NON_UNIFORM_OP(T, mul, 1)                                                  \
  DEFINE_NON_UNIFORM_OP(T, min, HIGHEST)                                            \
  DEFINE_NON_UNIFORM_OP(T, max, LOWEST)

#define DEFINE_INTEGER(T, LOWEST, HIGHEST)                                         \
  DEFINE_ARITHMETIC(T, LOWEST, HIGHEST)                                             \
  DEFINE_NON_UNIFORM_OP(T, and, ~(T)0)                                              \
  DEFINE_NON_UNIFORM_OP(T, or, 0)                                                   \
  DEFINE_NON_UNIFORM_OP(T, xor, 0)

DEFINE_INTEGER(char, CHAR_MIN, CHAR_MAX)
DEFINE_INTEGER(uchar, 0, UCHAR_MAX)
DEFINE_INTEGER(short, SHRT_MIN, SHRT_MAX)
DEFINE_INTEGER(ushort, 0, USHRT_MAX)
DEFINE_INTEGER(int, INT_MIN, INT_MAX)
DEFINE_INTEGER(uint, 0, UINT_MAX)
DEFINE_INTEGER(long, LONG_MIN, LONG_MAX)
DEFINE_INTEGER(ulong, 0, ULONG_MAX)
DEFINE_ARITHMETIC(float, -INFINITY, INFINITY)
DEFINE_ARITHMETIC(double, -INFINITY, INFINITY)
DEFINE_ARITHMETIC(half, -INFINITY, INFINITY)

#define DEFINE_LOGICAL(op, IDENTITY)                                                              \
  OVLD int sub_group_non_uniform_reduce_logical_##op(int p) { return p != 0; }                     \
  OVLD int sub_group_non_uniform_scan_inclusive_logical_##op(int p) { return p != 0; }             \
  OVLD int sub_group_non_uniform_scan_exclusive_logical_##op(int p) { return IDENTITY; }           \
  OVLD int sub_group_clustered_reduce_logical_##op(int p, uint cluster_size) { return p != 0; }
DEFINE_LOGICAL(and, 1)
DEFINE_LOGICAL(or, 0)
DEFINE_LOGICAL(xor, 0)

// Vector broadcasts (cl_khr_subgroup_extended_types, cl_khr_subgroup_ballot).
#define DEFINE_VECTOR_BROADCAST(T, N)                                              \
  OVLD T##N sub_group_broadcast(T##N x, uint lane) { return x; }                    \
  OVLD T##N sub_group_non_uniform_broadcast(T##N x, uint lane) { return x; }
#define DEFINE_VECTOR_BROADCASTS(T)                                                \
  DEFINE_VECTOR_BROADCAST(T, 2) DEFINE_VECTOR_BROADCAST(T, 3) DEFINE_VECTOR_BROADCAST(T, 4) \
  DEFINE_VECTOR_BROADCAST(T, 8) DEFINE_VECTOR_BROADCAST(T, 16)
FOR_EACH_ELEMENT_TYPE(DEFINE_VECTOR_BROADCASTS)

#endif  // !__NVPTX__

// The type lists the sub-group and work-group collective functions are defined over, and
// the work_group_broadcast overloads every target shares.
#pragma once

// The types of the reductions and scans of OpenCL C 3.0 (half with cl_khr_fp16), with their
// smallest and largest values (the identities of max and min): M(T, LOWEST, HIGHEST).
#define FOR_EACH_COLLECTIVE_TYPE(M)                                                  \
  M(int, INT_MIN, INT_MAX) M(uint, 0, UINT_MAX) M(long, LONG_MIN, LONG_MAX)          \
  M(ulong, 0, ULONG_MAX) M(float, -INFINITY, INFINITY) M(double, -INFINITY, INFINITY) \
  M(half, -INFINITY, INFINITY)

// Every scalar element type of cl_khr_subgroup_extended_types' vector broadcasts: M(T).
#define FOR_EACH_ELEMENT_TYPE(M) \
  M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong) M(float) M(double) M(half)

// work_group_broadcast in 1, 2 and 3 dimensions, through the target's broadcast_<T>(x,
// whether this work-item is the source).
#define DEFINE_WORK_GROUP_BROADCASTS(T)                                                          \
  OVLD T work_group_broadcast(T x, size_t id) { return broadcast_##T(x, get_local_id(0) == id); } \
  OVLD T work_group_broadcast(T x, size_t id_x, size_t id_y) {                                   \
    return broadcast_##T(x, get_local_id(0) == id_x && get_local_id(1) == id_y);                 \
  }                                                                                              \
  OVLD T work_group_broadcast(T x, size_t id_x, size_t id_y, size_t id_z) {                      \
    return broadcast_##T(x, get_local_id(0) == id_x && get_local_id(1) == id_y && get_local_id(2) == id_z); \
  }

// Sub-groups (OpenCL C 3.0 __opencl_c_subgroups): the device queries, every
// clGetKernelSubGroupInfo parameter and its errors, the work-item functions in full, partial
// and non-uniform groups, and the collective functions (broadcast, all/any, reduce and
// scans of add/min/max) of every type, against host references computed per sub-group.
// Devices without sub-groups must say so consistently and refuse the kernel queries.
#include <algorithm>
#include <limits>
#include <random>

#include "support/builtin_reference.h"
#include "support/spirv_tools.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

cl_uint max_num_sub_groups(cl_device_id device) {
  return info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MAX_NUM_SUB_GROUPS);
}


class SubGroups : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (max_num_sub_groups(env.device) == 0) GTEST_SKIP() << "the device has no sub-groups";
  }
  // Runs `kernel` over `global` work-items in groups of `local` (1-D).
  void run(cl_kernel kernel, size_t global, size_t local) {
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  }
  // Runs `kernel(global const int* x, global R* r)` over x.size() work-items in groups of
  // `local` and returns r, `per_item` values per work-item.
  template <class R>
  std::vector<R> run_on_ints(cl_kernel kernel, const std::vector<cl_int>& x, size_t per_item, size_t local) {
    const size_t global = x.size();
    DeviceBuffer xs(env.context, global * sizeof(cl_int), x.data()), rs(env.context, global * per_item * sizeof(R));
    set_args(kernel, xs.get(), rs.get());
    EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
    return read_buffer<R>(env.queue, rs.get(), global * per_item);
  }
  size_t width() {
    return max_sub_group_size(env);
  }
};

TEST_P(SubGroups, TheDeviceReportsThemConsistently) {
  EXPECT_TRUE(lists_feature(env.device, "__opencl_c_subgroups"));
  const size_t max_group = info_value<size_t>(clGetDeviceInfo, env.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  const size_t w = width();
  ASSERT_GT(w, 0u);
  EXPECT_EQ(max_num_sub_groups(env.device), (max_group + w - 1) / w);
  BuiltProgram program(env, R"(
    #ifndef __opencl_c_subgroups
    #error no __opencl_c_subgroups
    #endif
    kernel void k(global uint* r) { r[get_global_id(0)] = get_sub_group_size(); })",
                       "-cl-std=CL3.0");
  EXPECT_TRUE(program);
}

TEST_P(SubGroups, KernelQueriesFollowTheWidth) {
  BuiltProgram program(env, "kernel void k(global uint* r) { r[get_global_id(0)] = get_sub_group_id(); }",
                       "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("k");
  const size_t w = width();
  size_t value = 0, size_ret = 0;
  for (std::vector<size_t> local : {std::vector<size_t>{200}, {1}, {w}, {8, 4, 3}, {w + 1, 2}}) {
    size_t items = 1;
    for (size_t l : local) items *= l;
    ASSERT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      local.size() * sizeof(size_t), local.data(), sizeof value, &value, &size_ret),
              CL_SUCCESS);
    EXPECT_EQ(size_ret, sizeof(size_t));
    EXPECT_EQ(value, std::min(w, items));
    ASSERT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                      local.size() * sizeof(size_t), local.data(), sizeof value, &value, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(value, (items + w - 1) / w);
  }
  const size_t max_group = info_value<size_t>(
      [&](cl_kernel k, cl_kernel_work_group_info p, size_t s, void* v, size_t* r) {
        return clGetKernelWorkGroupInfo(k, env.device, p, s, v, r);
      },
      kernel, CL_KERNEL_WORK_GROUP_SIZE);
  ASSERT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof value, &value,
                                    nullptr),
            CL_SUCCESS);
  EXPECT_EQ(value, (max_group + w - 1) / w);
  ASSERT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, nullptr, sizeof value,
                                    &value, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(value, 0u);
  // A local size for n sub-groups, in as many dimensions as asked for; zeros where none fits.
  for (size_t count : {size_t{1}, size_t{3}, max_group / w}) {
    size_t local3[3] = {9, 9, 9};
    ASSERT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                      &count, sizeof local3, local3, &size_ret),
              CL_SUCCESS);
    EXPECT_EQ(size_ret, sizeof local3);
    EXPECT_EQ(local3[0] * local3[1] * local3[2], count * w);
    size_t local1 = 0;
    ASSERT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                      &count, sizeof local1, &local1, &size_ret),
              CL_SUCCESS);
    EXPECT_EQ(size_ret, sizeof local1);
    EXPECT_EQ(local1, count * w);
  }
  for (size_t count : {size_t{0}, max_group / w + 1}) {
    size_t local2[2] = {9, 9};
    ASSERT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                      &count, sizeof local2, local2, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(local2[0], 0u);
    EXPECT_EQ(local2[1], 0u);
  }
}

TEST_P(SubGroups, KernelQueryErrors) {
  BuiltProgram program(env, "kernel void k(global uint* r) { r[0] = 1; }", "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("k");
  size_t local[4] = {64, 1, 1, 1}, value = 0;
  // The local size is size_t[1..3], given.
  EXPECT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 0, local,
                                    sizeof value, &value, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, local,
                                    sizeof value, &value, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 3, local,
                                    sizeof value, &value, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(size_t),
                                    nullptr, sizeof value, &value, nullptr),
            CL_INVALID_VALUE);
  // The count is one size_t; the answer holds 1 to 3 size_t.
  EXPECT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 2 * sizeof(size_t),
                                    local, sizeof value, &value, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(size_t),
                                    local, sizeof local, local, nullptr),
            CL_INVALID_VALUE);
  // Too small for the answer, an unknown parameter.
  cl_uint small = 0;
  EXPECT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof small, &small,
                                    nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, sizeof value, &value,
                                    nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelSubGroupInfo(nullptr, env.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof value,
                                    &value, nullptr),
            CL_INVALID_KERNEL);
}

// Every work-item function, in groups of several shapes: full sub-groups, a partial last
// one, three dimensions, and the smaller last group of a non-uniform range.
TEST_P(SubGroups, WorkItemFunctionsDescribeTheSubGroups) {
  BuiltProgram program(env, R"(
    kernel void k(global uint* r) {
      size_t i = get_global_linear_id() * 6;
      r[i + 0] = get_sub_group_size();
      r[i + 1] = get_max_sub_group_size();
      r[i + 2] = get_num_sub_groups();
      r[i + 3] = get_enqueued_num_sub_groups();
      r[i + 4] = get_sub_group_id();
      r[i + 5] = get_sub_group_local_id();
    })",
                       "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("k");
  const size_t w = width();
  struct Shape {
    std::vector<size_t> global, local;
  };
  for (const Shape& shape : {Shape{{800}, {200}}, Shape{{256}, {64}}, Shape{{16, 8, 6}, {8, 4, 3}},
                             Shape{{250}, {64}}, Shape{{7}, {7}}}) {
    size_t items = 1, enqueued = 1;
    for (size_t d = 0; d < shape.global.size(); ++d) {
      items *= shape.global[d];
      enqueued *= shape.local[d];
    }
    DeviceBuffer out(env.context, items * 6 * sizeof(cl_uint));
    ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, static_cast<cl_uint>(shape.global.size()), nullptr,
                                     shape.global.data(), shape.local.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    auto r = read_buffer<cl_uint>(env.queue, out.get(), items * 6);
    int failures = 0;
    // One dimension suffices for the non-uniform case: the last group is global % local.
    for (size_t g = 0; g < items && failures < 5; ++g) {
      size_t group_items = enqueued, linear = g % enqueued;
      if (shape.global.size() == 1) {
        const size_t group_start = g / shape.local[0] * shape.local[0];
        group_items = std::min(shape.local[0], shape.global[0] - group_start);
        linear = g - group_start;
      } else {
        // 3-D: work-item g (x fastest) has local ids g_d % local_d.
        const size_t x = g % shape.global[0], y = g / shape.global[0] % shape.global[1],
                     z = g / (shape.global[0] * shape.global[1]);
        linear = (z % shape.local[2] * shape.local[1] + y % shape.local[1]) * shape.local[0] + x % shape.local[0];
      }
      const size_t id = linear / w;
      const cl_uint want[6] = {cl_uint(std::min(w, group_items - id * w)), cl_uint(std::min(w, enqueued)),
                               cl_uint((group_items + w - 1) / w), cl_uint((enqueued + w - 1) / w), cl_uint(id),
                               cl_uint(linear % w)};
      for (int f = 0; f < 6; ++f) {
        if (r[g * 6 + f] != want[f] && ++failures <= 5)
          ADD_FAILURE() << "work-item " << g << " of " << items << ", function " << f << ": got " << r[g * 6 + f]
                        << ", want " << want[f];
      }
    }
  }
}

// The collective functions of type T over groups of 200 (a partial last sub-group) and of a
// non-uniform range, each checked against the values of its own sub-group.
template <class T>
void check_collectives(const Env& env, size_t w) {
  const std::string t = cl_name<T>();
  BuiltProgram program(env, "kernel void k(global const " + t + "* x, global const uint* lanes, global " + t +
                                "* r, global int* votes) {\n"
                                "  size_t i = get_global_id(0);\n  " + t + " v = x[i];\n"
                                "  uint lane = lanes[get_group_id(0) * get_enqueued_num_sub_groups() + get_sub_group_id()];\n"
                                "  r[i * 10 + 0] = sub_group_broadcast(v, lane);\n"
                                "  r[i * 10 + 1] = sub_group_reduce_add(v);\n"
                                "  r[i * 10 + 2] = sub_group_reduce_min(v);\n"
                                "  r[i * 10 + 3] = sub_group_reduce_max(v);\n"
                                "  r[i * 10 + 4] = sub_group_scan_inclusive_add(v);\n"
                                "  r[i * 10 + 5] = sub_group_scan_inclusive_min(v);\n"
                                "  r[i * 10 + 6] = sub_group_scan_inclusive_max(v);\n"
                                "  r[i * 10 + 7] = sub_group_scan_exclusive_add(v);\n"
                                "  r[i * 10 + 8] = sub_group_scan_exclusive_min(v);\n"
                                "  r[i * 10 + 9] = sub_group_scan_exclusive_max(v);\n"
                                "  votes[i * 2] = sub_group_all(v > (" + t + ")0);\n"
                                "  votes[i * 2 + 1] = sub_group_any(v == (" + t + ")3);\n}\n",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  std::mt19937 rng(static_cast<unsigned>(sizeof(T) * 7 + std::is_signed_v<T>));
  for (auto [global, local] : {std::pair<size_t, size_t>{1000, 200}, {250, 64}}) {
    // Small integers: every sum is exact, even in float.
    std::vector<T> x(global);
    for (size_t i = 0; i < global; ++i) {
      const int v = static_cast<int>(rng() % 64) - (std::is_signed_v<T> || std::is_floating_point_v<T> ? 20 : 0);
      x[i] = static_cast<T>(v);
    }
    // Some sub-groups are all positive, some have a 3.
    for (size_t i = 0; i < global; ++i) {
      if ((i / w) % 3 == 0) x[i] = static_cast<T>(std::abs(static_cast<int>(x[i])) + 5);
    }
    const size_t groups = (global + local - 1) / local, per_group = (local + w - 1) / w;
    std::vector<cl_uint> lanes(groups * per_group);
    for (size_t s = 0; s < lanes.size(); ++s) {
      const size_t group_items = std::min(local, global - s / per_group * local);
      const size_t sub = s % per_group;
      const size_t size = sub * w < group_items ? std::min(w, group_items - sub * w) : 1;
      lanes[s] = static_cast<cl_uint>(rng() % size);
    }
    DeviceBuffer xs(env.context, global * sizeof(T), x.data()), ls(env.context, lanes.size() * sizeof(cl_uint), lanes.data()),
        rs(env.context, global * 10 * sizeof(T)), vs(env.context, global * 2 * sizeof(cl_int));
    set_args(kernel, xs.get(), ls.get(), rs.get(), vs.get());
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
    auto r = read_buffer<T>(env.queue, rs.get(), global * 10);
    auto votes = read_buffer<cl_int>(env.queue, vs.get(), global * 2);
    int failures = 0;
    for (size_t group = 0; group < groups; ++group) {
      const size_t begin = group * local, group_items = std::min(local, global - begin);
      for (size_t sub = 0; sub * w < group_items; ++sub) {
        const size_t first = begin + sub * w, size = std::min(w, group_items - sub * w);
        T sum = 0, lo = x[first], hi = x[first];
        bool all = true, any = false;
        for (size_t k = 0; k < size; ++k) {
          sum = static_cast<T>(sum + x[first + k]);
          lo = std::min(lo, x[first + k]);
          hi = std::max(hi, x[first + k]);
          all = all && x[first + k] > T(0);
          any = any || x[first + k] == T(3);
        }
        T run_sum = 0, run_lo = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                                       : std::numeric_limits<T>::max();
        T run_hi = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::lowest();
        const T lane_value = x[first + lanes[group * per_group + sub]];
        for (size_t k = 0; k < size; ++k) {
          const size_t i = first + k;
          const T exclusive[3] = {run_sum, run_lo, run_hi};
          run_sum = static_cast<T>(run_sum + x[i]);
          run_lo = std::min(run_lo, x[i]);
          run_hi = std::max(run_hi, x[i]);
          const T want[10] = {lane_value, sum,    lo,           hi,           run_sum,
                              run_lo,     run_hi, exclusive[0], exclusive[1], exclusive[2]};
          static const char* names[10] = {"broadcast", "reduce_add", "reduce_min", "reduce_max", "scan_inclusive_add",
                                          "scan_inclusive_min", "scan_inclusive_max", "scan_exclusive_add",
                                          "scan_exclusive_min", "scan_exclusive_max"};
          for (int f = 0; f < 10; ++f) {
            if (r[i * 10 + f] != want[f] && ++failures <= 8)
              ADD_FAILURE() << t << " sub_group_" << names[f] << " at work-item " << i << " (group " << group
                            << ", sub-group " << sub << " of size " << size << "): got " << r[i * 10 + f]
                            << ", want " << want[f];
          }
          if ((votes[i * 2] != 0) != all && ++failures <= 8) ADD_FAILURE() << t << " sub_group_all at " << i;
          if ((votes[i * 2 + 1] != 0) != any && ++failures <= 8) ADD_FAILURE() << t << " sub_group_any at " << i;
        }
      }
    }
  }
}

TEST_P(SubGroups, CollectivesOfInt) { check_collectives<cl_int>(env, width()); }
TEST_P(SubGroups, CollectivesOfUint) { check_collectives<cl_uint>(env, width()); }
TEST_P(SubGroups, CollectivesOfLong) { check_collectives<cl_long>(env, width()); }
TEST_P(SubGroups, CollectivesOfUlong) { check_collectives<cl_ulong>(env, width()); }
TEST_P(SubGroups, CollectivesOfFloat) { check_collectives<cl_float>(env, width()); }
TEST_P(SubGroups, CollectivesOfDouble) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_collectives<cl_double>(env, width());
}

// cl_khr_subgroup_shuffle, _shuffle_relative and _rotate for type T, in groups of 200 (a
// partial last sub-group of 200 % width), and a shuffle that only even lanes reach.
template <class T>
void check_shuffles(const Env& env, size_t w) {
  const std::string t = cl_name<T>();
  BuiltProgram program(env, "kernel void k(global const " + t + "* x, global " + t + "* r) {\n"
                                "  size_t i = get_global_id(0);\n  " + t + " v = x[i];\n"
                                "  uint lane = get_sub_group_local_id(), size = get_sub_group_size();\n"
                                "  r[i * 8 + 0] = sub_group_shuffle(v, (lane * 7 + 3) % size);\n"
                                "  r[i * 8 + 1] = sub_group_shuffle_xor(v, 5u);\n"
                                "  r[i * 8 + 2] = sub_group_shuffle_up(v, 3u);\n"
                                "  r[i * 8 + 3] = sub_group_shuffle_down(v, 2u);\n"
                                "  r[i * 8 + 4] = sub_group_rotate(v, 5);\n"
                                "  r[i * 8 + 5] = sub_group_rotate(v, -3);\n"
                                "  r[i * 8 + 6] = sub_group_clustered_rotate(v, 3, 4u);\n"
                                "  if (lane % 2 == 0) r[i * 8 + 7] = sub_group_shuffle(v, lane ^ 2u);\n}\n",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  const size_t global = 1000, local = 200;
  std::vector<T> x(global);
  for (size_t i = 0; i < global; ++i) x[i] = static_cast<T>(i * 37 % 101);
  DeviceBuffer xs(env.context, global * sizeof(T), x.data()), rs(env.context, global * 8 * sizeof(T));
  set_args(kernel, xs.get(), rs.get());
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  auto r = read_buffer<T>(env.queue, rs.get(), global * 8);
  int failures = 0;
  for (size_t i = 0; i < global; ++i) {
    const size_t lid = i % local, lane = lid % w, first = i - lane, size = std::min(w, local - lid / w * w);
    auto at = [&](long l) { return x[first + static_cast<size_t>(l)]; };
    const long s = static_cast<long>(size), ln = static_cast<long>(lane);
    struct Check {
      bool defined;
      T want;
    } checks[8] = {{true, at((ln * 7 + 3) % s)},
                   {(lane ^ 5) < size, (lane ^ 5) < size ? at(ln ^ 5) : T()},
                   {lane >= 3, lane >= 3 ? at(ln - 3) : T()},
                   {lane + 2 < size, lane + 2 < size ? at(ln + 2) : T()},
                   {true, at(((ln + 5) % s + s) % s)},
                   {true, at(((ln - 3) % s + s) % s)},
                   {size % 4 == 0, size % 4 == 0 ? at((ln & ~3L) + ((ln + 3) & 3)) : T()},
                   {lane % 2 == 0 && (lane ^ 2) < size, (lane ^ 2) < size ? at(ln ^ 2) : T()}};
    static const char* names[8] = {"shuffle",        "shuffle_xor",      "shuffle_up",
                                   "shuffle_down",   "rotate(5)",        "rotate(-3)",
                                   "clustered_rotate", "shuffle in divergent code"};
    for (int f = 0; f < 8; ++f) {
      if (checks[f].defined && r[i * 8 + f] != checks[f].want && ++failures <= 8)
        ADD_FAILURE() << t << " sub_group_" << names[f] << " at work-item " << i << " (lane " << lane << " of "
                      << size << "): got " << +r[i * 8 + f] << ", want " << +checks[f].want;
    }
  }
}

TEST_P(SubGroups, ShufflesAndRotatesOfInt) { check_shuffles<cl_int>(env, width()); }
TEST_P(SubGroups, ShufflesAndRotatesOfUchar) { check_shuffles<cl_uchar>(env, width()); }
TEST_P(SubGroups, ShufflesAndRotatesOfLong) { check_shuffles<cl_long>(env, width()); }
TEST_P(SubGroups, ShufflesAndRotatesOfDouble) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_shuffles<cl_double>(env, width());
}

// cl_khr_subgroup_extended_types: the narrow integer types (exclusive min/max scans start
// from the narrow type's identity) and vector broadcasts.
TEST_P(SubGroups, CollectivesOfChar) { check_collectives<cl_char>(env, width()); }
TEST_P(SubGroups, CollectivesOfUshort) { check_collectives<cl_ushort>(env, width()); }

TEST_P(SubGroups, VectorBroadcasts) {
  BuiltProgram program(env, R"(
    kernel void k(global const int4* x, global int4* r, global const short3* y, global short3* q) {
      size_t i = get_global_id(0);
      uint last = get_max_sub_group_size() - 1;
      r[i] = sub_group_broadcast(x[i], min(1u, last));
      vstore3(sub_group_broadcast(vload3(i, (global const short*)y), min(2u, last)), i, (global short*)q);
    })",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 400, local = 200, w = width();
  std::vector<cl_int> x(global * 4);
  std::vector<cl_short> y(global * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<cl_int>(i * 13 + 1);
  for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<cl_short>(i * 7 - 500);
  DeviceBuffer xs(env.context, x.size() * 4, x.data()), rs(env.context, x.size() * 4),
      ys(env.context, y.size() * 2, y.data()), qs(env.context, y.size() * 2);
  cl_kernel kernel = program.kernel("k");
  set_args(kernel, xs.get(), rs.get(), ys.get(), qs.get());
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  auto r = read_buffer<cl_int>(env.queue, rs.get(), x.size());
  auto q = read_buffer<cl_short>(env.queue, qs.get(), y.size());
  int failures = 0;
  for (size_t i = 0; i < global; ++i) {
    const size_t first = i - i % local % w, one = std::min<size_t>(1, w - 1), two = std::min<size_t>(2, w - 1);
    for (size_t c = 0; c < 4; ++c) {
      if (r[i * 4 + c] != x[(first + one) * 4 + c] && ++failures <= 5) ADD_FAILURE() << "int4 at " << i << "." << c;
    }
    for (size_t c = 0; c < 3; ++c) {
      if (q[i * 3 + c] != y[(first + two) * 3 + c] && ++failures <= 5) ADD_FAILURE() << "short3 at " << i << "." << c;
    }
  }
}

// Whether work-item i takes part in the non-uniform tests' branch: about four in five, in an
// irregular pattern, so that each sub-group of more than one work-item has some lanes out.
bool takes_part(size_t i) { return (i * 7 + i / 3) % 5 != 0; }
const char* const kTakesPart = "((i * 7 + i / 3) % 5 != 0)";


// cl_khr_subgroup_non_uniform_vote and cl_khr_subgroup_ballot, called by the work-items that
// take part (takes_part) in each sub-group.
TEST_P(SubGroups, VotesAndBallotsAmongTheLanesThatCallThem) {
  if (!lists_extension(env.device, "cl_khr_subgroup_ballot")) GTEST_SKIP() << "no cl_khr_subgroup_ballot";
  BuiltProgram program(env, std::string(R"(
    kernel void k(global const int* x, global uint* r) {
      size_t i = get_global_id(0);
      for (int f = 0; f < 12; ++f) r[i * 12 + f] = 0xdeadu;
      if )") + kTakesPart + R"( {
        int v = x[i];
        uint4 ballot = sub_group_ballot(v > 10);
        r[i * 12 + 0] = ballot.x;
        r[i * 12 + 1] = sub_group_elect();
        r[i * 12 + 2] = sub_group_non_uniform_all(v >= 0);
        r[i * 12 + 3] = sub_group_non_uniform_any(v == 7);
        r[i * 12 + 4] = sub_group_non_uniform_all_equal(v / 1000);
        r[i * 12 + 5] = sub_group_broadcast_first(v);
        r[i * 12 + 6] = sub_group_ballot_bit_count(ballot);
        r[i * 12 + 7] = sub_group_ballot_inclusive_scan(ballot);
        r[i * 12 + 8] = sub_group_ballot_exclusive_scan(ballot);
        r[i * 12 + 9] = sub_group_inverse_ballot(ballot);
        r[i * 12 + 10] = get_sub_group_lt_mask().x;
        r[i * 12 + 11] = sub_group_non_uniform_broadcast(v, sub_group_ballot_find_msb(sub_group_ballot(1)));
      }
    })",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 400, local = 200, w = width();
  std::vector<cl_int> x(global);
  for (size_t i = 0; i < global; ++i) x[i] = static_cast<cl_int>(i * 29 % 23);
  auto r = run_on_ints<cl_uint>(program.kernel("k"), x, 12, local);
  int failures = 0, checked = 0;
  for (size_t i = 0; i < global; ++i) {
    const size_t lid = i % local, lane = lid % w, first = i - lane, size = std::min(w, local - lid / w * w);
    if (!takes_part(i)) {
      for (int f = 0; f < 12; ++f) EXPECT_EQ(r[i * 12 + f], 0xdeadu);
      continue;
    }
    ++checked;
    cl_uint ballot = 0, count = 0, below = 0;
    bool all = true, any = false;
    size_t first_active = size, last_active = 0;
    for (size_t l = 0; l < size; ++l) {
      if (!takes_part(first + l)) continue;
      first_active = std::min(first_active, l);
      last_active = l;
      const cl_int v = x[first + l];
      if (v > 10) ballot |= 1u << l;
      all = all && v >= 0;
      any = any || v == 7;
    }
    for (size_t l = 0; l < size; ++l) {
      if (ballot >> l & 1) {
        ++count;
        if (l < lane) ++below;
      }
    }
    const cl_uint lt_mask = static_cast<cl_uint>((1ull << lane) - 1);
    const cl_uint want[12] = {ballot, lane == first_active, all, any, 1, cl_uint(x[first + first_active]), count,
                              below + (ballot >> lane & 1), below, ballot >> lane & 1, lt_mask,
                              cl_uint(x[first + last_active])};
    for (int f = 0; f < 12; ++f) {
      if (r[i * 12 + f] != want[f] && ++failures <= 8)
        ADD_FAILURE() << "function " << f << " at work-item " << i << " (lane " << lane << " of " << size
                      << "): got " << r[i * 12 + f] << ", want " << want[f];
    }
  }
  EXPECT_GT(checked, 300);
}

// The same call on both sides of a branch (the CTS's pattern): each side's work-items take
// part among themselves, so the two halves of a sub-group get different answers.
TEST_P(SubGroups, IdenticalCallsOnBothSidesOfABranchStayApart) {
  if (!lists_extension(env.device, "cl_khr_subgroup_ballot") ||
      !lists_extension(env.device, "cl_khr_subgroup_non_uniform_arithmetic")) {
    GTEST_SKIP() << "no cl_khr_subgroup_ballot or _non_uniform_arithmetic";
  }
  BuiltProgram program(env, R"(
    kernel void k(global const int* x, global int* r) {
      size_t i = get_global_id(0);
      int v = x[i];
      if (get_sub_group_local_id() < get_sub_group_size() / 2) {
        r[i * 2] = sub_group_broadcast_first(v);
        r[i * 2 + 1] = sub_group_non_uniform_reduce_add(v);
      } else {
        r[i * 2] = sub_group_broadcast_first(v);
        r[i * 2 + 1] = sub_group_non_uniform_reduce_add(v);
      }
    })",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 400, local = 200, w = width();
  std::vector<cl_int> x(global);
  for (size_t i = 0; i < global; ++i) x[i] = static_cast<cl_int>(i * 17 % 29);
  auto r = run_on_ints<cl_int>(program.kernel("k"), x, 2, local);
  int failures = 0;
  for (size_t i = 0; i < global; ++i) {
    const size_t lid = i % local, lane = lid % w, first = i - lane, size = std::min(w, local - lid / w * w);
    const size_t begin = lane < size / 2 ? 0 : size / 2, end = lane < size / 2 ? size / 2 : size;
    cl_int sum = 0;
    for (size_t l = begin; l < end; ++l) sum += x[first + l];
    if ((r[i * 2] != x[first + begin] || r[i * 2 + 1] != sum) && ++failures <= 8)
      ADD_FAILURE() << "work-item " << i << " (lane " << lane << " of " << size << "): got " << r[i * 2] << " and "
                    << r[i * 2 + 1] << ", want " << x[first + begin] << " and " << sum;
  }
}

// cl_khr_subgroup_non_uniform_arithmetic and cl_khr_subgroup_clustered_reduce of type T: each
// operation's reduction and scans among the work-items that take part, and its clustered
// reduction of every cluster size the sub-groups allow, against references per sub-group.
template <class T>
struct NonUniformOp {
  const char* name;
  T identity;
  T (*apply)(T, T);
};

template <class T>
std::vector<NonUniformOp<T>> non_uniform_ops() {
  // Integer sums and products wrap as the type does (computed unsigned: no signed overflow).
  using U = typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>, std::type_identity<T>>::type;
  std::vector<NonUniformOp<T>> ops = {
      {"add", T(0), [](T a, T b) { return static_cast<T>(static_cast<U>(a) + static_cast<U>(b)); }},
      {"mul", T(1), [](T a, T b) { return static_cast<T>(static_cast<U>(a) * static_cast<U>(b)); }},
      {"min", std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max(),
       [](T a, T b) { return std::min(a, b); }},
      {"max", std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest(),
       [](T a, T b) { return std::max(a, b); }}};
  if constexpr (std::is_integral_v<T>) {
    ops.push_back({"and", static_cast<T>(~T(0)), [](T a, T b) { return static_cast<T>(a & b); }});
    ops.push_back({"or", T(0), [](T a, T b) { return static_cast<T>(a | b); }});
    ops.push_back({"xor", T(0), [](T a, T b) { return static_cast<T>(a ^ b); }});
  }
  return ops;
}

template <class T>
void check_non_uniform_arithmetic(const Env& env, size_t w) {
  if (!lists_extension(env.device, "cl_khr_subgroup_non_uniform_arithmetic") ||
      !lists_extension(env.device, "cl_khr_subgroup_clustered_reduce")) {
    GTEST_SKIP() << "no cl_khr_subgroup_non_uniform_arithmetic or _clustered_reduce";
  }
  const std::string t = cl_name<T>();
  const auto ops = non_uniform_ops<T>();
  std::vector<size_t> clusters;
  for (size_t c = 1; c <= w; c *= 2) clusters.push_back(c);
  const size_t per_item = ops.size() * (3 + clusters.size());
  std::string body;
  size_t f = 0;
  for (const auto& op : ops) {
    // Products take the second input, of factors -1, 1 and 2, so that they stay exact.
    const std::string v = op.name == std::string("mul") ? "m[i]" : "x[i]";
    for (const char* form : {"reduce", "scan_inclusive", "scan_exclusive"}) {
      body += "    r[i * N + " + std::to_string(f++) + "] = sub_group_non_uniform_" + form + "_" + op.name + "(" + v +
              ");\n";
    }
    for (size_t c : clusters) {
      body += "    r[i * N + " + std::to_string(f++) + "] = sub_group_clustered_reduce_" + op.name + "(" + v + ", " +
              std::to_string(c) + "u);\n";
    }
  }
  BuiltProgram program(env, "#define N " + std::to_string(per_item) + "\nkernel void k(global const " + t +
                                "* x, global const " + t + "* m, global " + t +
                                "* r) {\n  size_t i = get_global_id(0);\n  if " + kTakesPart + " {\n" + body +
                                "  }\n}\n",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 600, local = 200;
  std::vector<T> x(global), m(global);
  std::mt19937 rng(static_cast<unsigned>(sizeof(T) * 3 + std::is_signed_v<T>));
  const bool has_negatives = std::is_signed_v<T> || std::is_floating_point_v<T>;
  for (size_t i = 0; i < global; ++i) {
    x[i] = static_cast<T>(static_cast<int>(rng() % 100) - (has_negatives ? 40 : 0));
    const int factors[3] = {has_negatives ? -1 : 3, 1, 2};
    m[i] = static_cast<T>(factors[rng() % 3]);
  }
  DeviceBuffer xs(env.context, global * sizeof(T), x.data()), ms(env.context, global * sizeof(T), m.data()),
      rs(env.context, global * per_item * sizeof(T));
  cl_kernel kernel = program.kernel("k");
  set_args(kernel, xs.get(), ms.get(), rs.get());
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  auto r = read_buffer<T>(env.queue, rs.get(), global * per_item);
  int failures = 0;
  for (size_t i = 0; i < global; ++i) {
    if (!takes_part(i)) continue;
    const size_t lid = i % local, lane = lid % w, first = i - lane, size = std::min(w, local - lid / w * w);
    size_t f = 0;
    for (const auto& op : ops) {
      const std::vector<T>& in = op.name == std::string("mul") ? m : x;
      T all = op.identity, before = op.identity;
      for (size_t l = 0; l < size; ++l) {
        if (!takes_part(first + l)) continue;
        all = op.apply(all, in[first + l]);
        if (l < lane) before = op.apply(before, in[first + l]);
      }
      std::vector<std::pair<std::string, T>> want = {
          {"reduce", all}, {"scan_inclusive", op.apply(before, in[i])}, {"scan_exclusive", before}};
      for (size_t c : clusters) {
        T cluster = op.identity;
        for (size_t l = lane / c * c; l < std::min(size, lane / c * c + c); ++l) {
          if (takes_part(first + l)) cluster = op.apply(cluster, in[first + l]);
        }
        want.push_back({"clustered_reduce(" + std::to_string(c) + ")", cluster});
      }
      for (const auto& [form, value] : want) {
        const T got = r[i * per_item + f++];
        if (got != value && ++failures <= 8)
          ADD_FAILURE() << t << " " << form << "_" << op.name << " at work-item " << i << " (lane " << lane << " of "
                        << size << "): got " << +got << ", want " << +value;
      }
    }
  }
}

TEST_P(SubGroups, NonUniformArithmeticOfInt) { check_non_uniform_arithmetic<cl_int>(env, width()); }
TEST_P(SubGroups, NonUniformArithmeticOfUint) { check_non_uniform_arithmetic<cl_uint>(env, width()); }
TEST_P(SubGroups, NonUniformArithmeticOfChar) { check_non_uniform_arithmetic<cl_char>(env, width()); }
TEST_P(SubGroups, NonUniformArithmeticOfUshort) { check_non_uniform_arithmetic<cl_ushort>(env, width()); }
TEST_P(SubGroups, NonUniformArithmeticOfLong) { check_non_uniform_arithmetic<cl_long>(env, width()); }
TEST_P(SubGroups, NonUniformArithmeticOfUlong) { check_non_uniform_arithmetic<cl_ulong>(env, width()); }
TEST_P(SubGroups, NonUniformArithmeticOfFloat) { check_non_uniform_arithmetic<cl_float>(env, width()); }
TEST_P(SubGroups, NonUniformArithmeticOfDouble) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_non_uniform_arithmetic<cl_double>(env, width());
}

// The logical forms: predicates combined as booleans (any non-zero value is true).
TEST_P(SubGroups, NonUniformLogicalOperations) {
  if (!lists_extension(env.device, "cl_khr_subgroup_non_uniform_arithmetic")) GTEST_SKIP();
  BuiltProgram program(env, std::string(R"(
    kernel void k(global const int* x, global int* r) {
      size_t i = get_global_id(0);
      if )") + kTakesPart + R"( {
        int p = x[i];
        r[i * 12 + 0] = sub_group_non_uniform_reduce_logical_and(p);
        r[i * 12 + 1] = sub_group_non_uniform_reduce_logical_or(p);
        r[i * 12 + 2] = sub_group_non_uniform_reduce_logical_xor(p);
        r[i * 12 + 3] = sub_group_non_uniform_scan_inclusive_logical_and(p);
        r[i * 12 + 4] = sub_group_non_uniform_scan_inclusive_logical_or(p);
        r[i * 12 + 5] = sub_group_non_uniform_scan_inclusive_logical_xor(p);
        r[i * 12 + 6] = sub_group_non_uniform_scan_exclusive_logical_and(p);
        r[i * 12 + 7] = sub_group_non_uniform_scan_exclusive_logical_or(p);
        r[i * 12 + 8] = sub_group_non_uniform_scan_exclusive_logical_xor(p);
        r[i * 12 + 9] = sub_group_clustered_reduce_logical_and(p, 1u);
        r[i * 12 + 10] = sub_group_clustered_reduce_logical_or(p, 1u);
        r[i * 12 + 11] = sub_group_clustered_reduce_logical_xor(p, 1u);
      }
    })",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 400, local = 200, w = width();
  std::vector<cl_int> x(global);
  // Mostly true (as 1, 7 or -3), so that "and" varies between sub-groups too.
  for (size_t i = 0; i < global; ++i) x[i] = (i * 13) % 17 == 0 ? 0 : static_cast<cl_int>(i % 3 == 0 ? -3 : 1 + i % 7);
  auto r = run_on_ints<cl_int>(program.kernel("k"), x, 12, local);
  int failures = 0;
  for (size_t i = 0; i < global; ++i) {
    if (!takes_part(i)) continue;
    const size_t lid = i % local, lane = lid % w, first = i - lane, size = std::min(w, local - lid / w * w);
    bool all_and = true, all_or = false, all_xor = false, before_and = true, before_or = false, before_xor = false;
    for (size_t l = 0; l < size; ++l) {
      if (!takes_part(first + l)) continue;
      const bool p = x[first + l] != 0;
      all_and = all_and && p;
      all_or = all_or || p;
      all_xor = all_xor != p;
      if (l < lane) {
        before_and = before_and && p;
        before_or = before_or || p;
        before_xor = before_xor != p;
      }
    }
    const bool p = x[i] != 0;
    const bool want[12] = {all_and, all_or, all_xor, before_and && p, before_or || p, before_xor != p,
                           before_and, before_or, before_xor, p, p, p};
    for (int f = 0; f < 12; ++f) {
      if (r[i * 12 + f] != cl_int(want[f]) && ++failures <= 8)
        ADD_FAILURE() << "function " << f << " at work-item " << i << ": got " << r[i * 12 + f] << ", want " << want[f];
    }
  }
}

TEST_P(SubGroups, TheExtensionsAreListedWithTheirMacros) {
  // The four OpenCL 3.1 requires; cl_khr_subgroups exactly where sub-groups make independent
  // forward progress (the extension promises it).
  std::vector<std::string> names = {"cl_khr_subgroup_extended_types", "cl_khr_subgroup_shuffle",
                                    "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_rotate"};
  const bool progress =
      info_value<cl_bool>(clGetDeviceInfo, env.device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS);
  EXPECT_EQ(lists_extension(env.device, "cl_khr_subgroups"), progress);
  for (const char* optional : {"cl_khr_subgroups", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
                               "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_clustered_reduce"}) {
    if (lists_extension(env.device, optional)) names.push_back(optional);
  }
  std::string checks;
  for (const std::string& name : names) {
    EXPECT_TRUE(lists_extension(env.device, name)) << name;
    checks += std::string("#ifndef ") + name + "\n#error " + name + " is not defined\n#endif\n";
  }
  BuiltProgram program(env, checks + "kernel void k(global int* r) { r[0] = sub_group_shuffle(1, 0u); }",
                       "-cl-std=CL3.0");
  EXPECT_TRUE(program);
}

// Only some sub-groups of each group take the branch: a sub-group barrier and a reduction
// there wait for their own sub-group alone (a work-group barrier would never return), and
// the barrier orders local memory within the sub-group.
TEST_P(SubGroups, SubGroupsThatDivergeFromTheirGroupSynchroniseAlone) {
  BuiltProgram program(env, R"(
    kernel void k(global int* r, local int* scratch) {
      uint lid = get_local_id(0), lane = get_sub_group_local_id(), size = get_sub_group_size();
      int v = -1;
      if (get_sub_group_id() % 2 == 1) {
        scratch[lid] = (int)lid * 3;
        sub_group_barrier(CLK_LOCAL_MEM_FENCE);
        uint partner = lid - lane + (lane + 1) % size;
        v = scratch[partner] + sub_group_reduce_add(1) * 100000;
        sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
      }
      r[get_global_id(0)] = v;
    })",
                       "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("k");
  const size_t w = width(), global = 600, local = 200;
  DeviceBuffer out(env.context, global * sizeof(cl_int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, local * sizeof(cl_int), nullptr), CL_SUCCESS);
  run(kernel, global, local);
  auto r = read_buffer<cl_int>(env.queue, out.get(), global);
  int failures = 0;
  for (size_t i = 0; i < global && failures < 5; ++i) {
    const size_t lid = i % local, sub = lid / w, lane = lid % w, size = std::min(w, local - sub * w);
    const cl_int want = sub % 2 == 1 ? cl_int((lid - lane + (lane + 1) % size) * 3 + size * 100000) : -1;
    if (r[i] != want && ++failures) ADD_FAILURE() << "work-item " << i << ": got " << r[i] << ", want " << want;
  }
}

// SPIR-V's SubgroupsPerWorkgroup (SubgroupDispatch): the kernel reports the count, a local
// size of another count is refused, and without one the launch takes that many sub-groups.
TEST_P(SubGroups, SpirvSubgroupsPerWorkgroupIsTheKernelsCompiledCount) {
  if (!lists_spirv(env.device)) GTEST_SKIP() << "no SPIR-V";
  const std::string il = spirv_from_assembly(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability SubgroupDispatch
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %local_size
               OpExecutionMode %k SubgroupsPerWorkgroup 3
               OpDecorate %local_size BuiltIn WorkgroupSize
               OpDecorate %local_size Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %ulong_0 = OpConstant %ulong 0
    %v3ulong = OpTypeVector %ulong 3
 %ptr_input = OpTypePointer Input %v3ulong
 %local_size = OpVariable %ptr_input Input
        %ptr = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %ptr
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
       %size = OpLoad %v3ulong %local_size Aligned 32
          %x = OpCompositeExtract %ulong %size 0
               OpStore %out %x Aligned 8
               OpReturn
               OpFunctionEnd
)", "spv1.1");
  ASSERT_FALSE(il.empty());
  BuiltProgram program = BuiltProgram::from_il(env, il);
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  size_t count = 0;
  ASSERT_EQ(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, nullptr, sizeof count,
                                    &count, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(count, 3u);
  const size_t w = width();
  DeviceBuffer out(env.context, sizeof(cl_ulong));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  const size_t wrong = 3 * w + w, right = 3 * w, global = 6 * w;
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &wrong, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_INVALID_WORK_GROUP_SIZE);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &right, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<cl_ulong>(env.queue, out.get(), 1)[0], 3 * w);
}

// A device without sub-groups says so everywhere, and its kernels refuse the queries.
class NoSubGroups : public DeviceTest {};

TEST_P(NoSubGroups, ADeviceWithoutThemRefusesTheKernelQueries) {
  if (max_num_sub_groups(env.device) != 0) GTEST_SKIP() << "the device has sub-groups";
  EXPECT_FALSE(lists_feature(env.device, "__opencl_c_subgroups"));
  EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, env.device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS),
            cl_bool(CL_FALSE));
  BuiltProgram program(env, "kernel void k(global uint* r) { r[0] = 1; }");
  size_t local = 64, value = 0;
  EXPECT_EQ(clGetKernelSubGroupInfo(program.kernel("k"), env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof local, &local, sizeof value, &value, nullptr),
            CL_INVALID_OPERATION);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, SubGroups, ::testing::ValuesIn(all_devices()), device_name);
INSTANTIATE_TEST_SUITE_P(EveryDevice, NoSubGroups, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// Work-group collective functions (OpenCL C 3.0 __opencl_c_work_group_collective_functions):
// all, any, broadcast (1-D, 2-D, 3-D) and reduce/scan add/min/max of every type, in groups of
// many shapes (one work-item, part of a warp, several warps with a partial last one, 2-D and
// 3-D, the device's largest, the smaller last group of a non-uniform range), each checked
// against a reference computed per group. Two calls in a row check that a call's results
// survive the next one.
#include <algorithm>
#include <limits>
#include <random>

#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {


class WorkGroupCollectives : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!lists_feature(env.device, "__opencl_c_work_group_collective_functions")) {
      GTEST_SKIP() << "no __opencl_c_work_group_collective_functions";
    }
  }
};

struct Shape {
  std::vector<size_t> global, local;
};

// The global linear ids of each group's work-items, in local linear order.
std::vector<std::vector<size_t>> groups_of(const Shape& shape) {
  const size_t dims = shape.global.size();
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  for (size_t d = 0; d < dims; ++d) {
    global[d] = shape.global[d];
    local[d] = shape.local[d];
  }
  std::vector<std::vector<size_t>> groups;
  for (size_t gz = 0; gz < global[2]; gz += local[2]) {
    for (size_t gy = 0; gy < global[1]; gy += local[1]) {
      for (size_t gx = 0; gx < global[0]; gx += local[0]) {
        std::vector<size_t> members;
        for (size_t z = gz; z < std::min(global[2], gz + local[2]); ++z) {
          for (size_t y = gy; y < std::min(global[1], gy + local[1]); ++y) {
            for (size_t x = gx; x < std::min(global[0], gx + local[0]); ++x) {
              members.push_back((z * global[1] + y) * global[0] + x);
            }
          }
        }
        groups.push_back(members);
      }
    }
  }
  return groups;
}

constexpr int kResults = 13;

template <class T>
void check_collectives(const Env& env, const std::vector<Shape>& shapes) {
  const std::string t = cl_name<T>();
  // The broadcast source is the work-item at local id (bx, by, bz) in as many dimensions as
  // the launch has; the second reduction of each kind runs right after the first.
  const std::string source = "kernel void k(global const " + t + "* x, global " + t +
                             "* r, global int* votes, uint bx, uint by, uint bz) {\n"
                             "  size_t g = get_global_linear_id();\n  " + t + " v = x[g];\n"
                             "  " + t + " b;\n"
                             "  if (get_work_dim() == 1) b = work_group_broadcast(v, bx);\n"
                             "  else if (get_work_dim() == 2) b = work_group_broadcast(v, bx, by);\n"
                             "  else b = work_group_broadcast(v, bx, by, bz);\n"
                             "  r[g * 13 + 0] = b;\n"
                             "  r[g * 13 + 1] = work_group_reduce_add(v);\n"
                             "  r[g * 13 + 2] = work_group_reduce_min(v);\n"
                             "  r[g * 13 + 3] = work_group_reduce_max(v);\n"
                             "  r[g * 13 + 4] = work_group_scan_inclusive_add(v);\n"
                             "  r[g * 13 + 5] = work_group_scan_inclusive_min(v);\n"
                             "  r[g * 13 + 6] = work_group_scan_inclusive_max(v);\n"
                             "  r[g * 13 + 7] = work_group_scan_exclusive_add(v);\n"
                             "  r[g * 13 + 8] = work_group_scan_exclusive_min(v);\n"
                             "  r[g * 13 + 9] = work_group_scan_exclusive_max(v);\n"
                             "  " + t + " first = work_group_reduce_add(v);\n"
                             "  " + t + " second = work_group_reduce_add(v + (" + t + ")1);\n"
                             "  r[g * 13 + 10] = first;\n"
                             "  r[g * 13 + 11] = second;\n"
                             "  r[g * 13 + 12] = work_group_reduce_max(v * (" + t + ")2);\n"
                             "  votes[g * 2] = work_group_all(v > (" + t + ")0);\n"
                             "  votes[g * 2 + 1] = work_group_any(v == (" + t + ")3);\n}\n";
  BuiltProgram program(env, source, "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  std::mt19937 rng(static_cast<unsigned>(sizeof(T) * 11 + std::is_signed_v<T>));
  const bool has_negatives = std::is_signed_v<T> || std::is_floating_point_v<T>;
  for (const Shape& shape : shapes) {
    size_t items = 1;
    for (size_t g : shape.global) items *= g;
    const auto groups = groups_of(shape);
    // Small integers: every sum is exact, even in float. Some groups are all positive,
    // some contain a 3.
    std::vector<T> x(items);
    for (size_t i = 0; i < items; ++i) x[i] = static_cast<T>(static_cast<int>(rng() % 60) - (has_negatives ? 20 : 0));
    for (size_t n = 0; n < groups.size(); ++n) {
      for (size_t i : groups[n]) {
        if (n % 3 == 0 && x[i] <= T(0)) x[i] = static_cast<T>(5);
        if (n % 3 == 0 && x[i] == T(3)) x[i] = static_cast<T>(4);
      }
    }
    // A source every group has, the smaller last group of a non-uniform range included.
    cl_uint b[3] = {0, 0, 0};
    for (size_t d = 0; d < shape.local.size(); ++d) {
      const size_t last = shape.global[d] % shape.local[d];
      b[d] = static_cast<cl_uint>(rng() % (last ? last : shape.local[d]));
    }
    DeviceBuffer xs(env.context, items * sizeof(T), x.data()), rs(env.context, items * kResults * sizeof(T)),
        vs(env.context, items * 2 * sizeof(cl_int));
    set_args(kernel, xs.get(), rs.get(), vs.get(), b[0], b[1], b[2]);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, static_cast<cl_uint>(shape.global.size()), nullptr,
                                     shape.global.data(), shape.local.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    auto r = read_buffer<T>(env.queue, rs.get(), items * kResults);
    auto votes = read_buffer<cl_int>(env.queue, vs.get(), items * 2);
    int failures = 0;
    for (size_t n = 0; n < groups.size(); ++n) {
      const auto& members = groups[n];
      // The source's local linear id, in this group's own extent (a smaller last group of a
      // 1-D range; the 2-D and 3-D shapes divide evenly).
      const size_t extent_x = shape.global.size() == 1 ? members.size() : shape.local[0];
      const size_t extent_y = shape.global.size() > 1 ? shape.local[1] : 1;
      const size_t source = (b[2] * extent_y + b[1]) * extent_x + b[0];
      ASSERT_LT(source, members.size());
      T sum = 0, lo = x[members[0]], hi = x[members[0]], sum_plus_one = 0, twice_hi = static_cast<T>(x[members[0]] * 2);
      bool all = true, any = false;
      for (size_t i : members) {
        sum = static_cast<T>(sum + x[i]);
        sum_plus_one = static_cast<T>(sum_plus_one + static_cast<T>(x[i] + 1));
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
        twice_hi = std::max(twice_hi, static_cast<T>(x[i] * 2));
        all = all && x[i] > T(0);
        any = any || x[i] == T(3);
      }
      T run_sum = 0, run_lo = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                                     : std::numeric_limits<T>::max();
      T run_hi = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                      : std::numeric_limits<T>::lowest();
      for (size_t i : members) {
        const T exclusive[3] = {run_sum, run_lo, run_hi};
        run_sum = static_cast<T>(run_sum + x[i]);
        run_lo = std::min(run_lo, x[i]);
        run_hi = std::max(run_hi, x[i]);
        const T want[kResults] = {x[members[source]], sum,         lo,          hi,           run_sum,
                                  run_lo,             run_hi,      exclusive[0], exclusive[1], exclusive[2],
                                  sum,                sum_plus_one, twice_hi};
        static const char* names[kResults] = {"broadcast",          "reduce_add",         "reduce_min",
                                              "reduce_max",         "scan_inclusive_add", "scan_inclusive_min",
                                              "scan_inclusive_max", "scan_exclusive_add", "scan_exclusive_min",
                                              "scan_exclusive_max", "first reduce_add",   "second reduce_add",
                                              "third (reduce_max)"};
        for (int f = 0; f < kResults; ++f) {
          if (r[i * kResults + f] != want[f] && ++failures <= 8)
            ADD_FAILURE() << t << " work_group_" << names[f] << " at work-item " << i << " (group " << n << " of "
                          << members.size() << " in a " << shape.global.size() << "-D launch): got "
                          << r[i * kResults + f] << ", want " << want[f];
        }
        if ((votes[i * 2] != 0) != all && ++failures <= 8) ADD_FAILURE() << t << " work_group_all at " << i;
        if ((votes[i * 2 + 1] != 0) != any && ++failures <= 8) ADD_FAILURE() << t << " work_group_any at " << i;
      }
    }
  }
}

// The largest 1-D group the kernel allows, and the shapes every test runs.
std::vector<Shape> shapes_for(const Env& env) {
  BuiltProgram probe(env, "kernel void k(global int* r) { r[0] = work_group_reduce_add(1); }", "-cl-std=CL3.0");
  size_t largest = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(probe.kernel("k"), env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof largest,
                                     &largest, nullptr),
            CL_SUCCESS);
  return {Shape{{1}, {1}},           Shape{{21}, {7}},         Shape{{256}, {32}},       Shape{{1024}, {256}},
          Shape{{800}, {200}},       Shape{{1000}, {256}},     Shape{{48, 16}, {16, 8}}, Shape{{12, 8, 8}, {4, 4, 4}},
          Shape{{largest * 2}, {largest}}};
}

// The device query and the OpenCL C feature agree, on every device.
class WorkGroupCollectivesQuery : public DeviceTest {};

TEST_P(WorkGroupCollectivesQuery, AgreesWithTheFeature) {
  const bool feature = lists_feature(env.device, "__opencl_c_work_group_collective_functions");
  EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, env.device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT),
            cl_bool(feature ? CL_TRUE : CL_FALSE));
  BuiltProgram program(env, R"(
    #ifndef __opencl_c_work_group_collective_functions
    #error no __opencl_c_work_group_collective_functions
    #endif
    kernel void k(global int* r) { r[0] = 1; })",
                       "-cl-std=CL3.0");
  EXPECT_EQ(static_cast<bool>(program), feature);
}

TEST_P(WorkGroupCollectives, OfInt) { check_collectives<cl_int>(env, shapes_for(env)); }
TEST_P(WorkGroupCollectives, OfUint) { check_collectives<cl_uint>(env, shapes_for(env)); }
TEST_P(WorkGroupCollectives, OfLong) { check_collectives<cl_long>(env, shapes_for(env)); }
TEST_P(WorkGroupCollectives, OfUlong) { check_collectives<cl_ulong>(env, shapes_for(env)); }
TEST_P(WorkGroupCollectives, OfFloat) { check_collectives<cl_float>(env, shapes_for(env)); }
TEST_P(WorkGroupCollectives, OfDouble) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_collectives<cl_double>(env, shapes_for(env));
}

// A collective inside a loop whose trip count the group agrees on, with __local memory of its
// own between the calls: every call sees that iteration's values.
TEST_P(WorkGroupCollectives, InALoopWithLocalMemory) {
  BuiltProgram program(env, R"(
    kernel void k(global int* r, local int* tile) {
      size_t l = get_local_id(0), n = get_local_size(0);
      int acc = 0;
      for (int round = 0; round < 5; ++round) {
        tile[l] = (int)l * (round + 1);
        barrier(CLK_LOCAL_MEM_FENCE);
        int mine = tile[(l + 1) % n];
        acc += work_group_reduce_add(mine) + work_group_scan_exclusive_max(mine);
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      r[get_global_id(0)] = acc;
    })",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 384, local = 128;
  DeviceBuffer out(env.context, global * sizeof(cl_int));
  cl_kernel kernel = program.kernel("k");
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, local * sizeof(cl_int), nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  auto r = read_buffer<cl_int>(env.queue, out.get(), global);
  for (size_t i = 0; i < global; ++i) {
    const cl_int l = static_cast<cl_int>(i % local), n = static_cast<cl_int>(local);
    // The kernel's int sums wrap (the first exclusive max is INT_MIN): add as unsigned.
    cl_uint want = 0;
    for (cl_int round = 1; round <= 5; ++round) {
      // mine(l) = ((l + 1) % n) * round; the sum over the group is round * n(n-1)/2.
      cl_int before = std::numeric_limits<cl_int>::min();
      for (cl_int k = 0; k < l; ++k) before = std::max(before, (k + 1) % n * round);
      want += static_cast<cl_uint>(round * n * (n - 1) / 2) + static_cast<cl_uint>(before);
    }
    ASSERT_EQ(static_cast<cl_uint>(r[i]), want) << "work-item " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, WorkGroupCollectivesQuery, ::testing::ValuesIn(all_devices()), device_name);
INSTANTIATE_TEST_SUITE_P(EveryDevice, WorkGroupCollectives, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// Every work-item function, in one, two and three dimensions, with offsets and with uniform
// and non-uniform work-groups, against values the test computes itself.
#include <array>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

// Per work-item: 8 values per dimension (3 dimensions), then work_dim and the two linear ids.
constexpr int kPerDimension = 8;
constexpr int kRecord = 3 * kPerDimension + 3;

constexpr const char* kRecorder = R"(
  kernel void record(global ulong* out) {
    size_t linear = 0;
    for (int d = (int)get_work_dim() - 1; d >= 0; --d)
      linear = linear * get_global_size(d) + (get_global_id(d) - get_global_offset(d));
    global ulong* r = out + linear * 27;
    for (uint d = 0; d < 3; ++d) {
      r[8 * d + 0] = get_global_id(d);
      r[8 * d + 1] = get_local_id(d);
      r[8 * d + 2] = get_group_id(d);
      r[8 * d + 3] = get_global_size(d);
      r[8 * d + 4] = get_local_size(d);
      r[8 * d + 5] = get_num_groups(d);
      r[8 * d + 6] = get_global_offset(d);
      r[8 * d + 7] = get_enqueued_local_size(d);
    }
    r[24] = get_work_dim();
    r[25] = get_global_linear_id();
    r[26] = get_local_linear_id();
  })";

struct Range {
  cl_uint dims;
  std::array<size_t, 3> offset, global, local;
};

// Checks every record the kernel wrote for `range` against the specification's formulas.
void check_records(const std::vector<cl_ulong>& out, const Range& range) {
  std::array<size_t, 3> global{1, 1, 1}, local{1, 1, 1}, offset{0, 0, 0};
  for (cl_uint d = 0; d < range.dims; ++d) {
    global[d] = range.global[d];
    local[d] = range.local[d];
    offset[d] = range.offset[d];
  }
  size_t linear = 0;
  for (size_t z = 0; z < global[2]; ++z) {
    for (size_t y = 0; y < global[1]; ++y) {
      for (size_t x = 0; x < global[0]; ++x, ++linear) {
        const std::array<size_t, 3> index{x, y, z};
        const cl_ulong* r = out.data() + linear * kRecord;
        std::array<size_t, 3> local_id{}, group_size{};
        for (int d = 0; d < 3; ++d) {
          const size_t group = index[d] / local[d];
          local_id[d] = index[d] % local[d];
          const size_t groups = (global[d] + local[d] - 1) / local[d];
          group_size[d] = group + 1 < groups ? local[d] : global[d] - group * local[d];
          const cl_ulong* v = r + kPerDimension * d;
          const std::array<size_t, 8> expected{index[d] + offset[d], local_id[d], group, global[d],
                                               group_size[d], groups, offset[d], local[d]};
          for (int k = 0; k < kPerDimension; ++k) {
            ASSERT_EQ(v[k], expected[k]) << "item (" << x << "," << y << "," << z << ") dimension " << d
                                         << " function " << k;
          }
        }
        ASSERT_EQ(r[24], range.dims);
        ASSERT_EQ(r[25], linear) << "get_global_linear_id at " << linear;
        const size_t local_linear = local_id[0] + group_size[0] * (local_id[1] + group_size[1] * local_id[2]);
        ASSERT_EQ(r[26], local_linear) << "get_local_linear_id at " << linear;
      }
    }
  }
}

class WorkItemRanges : public ::testing::TestWithParam<std::tuple<cl_device_id, Range>> {};

TEST_P(WorkItemRanges, EveryFunctionMatches) {
  const auto& [device, range] = GetParam();
  Env env(device);
  BuiltProgram program(env, kRecorder, "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("record");
  ASSERT_NE(kernel, nullptr);
  size_t items = 1;
  for (cl_uint d = 0; d < range.dims; ++d) items *= range.global[d];
  DeviceBuffer out(env.context, items * kRecord * sizeof(cl_ulong));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, range.dims, range.offset.data(), range.global.data(),
                                   range.local.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  check_records(read_buffer<cl_ulong>(env.queue, out.get(), items * kRecord), range);
}

const Range kRanges[] = {
    {1, {0, 0, 0}, {64, 1, 1}, {16, 1, 1}},      // 1D, uniform
    {1, {5, 0, 0}, {37, 1, 1}, {8, 1, 1}},       // 1D, offset, last group of 5
    {2, {3, 7, 0}, {12, 10, 1}, {4, 5, 1}},      // 2D, offsets, uniform
    {2, {0, 2, 0}, {13, 7, 1}, {4, 3, 1}},       // 2D, both dimensions ragged
    {3, {1, 2, 3}, {8, 6, 4}, {2, 3, 2}},        // 3D, offsets, uniform
    {3, {0, 0, 9}, {5, 7, 3}, {2, 2, 2}},        // 3D, ragged in every dimension: 8 group shapes
};

std::string range_name(const ::testing::TestParamInfo<std::tuple<cl_device_id, Range>>& info) {
  return "range" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, WorkItemRanges,
                         ::testing::Combine(::testing::ValuesIn(all_devices()), ::testing::ValuesIn(kRanges)),
                         range_name);

}  // namespace

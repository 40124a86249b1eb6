// Work-item functions (OpenCL C 3.0, 6.15.1) in 1, 2 and 3 dimensions, with a global offset
// and with non-uniform work-groups (OpenCL C 2.0+): every id, size and count, and the
// linear ids.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class WorkItem : public DeviceTest {};

TEST_P(WorkItem, EveryFunctionInThreeDimensionsWithOffset) {
  BuiltProgram program(env, R"(
    kernel void k(global ulong* out) {
      size_t lin = get_global_linear_id();
      global ulong* o = out + 20 * lin;
      o[0] = get_work_dim();
      for (uint d = 0; d < 3; ++d) {
        o[1 + d] = get_global_id(d);
        o[4 + d] = get_local_id(d);
        o[7 + d] = get_group_id(d);
        o[10 + d] = get_global_size(d) * 1000 + get_local_size(d);
        o[13 + d] = get_num_groups(d) * 1000 + get_global_offset(d);
        o[16 + d] = get_enqueued_local_size(d);
      }
      o[19] = get_local_linear_id();
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global[3] = {12, 10, 6}, local[3] = {4, 5, 3}, offset[3] = {3, 7, 11};
  const size_t total = global[0] * global[1] * global[2];
  DeviceBuffer out(env.context, total * 20 * sizeof(uint64_t));
  cl_kernel kernel = program.kernel("k");
  set_args(kernel, out.get());
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 3, offset, global, local, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  auto o = read_buffer<uint64_t>(env.queue, out.get(), total * 20);
  std::vector<bool> seen(total);
  for (size_t lin = 0; lin < total; ++lin) {
    const uint64_t* r = &o[20 * lin];
    ASSERT_EQ(r[0], 3u);
    size_t id[3], l[3];
    for (int d = 0; d < 3; ++d) {
      id[d] = r[1 + d] - offset[d];
      l[d] = r[4 + d];
      ASSERT_LT(id[d], global[d]);
      ASSERT_EQ(l[d], id[d] % local[d]);
      ASSERT_EQ(r[7 + d], id[d] / local[d]);
      ASSERT_EQ(r[10 + d], global[d] * 1000 + local[d]);
      ASSERT_EQ(r[13 + d], (global[d] / local[d]) * 1000 + offset[d]);
      ASSERT_EQ(r[16 + d], local[d]);
    }
    ASSERT_EQ(lin, (id[2] * global[1] + id[1]) * global[0] + id[0]);
    ASSERT_EQ(r[19], (l[2] * local[1] + l[1]) * local[0] + l[0]);
    seen[lin] = true;
  }
  for (size_t lin = 0; lin < total; ++lin) ASSERT_TRUE(seen[lin]) << lin;
}

// A global size that is not a multiple of the local size: the last group is smaller, and
// get_local_size reports its real size while get_enqueued_local_size reports the request.
TEST_P(WorkItem, NonUniformLastGroup) {
  BuiltProgram program(env, R"(
    kernel void k(global uint* out) {
      size_t g = get_global_id(0);
      out[3 * g] = (uint)get_local_size(0);
      out[3 * g + 1] = (uint)get_enqueued_local_size(0);
      out[3 * g + 2] = (uint)get_num_groups(0);
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 100, local = 16;
  Launch launch(env, program.kernel("k"));
  launch.out<uint32_t>(3 * global);
  launch.run(global, local);
  auto r = launch.result<uint32_t>(0);
  for (size_t g = 0; g < global; ++g) {
    ASSERT_EQ(r[3 * g], g >= 96 ? 4u : 16u) << g;
    ASSERT_EQ(r[3 * g + 1], 16u) << g;
    ASSERT_EQ(r[3 * g + 2], 7u) << g;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, WorkItem, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// Synchronization and work-group data builtins (OpenCL C 3.0, 6.15.9 to 6.15.11):
// barrier / work_group_barrier with each fence flag, mem_fence and friends,
// async_work_group_copy and async_work_group_strided_copy in both directions with
// wait_group_events, and prefetch. Work-items of a group run as fibers on the host device,
// so every barrier really waits for the whole group.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class Synchronization : public DeviceTest {};

TEST_P(Synchronization, BarrierVariantsOrderLocalAndGlobalMemory) {
  BuiltProgram program(env, R"(
    kernel void k(global int* data, global int* out) {
      local int s[128];
      size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
      s[l] = (int)g;
      barrier(CLK_LOCAL_MEM_FENCE);
      int a = s[n - 1 - l];
      barrier(CLK_LOCAL_MEM_FENCE);
      s[l] = a * 2;
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      int b = s[(l + 1) % n];
      data[g] = b;
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      read_mem_fence(CLK_GLOBAL_MEM_FENCE);
      write_mem_fence(CLK_LOCAL_MEM_FENCE);
      work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      size_t base = g - l;
      out[g] = data[base + (l + 3) % n];
      barrier(CLK_GLOBAL_MEM_FENCE);
      for (int round = 0; round < 4; ++round) {  /* barriers inside a loop */
        s[l] = round + (int)l;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[g] += s[(l + round) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
    })", "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t n = 128, groups = 64, total = n * groups;
  Launch launch(env, program.kernel("k"));
  launch.out<int32_t>(total).out<int32_t>(total);
  launch.run(total, n);
  auto out = launch.result<int32_t>(1);
  for (size_t g = 0; g < total; ++g) {
    const size_t base = g - g % n;
    auto b_of = [&](size_t l) {  // data[base + l]
      const size_t m = (l + 1) % n;  // reads s[m] = 2 * global id of (n - 1 - m)
      return int32_t(2 * (base + n - 1 - m));
    };
    int32_t want = b_of((g % n + 3) % n);
    for (int round = 0; round < 4; ++round) want += round + int32_t((g % n + round) % n);
    ASSERT_EQ(out[g], want) << g;
  }
}

TEST_P(Synchronization, AsyncCopiesAndWaitGroupEvents) {
  BuiltProgram program(env, R"(
    kernel void k(global const float4* in, global float4* out, global const int* strided_in, global int* strided_out) {
      local float4 tile[64];
      local int column[64];
      size_t group = get_group_id(0);
      event_t e = async_work_group_copy(tile, in + group * 64, 64, 0);
      event_t e2 = async_work_group_strided_copy(column, strided_in + group, 64, get_num_groups(0), 0);
      event_t events[2] = {e, e2};
      wait_group_events(2, events);
      size_t l = get_local_id(0);
      for (size_t e = l; e < 64; e += get_local_size(0)) tile[e] = tile[e] * 2.0f + (float)column[e];
      barrier(CLK_LOCAL_MEM_FENCE);
      event_t back = async_work_group_copy(out + group * 64, tile, 64, 0);
      event_t back2 = async_work_group_strided_copy(strided_out + group, column, 64, get_num_groups(0), 0);
      wait_group_events(1, &back);
      wait_group_events(1, &back2);
      prefetch(in + group * 64, 64);
    })");
  ASSERT_TRUE(program);
  const size_t groups = 32, local = 16;  // 16 work-items copy 64 elements: several each
  std::vector<float> in(groups * 64 * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i);
  std::vector<int32_t> strided(groups * 64);
  for (size_t i = 0; i < strided.size(); ++i) strided[i] = int32_t(i * 3);
  Launch launch(env, program.kernel("k"));
  launch.in(in).out<float>(in.size()).in(strided).out<int32_t>(strided.size());
  launch.run(groups * local, local);
  auto out = launch.result<float>(1);
  auto sout = launch.result<int32_t>(3);
  for (size_t group = 0; group < groups; ++group)
    for (size_t e = 0; e < 64; ++e) {
      const int32_t column = strided[e * groups + group];
      for (int c = 0; c < 4; ++c) {
        const size_t i = (group * 64 + e) * 4 + c;
        ASSERT_EQ(out[i], in[i] * 2 + float(column)) << "group " << group << " element " << e;
      }
      ASSERT_EQ(sout[e * groups + group], column);
    }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Synchronization, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

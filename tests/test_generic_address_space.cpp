// OpenCL C 3.0's generic address space: to_global, to_local, to_private and get_fence on
// pointers into each memory, in kernels without and with barriers (loops and fibers).
#include "support/kernel_support.h"

using namespace cucl_test;

namespace {

class GenericAddressSpace : public DeviceTest {};

// Each work-item writes 6 bits: which of to_global/to_local/to_private accepted pointers to
// global, local and private memory (1 where the answer is right), then the fences.
constexpr const char* kSource = R"(
  int classify(generic int* p, int expect_global, int expect_local, int expect_private) {
    int right = 0;
    right |= ((to_global(p) != 0) == expect_global) << 0;
    right |= ((to_local(p) != 0) == expect_local) << 1;
    right |= ((to_private(p) != 0) == expect_private) << 2;
    cl_mem_fence_flags f = get_fence(p);
    int fence_right = expect_global ? f == CLK_GLOBAL_MEM_FENCE
                    : expect_local  ? f == CLK_LOCAL_MEM_FENCE
                                    : (f == 0 || f == CLK_GLOBAL_MEM_FENCE);
    return right | (fence_right << 3);
  }
  kernel void loops(global int* out, local int* scratch) {
    size_t i = get_global_id(0);
    int mine = (int)i;
    out[3 * i + 0] = classify(&out[3 * i], 1, 0, 0);
    out[3 * i + 1] = classify(&scratch[get_local_id(0)], 0, 1, 0);
    out[3 * i + 2] = classify(&mine, 0, 0, 1);
  }
  kernel void fibers(global int* out, local int* scratch) {
    size_t i = get_global_id(0);
    int mine = (int)i;
    scratch[get_local_id(0)] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[3 * i + 0] = classify(&out[3 * i], 1, 0, 0);
    out[3 * i + 1] = classify(&scratch[get_local_id(0)], 0, 1, 0);
    out[3 * i + 2] = classify(&mine, 0, 0, 1);
  })";

void expect_every_answer_right(Env& env, cl_kernel kernel) {
  const size_t items = 256, local = 64;
  DeviceBuffer out(env.context, 3 * items * sizeof(cl_int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, local * sizeof(cl_int), nullptr), CL_SUCCESS);
  run_1d(env.queue, kernel, items, local);
  const auto results = read_buffer<cl_int>(env.queue, out.get(), 3 * items);
  for (size_t i = 0; i < results.size(); ++i) {
    ASSERT_EQ(results[i], 0xf) << "work-item " << i / 3 << ", pointer to "
                               << (i % 3 == 0 ? "global" : i % 3 == 1 ? "local" : "private") << " memory";
  }
}

TEST_P(GenericAddressSpace, CastsAndFencesInALoopModeKernel) {
  BuiltProgram program(env, kSource, "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("loops");
  ASSERT_NE(kernel, nullptr);
  expect_every_answer_right(env, kernel);
}

TEST_P(GenericAddressSpace, CastsAndFencesInAKernelWithBarriers) {
  BuiltProgram program(env, kSource, "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("fibers");
  ASSERT_NE(kernel, nullptr);
  expect_every_answer_right(env, kernel);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, GenericAddressSpace, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

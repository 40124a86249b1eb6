// clEnqueueNDRangeKernel and clEnqueueTask through the loader: every error, the work-item
// functions in one, two and three dimensions with offsets, uniform and non-uniform
// work-groups, the size cucl picks, empty ranges, events and profiling.
#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

class NDRange : public DeviceTest {
 protected:
  // One kernel writing 1 to out[global linear index], with its buffer set.
  cl_kernel simple_kernel(BuiltProgram& program, size_t items) {
    cl_kernel kernel = program.kernel("simple");
    buffer_ = std::make_unique<DeviceBuffer>(env.context, items * sizeof(int));
    if (kernel) {
      EXPECT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), buffer_->address()), CL_SUCCESS);
    }
    return kernel;
  }
  cl_int enqueue(cl_kernel kernel, cl_uint dims, const size_t* offset, const size_t* global, const size_t* local) {
    return clEnqueueNDRangeKernel(env.queue, kernel, dims, offset, global, local, 0, nullptr, nullptr);
  }
  std::unique_ptr<DeviceBuffer> buffer_;
};

constexpr const char* kSimple = R"(
  kernel void simple(global int* out) { out[get_global_id(0) - get_global_offset(0)] = 1; }
  kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(global int* out) {
    out[get_global_id(0)] = get_local_size(0);
  }
)";

TEST_P(NDRange, ArgumentErrors) {
  BuiltProgram program(env, kSimple);
  cl_kernel kernel = simple_kernel(program, 64);
  ASSERT_NE(kernel, nullptr);
  const size_t global[3] = {8, 8, 8}, local[3] = {4, 1, 1};
  EXPECT_EQ(enqueue(kernel, 0, nullptr, global, nullptr), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(enqueue(kernel, 4, nullptr, global, nullptr), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(clEnqueueNDRangeKernel(nullptr, kernel, 1, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(enqueue(nullptr, 1, nullptr, global, nullptr), CL_INVALID_KERNEL);
  EXPECT_EQ(enqueue(reinterpret_cast<cl_kernel>(env.queue), 1, nullptr, global, nullptr), CL_INVALID_KERNEL);
  cl_event event = nullptr;
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, global, nullptr, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, global, nullptr, 0, &event, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  // Local sizes: zero, larger than the device allows per dimension or in total.
  const size_t zero[1] = {0};
  EXPECT_EQ(enqueue(kernel, 1, nullptr, global, zero), CL_INVALID_WORK_GROUP_SIZE);
  size_t max_items[3];
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof max_items, max_items, nullptr),
            CL_SUCCESS);
  const size_t too_wide[1] = {max_items[0] + 1}, too_wide_global[1] = {max_items[0] + 1};
  EXPECT_EQ(enqueue(kernel, 1, nullptr, too_wide_global, too_wide), CL_INVALID_WORK_ITEM_SIZE);
  size_t kernel_max = 0;
  ASSERT_EQ(clGetKernelWorkGroupInfo(kernel, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max,
                                     nullptr),
            CL_SUCCESS);
  size_t big_local[3] = {1, 1, 1}, big_global[3] = {1, 1, 1};
  for (int d = 0; d < 3 && big_local[0] * big_local[1] * big_local[2] <= kernel_max; ++d) {
    big_local[d] = max_items[d];
    big_global[d] = max_items[d];
  }
  if (big_local[0] * big_local[1] * big_local[2] > kernel_max) {
    EXPECT_EQ(enqueue(kernel, 3, nullptr, big_global, big_local), CL_INVALID_WORK_GROUP_SIZE);
  }
  // An offset that overflows size_t.
  const size_t huge_offset[1] = {SIZE_MAX - 3};
  EXPECT_EQ(enqueue(kernel, 1, huge_offset, global, nullptr), CL_INVALID_GLOBAL_OFFSET);
  // The required work-group size: any other local size fails.
  cl_kernel fixed = program.kernel("fixed");
  ASSERT_EQ(clSetKernelArg(fixed, 0, sizeof(cl_mem), buffer_->address()), CL_SUCCESS);
  const size_t eight[1] = {8}, two[1] = {2};
  EXPECT_EQ(enqueue(fixed, 1, nullptr, eight, two), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(enqueue(fixed, 1, nullptr, eight, local), CL_SUCCESS);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
}

TEST_P(NDRange, KernelOfAnotherContextIsRejected) {
  Env other(env.device);
  BuiltProgram program(other, kSimple);
  cl_kernel kernel = program.kernel("simple");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer buffer(other.context, 64);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), buffer.address()), CL_SUCCESS);
  const size_t global = 4;
  EXPECT_EQ(enqueue(kernel, 1, nullptr, &global, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
}

// OpenCL C 1.x needs uniform work-groups; 2.0 and later allow a smaller last group.
TEST_P(NDRange, NonDividingLocalSizeNeedsOpenCLC2OrLater) {
  constexpr const char* source = R"(
    kernel void sizes(global int* out) {
      size_t i = get_global_id(0);
    #if __OPENCL_C_VERSION__ >= 200
      out[3 * i] = get_local_size(0);
      out[3 * i + 1] = get_enqueued_local_size(0);
    #else
      out[3 * i] = get_local_size(0);
      out[3 * i + 1] = get_local_size(0);
    #endif
      out[3 * i + 2] = get_group_id(0) * 1000 + get_local_id(0);
    })";
  const size_t global = 10, local = 4;
  {
    BuiltProgram program(env, source);
    cl_kernel kernel = program.kernel("sizes");
    DeviceBuffer out(env.context, 3 * global * sizeof(int));
    ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
    EXPECT_EQ(enqueue(kernel, 1, nullptr, &global, &local), CL_INVALID_WORK_GROUP_SIZE);
  }
  {
    BuiltProgram program(env, source, "-cl-std=CL3.0 -cl-uniform-work-group-size");
    cl_kernel kernel = program.kernel("sizes");
    DeviceBuffer out(env.context, 3 * global * sizeof(int));
    ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
    EXPECT_EQ(enqueue(kernel, 1, nullptr, &global, &local), CL_INVALID_WORK_GROUP_SIZE);
  }
  BuiltProgram program(env, source, "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("sizes");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer out(env.context, 3 * global * sizeof(int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(enqueue(kernel, 1, nullptr, &global, &local), CL_SUCCESS);
  const auto values = read_buffer<int>(env.queue, out.get(), 3 * global);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(values[3 * i], i < 8 ? 4 : 2) << i;  // the edge group has 2 items
    EXPECT_EQ(values[3 * i + 1], 4) << i;
    EXPECT_EQ(values[3 * i + 2], (i / 4) * 1000 + i % 4) << i;
  }
}

TEST_P(NDRange, NullLocalSizeChoosesAValidUniformSize) {
  constexpr const char* source = R"(
    kernel void sizes(global int* out) { out[get_global_id(0)] = get_local_size(0); }
    kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(global int* out) {
      out[get_global_id(0)] = get_local_size(0);
    })";
  BuiltProgram program(env, source);
  cl_kernel kernel = program.kernel("sizes");
  ASSERT_NE(kernel, nullptr);
  size_t kernel_max = 0;
  ASSERT_EQ(clGetKernelWorkGroupInfo(kernel, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max,
                                     nullptr),
            CL_SUCCESS);
  for (size_t global : {size_t{1}, size_t{7}, size_t{97}, size_t{1000}, size_t{4096}, size_t{65536}}) {
    const auto values = run_on_ints(env, kernel, global);
    const int chosen = values[0];
    EXPECT_GE(chosen, 1);
    EXPECT_LE(static_cast<size_t>(chosen), kernel_max);
    EXPECT_EQ(global % chosen, 0u) << global;
    for (size_t i = 0; i < global; ++i) ASSERT_EQ(values[i], chosen) << global << " at " << i;
  }
  cl_kernel fixed = program.kernel("fixed");
  const auto values = run_on_ints(env, fixed, 16);
  for (int v : values) EXPECT_EQ(v, 4);
}

TEST_P(NDRange, EmptyRangesCompleteWithoutRunning) {
  BuiltProgram program(env, kSimple);
  cl_kernel kernel = simple_kernel(program, 16);
  ASSERT_NE(kernel, nullptr);
  const int sentinel[16] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer_->get(), CL_TRUE, 0, sizeof sentinel, sentinel, 0, nullptr,
                                 nullptr),
            CL_SUCCESS);
  const size_t zero_sizes[3][3] = {{0, 4, 4}, {4, 0, 4}, {4, 4, 0}};
  for (const auto& global : zero_sizes) {
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 3, nullptr, global, nullptr, 0, nullptr, &event),
              CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    EXPECT_EQ(event_status(event), CL_COMPLETE);
    EXPECT_EQ(event_type(event), static_cast<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL));
    clReleaseEvent(event);
  }
  // A NULL global size on an OpenCL 3.0 device also launches nothing.
  EXPECT_EQ(enqueue(kernel, 1, nullptr, nullptr, nullptr), CL_SUCCESS);
  for (int v : read_buffer<int>(env.queue, buffer_->get(), 16)) EXPECT_EQ(v, 5);
}

TEST_P(NDRange, TaskRunsOneWorkItem) {
  BuiltProgram program(env, R"(
    kernel void task(global int* out) {
      out[0] = get_work_dim(); out[1] = get_global_size(0); out[2] = get_local_size(0);
      out[3] = get_num_groups(0); out[4] = get_global_id(0); out[5] = get_global_size(1);
    })");
  cl_kernel kernel = program.kernel("task");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer out(env.context, 6 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, &event), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  EXPECT_EQ(event_type(event), static_cast<cl_command_type>(CL_COMMAND_TASK));
  clReleaseEvent(event);
  EXPECT_EQ(read_buffer<int>(env.queue, out.get(), 6), (std::vector<int>{1, 1, 1, 1, 0, 1}));
}

TEST_P(NDRange, ProfilingOfAKernelCommand) {
  Env profiled(env.device, CL_QUEUE_PROFILING_ENABLE);
  BuiltProgram program(profiled, kSimple);
  cl_kernel kernel = program.kernel("simple");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer out(profiled.context, 4096 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  const size_t global = 4096;
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(profiled.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &event),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  cl_ulong stamps[4];
  const cl_profiling_info params[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                       CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(clGetEventProfilingInfo(event, params[i], sizeof stamps[i], &stamps[i], nullptr), CL_SUCCESS);
    if (i) {
      EXPECT_LE(stamps[i - 1], stamps[i]) << i;
    }
  }
  EXPECT_GT(stamps[0], 0u);
  clReleaseEvent(event);
}

TEST_P(NDRange, ManyLaunchesInFlightOnAnOutOfOrderQueue) {
  Env ooo(env.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  BuiltProgram program(ooo, R"(
    kernel void fill(global int* out, int base) { out[get_global_id(0)] = base + (int)get_global_id(0); })");
  cl_kernel kernel = program.kernel("fill");
  ASSERT_NE(kernel, nullptr);
  constexpr int kLaunches = 64;
  constexpr size_t kItems = 256;
  DeviceBuffer out(ooo.context, kLaunches * kItems * sizeof(int));
  cl_event gate = user_event(ooo.context);
  std::vector<cl_event> events(kLaunches);
  for (int i = 0; i < kLaunches; ++i) {
    // Each launch writes its own slice (through the offset) with its own value: the
    // arguments are captured at enqueue time.
    const int base = i * 100000;
    const size_t offset = i * kItems, global = kItems;
    ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof base, &base), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(ooo.queue, kernel, 1, &offset, &global, nullptr, i % 2, i % 2 ? &gate : nullptr,
                                     &events[i]),
              CL_SUCCESS);
  }
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(kLaunches, events.data()), CL_SUCCESS);
  for (cl_event event : events) {
    EXPECT_EQ(event_status(event), CL_COMPLETE);
    clReleaseEvent(event);
  }
  clReleaseEvent(gate);
  const auto values = read_buffer<int>(ooo.queue, out.get(), kLaunches * kItems);
  for (int i = 0; i < kLaunches; ++i) {
    for (size_t j = 0; j < kItems; ++j) {
      const size_t at = i * kItems + j;
      ASSERT_EQ(values[at], i * 100000 + static_cast<int>(at)) << at;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, NDRange, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

// cl_khr_command_buffer on every device: the device queries, every record call and what its
// replay does (the kernel's arguments as they were when recorded), sync points, states and
// info queries, every error, replays in flight at once and back to back, the replay's event,
// a failed replay followed by a good one, and a buffer released while it runs.
#include <atomic>
#include <cstring>

#include "support/command_buffer_api.h"
#include "support/kernel_support.h"

using namespace cucl_test;

namespace {

class CommandBuffers : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!lists_extension(env.device, "cl_khr_command_buffer")) GTEST_SKIP() << "no cl_khr_command_buffer";
    api = CommandBufferApi::load();
  }
  cl_command_buffer_khr make(cl_command_queue queue, const cl_command_buffer_properties_khr* properties = nullptr) {
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_command_buffer_khr buffer = api.create(1, &queue, properties, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return buffer;
  }
  CommandBufferApi api;
};

const char* const kKernels = R"(
  kernel void scale(global int* data, int factor) { data[get_global_id(0)] *= factor; }
  kernel void count(global int* counter) { atomic_inc(counter); }
)";

TEST_P(CommandBuffers, TheDeviceReportsWhatItTakes) {
  EXPECT_EQ(extension_version(env.device, "cl_khr_command_buffer"), CL_MAKE_VERSION(0, 9, 8));
  EXPECT_EQ(info_value<cl_device_command_buffer_capabilities_khr>(clGetDeviceInfo, env.device,
                                                                   CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR),
            cl_device_command_buffer_capabilities_khr(CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                                                      CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR));
  EXPECT_EQ(info_value<cl_command_queue_properties>(clGetDeviceInfo, env.device, kCommandBufferSupportedQueueProperties),
            cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  EXPECT_EQ(info_value<cl_command_queue_properties>(clGetDeviceInfo, env.device,
                                                    CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR),
            0u);
}

// Fill, kernel, copy, rect copy and barrier, replayed twice: each replay redoes all of it,
// with the kernel's arguments as they were when it was recorded.
TEST_P(CommandBuffers, EveryRecordedCommandRunsOnEachReplay) {
  BuiltProgram program(env, kKernels);
  cl_kernel scale = program.kernel("scale");
  const size_t n = 256;
  DeviceBuffer a(env.context, n * 4), b(env.context, n * 4), rect(env.context, 16 * 16 * 4);
  const cl_int three = 3, seven = 7;
  set_args(scale, a.get(), three);
  cl_command_buffer_khr buffer = make(env.queue);
  const cl_int five = 5;
  cl_sync_point_khr fill = 0, kernel = 0, copy = 0, barrier = 0, rect_copy = 0;
  ASSERT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &five, sizeof five, 0, n * 4, 0, nullptr, &fill,
                            nullptr),
            CL_SUCCESS);
  ASSERT_EQ(api.ndrange(buffer, nullptr, nullptr, scale, 1, nullptr, &n, nullptr, 1, &fill, &kernel, nullptr),
            CL_SUCCESS);
  set_args(scale, a.get(), seven);  // after recording: the replay still multiplies by 3
  ASSERT_EQ(api.copy_buffer(buffer, nullptr, nullptr, a.get(), b.get(), 0, 0, n * 4, 1, &kernel, &copy, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(api.barrier(buffer, nullptr, nullptr, 0, nullptr, &barrier, nullptr), CL_SUCCESS);
  // b's first 64 ints as a 16 x 4 block into the top-left of a 16 x 16 grid of ints.
  const size_t origin[3] = {0, 0, 0}, region[3] = {16 * 4, 4, 1};
  ASSERT_EQ(api.copy_buffer_rect(buffer, nullptr, nullptr, b.get(), rect.get(), origin, origin, region, 16 * 4, 0,
                                 16 * 4, 0, 1, &barrier, &rect_copy, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(fill, 1u);
  EXPECT_EQ(kernel, 2u);
  EXPECT_EQ(copy, 3u);
  EXPECT_EQ(barrier, 4u);
  EXPECT_EQ(rect_copy, 5u);
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  for (int replay = 0; replay < 2; ++replay) {
    std::vector<cl_int> poison(n, -1);
    ASSERT_EQ(clEnqueueWriteBuffer(env.queue, b.get(), CL_TRUE, 0, n * 4, poison.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, nullptr), CL_SUCCESS);
    auto copied = read_buffer<cl_int>(env.queue, b.get(), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(copied[i], 15) << "replay " << replay << ", element " << i;
    auto grid = read_buffer<cl_int>(env.queue, rect.get(), 16 * 4);
    for (size_t i = 0; i < 16 * 4; ++i) ASSERT_EQ(grid[i], 15) << i;
  }
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

TEST_P(CommandBuffers, StatesAndInfoQueries) {
  const cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                         CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  cl_command_buffer_khr buffer = make(env.queue, properties);
  auto state = [&] {
    cl_command_buffer_state_khr value = 99;
    EXPECT_EQ(api.info(buffer, CL_COMMAND_BUFFER_STATE_KHR, sizeof value, &value, nullptr), CL_SUCCESS);
    return value;
  };
  EXPECT_EQ(state(), cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_RECORDING_KHR));
  cl_command_queue queue = nullptr;
  size_t size = 0;
  ASSERT_EQ(api.info(buffer, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof queue, &queue, &size), CL_SUCCESS);
  EXPECT_EQ(queue, env.queue);
  EXPECT_EQ(size, sizeof queue);
  cl_uint count = 0;
  ASSERT_EQ(api.info(buffer, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof count, &count, nullptr), CL_SUCCESS);
  EXPECT_EQ(count, 1u);
  cl_context context = nullptr;
  ASSERT_EQ(api.info(buffer, kCommandBufferContext, sizeof context, &context, nullptr), CL_SUCCESS);
  EXPECT_EQ(context, env.context);
  cl_command_buffer_properties_khr given[3] = {};
  ASSERT_EQ(api.info(buffer, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, sizeof given, given, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof given);
  EXPECT_EQ(std::memcmp(given, properties, sizeof given), 0);
  ASSERT_EQ(api.retain(buffer), CL_SUCCESS);
  ASSERT_EQ(api.info(buffer, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof count, &count, nullptr), CL_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  EXPECT_EQ(state(), cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR));
  EXPECT_EQ(api.info(buffer, 0x12345, sizeof count, &count, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(api.info(buffer, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 1, &count, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
  // Without properties the array is empty.
  buffer = make(env.queue);
  ASSERT_EQ(api.info(buffer, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
  EXPECT_EQ(api.info(buffer, CL_COMMAND_BUFFER_STATE_KHR, sizeof count, &count, nullptr),
            CL_INVALID_COMMAND_BUFFER_KHR);
}

TEST_P(CommandBuffers, CreationErrors) {
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(api.create(1, nullptr, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  EXPECT_EQ(api.create(0, &env.queue, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  cl_command_queue two[2] = {env.queue, env.queue};
  EXPECT_EQ(api.create(2, two, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  cl_command_queue bogus = reinterpret_cast<cl_command_queue>(env.context);
  EXPECT_EQ(api.create(1, &bogus, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_COMMAND_QUEUE);
  const cl_command_buffer_properties_khr unknown[] = {0x4321, 0, 0};
  EXPECT_EQ(api.create(1, &env.queue, unknown, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  const cl_command_buffer_properties_khr repeated[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0, CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  EXPECT_EQ(api.create(1, &env.queue, repeated, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  const cl_command_buffer_properties_khr bad_flag[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1 << 7, 0};
  EXPECT_EQ(api.create(1, &env.queue, bad_flag, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  // Mutable dispatch's flag and assertions (every device lists it): known bits only.
  const cl_command_buffer_properties_khr mutable_flag[] = {CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR,
                                                           kCommandBufferMutableDispatchAsserts,
                                                           kAssertNoAdditionalWorkGroups, 0};
  cl_command_buffer_khr made = api.create(1, &env.queue, mutable_flag, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(api.release(made), CL_SUCCESS);
  const cl_command_buffer_properties_khr bad_assert[] = {kCommandBufferMutableDispatchAsserts, 1 << 5, 0};
  EXPECT_EQ(api.create(1, &env.queue, bad_assert, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
}

TEST_P(CommandBuffers, RecordingErrors) {
  BuiltProgram program(env, kKernels);
  cl_kernel scale = program.kernel("scale");
  DeviceBuffer a(env.context, 64);
  cl_command_buffer_khr buffer = make(env.queue);
  const cl_int one = 1;
  const size_t n = 16;
  cl_sync_point_khr point = 0;
  // The queue must be NULL, the properties empty, the mutable handle NULL.
  EXPECT_EQ(api.fill_buffer(buffer, env.queue, nullptr, a.get(), &one, 4, 0, 64, 0, nullptr, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  const cl_command_properties_khr properties[] = {0x1234, 1, 0};
  EXPECT_EQ(api.fill_buffer(buffer, nullptr, properties, a.get(), &one, 4, 0, 64, 0, nullptr, nullptr, nullptr),
            CL_INVALID_VALUE);
  cl_mutable_command_khr handle = nullptr;
  EXPECT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &one, 4, 0, 64, 0, nullptr, nullptr, &handle),
            CL_INVALID_VALUE);
  // Sync points: well formed, and naming commands already recorded.
  const cl_sync_point_khr none = 1;
  EXPECT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &one, 4, 0, 64, 1, &none, nullptr, nullptr),
            CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  EXPECT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &one, 4, 0, 64, 1, nullptr, nullptr, nullptr),
            CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  EXPECT_EQ(api.barrier(buffer, nullptr, nullptr, 0, &none, nullptr, nullptr), CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  // The command's own rules, as for its clEnqueue*.
  EXPECT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &one, 4, 0, 128, 0, nullptr, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(api.copy_buffer(buffer, nullptr, nullptr, a.get(), nullptr, 0, 0, 4, 0, nullptr, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(api.ndrange(buffer, nullptr, nullptr, scale, 1, nullptr, &n, nullptr, 0, nullptr, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  Env other(env.device);
  DeviceBuffer foreign(other.context, 64);
  EXPECT_EQ(api.copy_buffer(buffer, nullptr, nullptr, a.get(), foreign.get(), 0, 0, 4, 0, nullptr, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  // A buffer is not an image, and an SVM copy onto itself overlaps.
  EXPECT_EQ(api.copy_image(buffer, nullptr, nullptr, a.get(), a.get(), nullptr, nullptr, nullptr, 0, nullptr, nullptr,
                           nullptr),
            CL_INVALID_MEM_OBJECT);
  int host[4] = {};
  EXPECT_EQ(api.svm_memcpy(buffer, nullptr, nullptr, host, host + 1, 8, 0, nullptr, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  // What was refused left no command: the first one recorded is sync point 1.
  ASSERT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &one, 4, 0, 64, 0, nullptr, &point, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(point, 1u);
  EXPECT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, nullptr), CL_INVALID_OPERATION) << "not finalized";
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  EXPECT_EQ(api.finalize(buffer), CL_INVALID_OPERATION);
  EXPECT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &one, 4, 0, 64, 0, nullptr, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(api.fill_buffer(nullptr, nullptr, nullptr, a.get(), &one, 4, 0, 64, 0, nullptr, nullptr, nullptr),
            CL_INVALID_COMMAND_BUFFER_KHR);
  EXPECT_EQ(api.finalize(reinterpret_cast<cl_command_buffer_khr>(env.queue)), CL_INVALID_COMMAND_BUFFER_KHR);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

TEST_P(CommandBuffers, EnqueueErrorsAndQueueSubstitution) {
  DeviceBuffer a(env.context, 64);
  cl_command_buffer_khr buffer = make(env.queue);
  const cl_int nine = 9;
  ASSERT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &nine, 4, 0, 64, 0, nullptr, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  cl_command_queue queues[2] = {env.queue, env.queue};
  EXPECT_EQ(api.enqueue(1, nullptr, buffer, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(api.enqueue(0, queues, buffer, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(api.enqueue(2, queues, buffer, 0, nullptr, nullptr), CL_INVALID_VALUE);
  cl_command_queue bogus = reinterpret_cast<cl_command_queue>(env.context);
  EXPECT_EQ(api.enqueue(1, &bogus, buffer, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(api.enqueue(0, nullptr, buffer, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  Env other(env.device);
  EXPECT_EQ(api.enqueue(1, &other.queue, buffer, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  cl_event foreign = user_event(other.context);
  EXPECT_EQ(api.enqueue(0, nullptr, buffer, 1, &foreign, nullptr), CL_INVALID_CONTEXT);
  clReleaseEvent(foreign);
  // Another queue of the same device and context stands in for the buffer's.
  cl_int status = CL_SUCCESS;
  cl_command_queue substitute = clCreateCommandQueue(env.context, env.device, 0, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(api.enqueue(1, &substitute, buffer, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(substitute), CL_SUCCESS);
  auto values = read_buffer<cl_int>(env.queue, a.get(), 16);
  for (cl_int v : values) EXPECT_EQ(v, 9);
  clReleaseCommandQueue(substitute);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// Replays in flight together on an out-of-order queue, and many back to back on an in-order
// one: every replay does all its work.
TEST_P(CommandBuffers, SimultaneousAndPipelinedReplays) {
  BuiltProgram program(env, kKernels);
  cl_kernel count = program.kernel("count");
  const cl_int zero = 0;
  DeviceBuffer counter(env.context, 4, &zero);
  set_args(count, counter.get());
  const size_t items = 64;
  for (bool out_of_order : {true, false}) {
    cl_int status = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueue(
        env.context, env.device, out_of_order ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    const cl_command_buffer_properties_khr simultaneous[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                             CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
    cl_command_buffer_khr buffer = make(queue, simultaneous);
    ASSERT_EQ(api.ndrange(buffer, nullptr, nullptr, count, 1, nullptr, &items, nullptr, 0, nullptr, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
    ASSERT_EQ(clEnqueueWriteBuffer(queue, counter.get(), CL_TRUE, 0, 4, &zero, 0, nullptr, nullptr), CL_SUCCESS);
    const int replays = out_of_order ? 8 : 100;
    for (int r = 0; r < replays; ++r) ASSERT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(read_buffer<cl_int>(env.queue, counter.get(), 1)[0], cl_int(replays * items))
        << (out_of_order ? "out-of-order" : "in-order");
    EXPECT_EQ(api.release(buffer), CL_SUCCESS);
    clReleaseCommandQueue(queue);
  }
}

// The replay's event: its type and queue, ordered profiling stamps, and a replay whose wait
// list failed fails without hurting the next one.
TEST_P(CommandBuffers, TheReplaysEventAndAFailedReplay) {
  cl_int status = CL_SUCCESS;
  cl_command_queue profiled = clCreateCommandQueue(env.context, env.device, CL_QUEUE_PROFILING_ENABLE, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  DeviceBuffer a(env.context, 1 << 20);
  cl_command_buffer_khr buffer = make(profiled);
  const cl_int one = 1;
  ASSERT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &one, 4, 0, 1 << 20, 0, nullptr, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  cl_event event = nullptr;
  ASSERT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, &event), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  EXPECT_EQ(event_type(event), cl_command_type(CL_COMMAND_COMMAND_BUFFER_KHR));
  EXPECT_EQ(info_value<cl_command_queue>(clGetEventInfo, event, CL_EVENT_COMMAND_QUEUE), profiled);
  cl_ulong stamps[4] = {};
  const cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(clGetEventProfilingInfo(event, names[i], sizeof stamps[i], &stamps[i], nullptr), CL_SUCCESS);
    if (i > 0) {
      EXPECT_LE(stamps[i - 1], stamps[i]);
    }
  }
  clReleaseEvent(event);
  cl_event gate = user_event(env.context);
  cl_event failed = nullptr;
  ASSERT_EQ(api.enqueue(1, &env.queue, buffer, 1, &gate, &failed), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, -5), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &failed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_LT(event_status(failed), 0);
  cl_event next = nullptr;
  ASSERT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, &next), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &next), CL_SUCCESS);
  clReleaseEvent(failed);
  clReleaseEvent(next);
  clReleaseEvent(gate);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
  clReleaseCommandQueue(profiled);
}

// Released while its replays run (and with its kernel and buffer released): the replays
// finish and see everything they recorded.
TEST_P(CommandBuffers, ReleasedWhileItsReplaysRun) {
  cl_program program = build_program(env.context, env.device, kKernels);
  ASSERT_NE(program, nullptr);
  cl_int status = CL_SUCCESS;
  cl_kernel scale = clCreateKernel(program, "scale", &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const size_t n = 1024;
  std::vector<cl_int> ones(n, 1);
  cl_mem data = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, n * 4, ones.data(), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  const cl_int two = 2;
  set_args(scale, data, two);
  cl_command_buffer_khr buffer = make(env.queue);
  ASSERT_EQ(api.ndrange(buffer, nullptr, nullptr, scale, 1, nullptr, &n, nullptr, 0, nullptr, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  for (int r = 0; r < 10; ++r) ASSERT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, nullptr), CL_SUCCESS);
  clRetainMemObject(data);  // the test reads it back
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
  clReleaseKernel(scale);
  clReleaseProgram(program);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  auto values = read_buffer<cl_int>(env.queue, data, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(values[i], 1 << 10) << i;
  clReleaseMemObject(data);
  clReleaseMemObject(data);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, CommandBuffers, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

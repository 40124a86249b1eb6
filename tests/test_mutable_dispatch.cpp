// cl_khr_command_buffer_mutable_dispatch on every device: what the device reports, updates of
// a kernel command's arguments and range (seen by later replays only, never by the kernel
// object), arguments left for an update, the command's info queries, and every error of
// recording and updating, where a refused update changes nothing.
#include <memory>

#include "support/command_buffer_api.h"
#include "support/kernel_support.h"

using namespace cucl_test;

namespace {

const char* const kKernels = R"(
  kernel void mark(global int* data, int value) {
    data[get_global_id(0)] = value * 1000 + (int)get_local_size(0);
  }
)";

constexpr cl_mutable_dispatch_fields_khr kEveryField = CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR |
                                                       CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                                                       CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR |
                                                       CL_MUTABLE_DISPATCH_ARGUMENTS_KHR;

class MutableDispatch : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!lists_extension(env.device, "cl_khr_command_buffer_mutable_dispatch")) {
      GTEST_SKIP() << "no cl_khr_command_buffer_mutable_dispatch";
    }
    api = CommandBufferApi::load();
    program = std::make_unique<BuiltProgram>(env, kKernels);
    mark = program->kernel("mark");
  }
  cl_command_buffer_khr make(bool is_mutable) {
    const cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                           is_mutable ? CL_COMMAND_BUFFER_MUTABLE_KHR : 0u, 0};
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_command_buffer_khr buffer = api.create(1, &env.queue, properties, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return buffer;
  }
  // A one-dimensional kernel command with a handle.
  cl_int record(cl_command_buffer_khr buffer, cl_kernel kernel, size_t global, const size_t* local,
                cl_mutable_command_khr* handle, const cl_command_properties_khr* properties = nullptr) {
    return api.ndrange(buffer, nullptr, properties, kernel, 1, nullptr, &global, local, 0, nullptr, nullptr, handle);
  }
  cl_int update(cl_command_buffer_khr buffer, std::initializer_list<const MutableDispatchConfig*> configs) {
    std::vector<cl_uint> types(configs.size(), kMutableDispatchConfigType);
    std::vector<const void*> pointers(configs.begin(), configs.end());
    return api.update(buffer, static_cast<cl_uint>(configs.size()), types.data(), pointers.data());
  }
  cl_command_buffer_state_khr state(cl_command_buffer_khr buffer) {
    cl_command_buffer_state_khr value = 99;
    EXPECT_EQ(api.info(buffer, CL_COMMAND_BUFFER_STATE_KHR, sizeof value, &value, nullptr), CL_SUCCESS);
    return value;
  }
  std::vector<size_t> sizes(cl_mutable_command_khr command, cl_mutable_command_info_khr param) {
    size_t bytes = 0;
    EXPECT_EQ(api.mutable_info(command, param, 0, nullptr, &bytes), CL_SUCCESS);
    std::vector<size_t> values(bytes / sizeof(size_t));
    EXPECT_EQ(api.mutable_info(command, param, bytes, values.data(), nullptr), CL_SUCCESS);
    return values;
  }
  // `mark` writing `value` into n items of `data`, in work-groups of `local`, as the one command
  // of a finalized mutable buffer.
  cl_mutable_command_khr finalized_mark(cl_command_buffer_khr buffer, cl_mem data, cl_int value, size_t n,
                                        size_t local) {
    set_args(mark, data, value);
    cl_mutable_command_khr command = nullptr;
    EXPECT_EQ(record(buffer, mark, n, &local, &command), CL_SUCCESS);
    EXPECT_EQ(api.finalize(buffer), CL_SUCCESS);
    return command;
  }
  // n ints of 0.
  DeviceBuffer zeroed(size_t n) {
    const std::vector<cl_int> zeros(n, 0);
    return DeviceBuffer(env.context, n * 4, zeros.data());
  }
  void replay(cl_command_buffer_khr buffer) {
    ASSERT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  }
  // One replay enqueued before `config` is applied and one after, both held back until then,
  // so that the two versions wait together; returns once both have run.
  void replays_around_update(cl_command_buffer_khr buffer, const MutableDispatchConfig& config) {
    cl_event gate = user_event(env.context);
    EXPECT_EQ(api.enqueue(0, nullptr, buffer, 1, &gate, nullptr), CL_SUCCESS);
    EXPECT_EQ(update(buffer, {&config}), CL_SUCCESS);
    EXPECT_EQ(api.enqueue(0, nullptr, buffer, 1, &gate, nullptr), CL_SUCCESS);
    EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
    clReleaseEvent(gate);
  }
  CommandBufferApi api;
  std::unique_ptr<BuiltProgram> program;
  cl_kernel mark = nullptr;
};

// A config that sets the arguments `args` and nothing else.
template <size_t N>
MutableDispatchConfig argument_update(cl_mutable_command_khr command, const cl_mutable_dispatch_arg_khr (&args)[N]) {
  MutableDispatchConfig config;
  config.command = command;
  config.num_args = N;
  config.arg_list = args;
  return config;
}

// Expects `data` to hold `inside` in [begin, end) and `outside` everywhere else.
void expect_span(cl_command_queue queue, cl_mem data, size_t n, size_t begin, size_t end, cl_int inside,
                 cl_int outside) {
  auto values = read_buffer<cl_int>(queue, data, n);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(values[i], i >= begin && i < end ? inside : outside) << "element " << i;
  }
}

TEST_P(MutableDispatch, TheDeviceReportsWhatItUpdates) {
  EXPECT_EQ(extension_version(env.device, "cl_khr_command_buffer_mutable_dispatch"), CL_MAKE_VERSION(0, 9, 5));
  EXPECT_EQ(info_value<cl_mutable_dispatch_fields_khr>(clGetDeviceInfo, env.device,
                                                       CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR),
            kEveryField);
}

// An update moves the command to another buffer, value and range; the next replay does the
// new work, and the kernel object keeps the arguments it had.
TEST_P(MutableDispatch, UpdatesChangeLaterReplaysAndNotTheKernel) {
  const size_t n = 64;
  DeviceBuffer a = zeroed(n), b = zeroed(n);
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = finalized_mark(buffer, a.get(), 1, 16, 4);
  ASSERT_NE(command, nullptr);
  replay(buffer);
  expect_span(env.queue, a.get(), n, 0, 16, 1004, 0);

  const cl_mem to_b = b.get();
  const cl_int two = 2;
  const cl_mutable_dispatch_arg_khr args[] = {{0, sizeof to_b, &to_b}, {1, sizeof two, &two}};
  const size_t offset = 8, global = 32, local = 8;
  MutableDispatchConfig config = argument_update(command, args);
  config.global_work_offset = &offset;
  config.global_work_size = &global;
  config.local_work_size = &local;
  ASSERT_EQ(update(buffer, {&config}), CL_SUCCESS);
  replay(buffer);
  expect_span(env.queue, b.get(), n, 8, 40, 2008, 0);
  expect_span(env.queue, a.get(), n, 0, 16, 1004, 0);

  // The kernel still writes 1s into a.
  const size_t all = n, four = 4;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &all, &four, 0, nullptr, nullptr), CL_SUCCESS);
  expect_span(env.queue, a.get(), n, 0, n, 1004, 0);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// Updates of by-value arguments alone put the new bytes into the launch as recorded (the
// range and the buffers stay); each replay runs the value set before it, also after an update
// that changed the buffer, and a command whose range is empty takes them too.
TEST_P(MutableDispatch, ValueOnlyUpdatesEachReachTheNextReplay) {
  const size_t n = 32;
  DeviceBuffer a = zeroed(n), b = zeroed(n);
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = finalized_mark(buffer, a.get(), 1, 16, 4);
  ASSERT_NE(command, nullptr);
  cl_int value = 0;
  const cl_mutable_dispatch_arg_khr value_arg[] = {{1, sizeof value, &value}};
  const MutableDispatchConfig values_only = argument_update(command, value_arg);
  for (value = 2; value < 6; ++value) {
    ASSERT_EQ(update(buffer, {&values_only}), CL_SUCCESS);
    replay(buffer);
    expect_span(env.queue, a.get(), n, 0, 16, value * 1000 + 4, 0);
  }
  const cl_mem to_b = b.get();
  const cl_mutable_dispatch_arg_khr buffer_arg[] = {{0, sizeof to_b, &to_b}};
  const MutableDispatchConfig to_buffer_b = argument_update(command, buffer_arg);
  ASSERT_EQ(update(buffer, {&to_buffer_b}), CL_SUCCESS);
  value = 7;
  ASSERT_EQ(update(buffer, {&values_only}), CL_SUCCESS);
  replay(buffer);
  expect_span(env.queue, b.get(), n, 0, 16, 7004, 0);
  expect_span(env.queue, a.get(), n, 0, 16, 5004, 0);

  // No work at all, then a value, then work again: the value set meanwhile is the one it runs.
  const size_t none = 0, sixteen = 16;
  MutableDispatchConfig empty_range;
  empty_range.command = command;
  empty_range.global_work_size = &none;
  ASSERT_EQ(update(buffer, {&empty_range}), CL_SUCCESS);
  value = 8;
  ASSERT_EQ(update(buffer, {&values_only}), CL_SUCCESS);
  replay(buffer);
  expect_span(env.queue, b.get(), n, 0, 16, 7004, 0);
  MutableDispatchConfig full_range;
  full_range.command = command;
  full_range.global_work_size = &sixteen;
  ASSERT_EQ(update(buffer, {&full_range}), CL_SUCCESS);
  replay(buffer);
  expect_span(env.queue, b.get(), n, 0, 16, 8004, 0);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// A replay enqueued before an update keeps the configuration it was enqueued with.
TEST_P(MutableDispatch, AReplayInFlightKeepsItsConfiguration) {
  const size_t n = 32;
  DeviceBuffer a(env.context, n * 4);
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = finalized_mark(buffer, a.get(), 3, n, 1);
  cl_event gate = user_event(env.context);
  ASSERT_EQ(api.enqueue(0, nullptr, buffer, 1, &gate, nullptr), CL_SUCCESS);
  const cl_int four = 4;
  const cl_mutable_dispatch_arg_khr args[] = {{1, sizeof four, &four}};
  MutableDispatchConfig config = argument_update(command, args);
  ASSERT_EQ(update(buffer, {&config}), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  expect_span(env.queue, a.get(), n, 0, n, 3001, 0);
  replay(buffer);
  expect_span(env.queue, a.get(), n, 0, n, 4001, 0);
  clReleaseEvent(gate);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// Two replays waiting at once, one enqueued before an update and one after, each do their own
// version's work (a GPU replays one graph, brought up to date between the two launches).
TEST_P(MutableDispatch, ReplaysOfTwoVersionsInFlightTogether) {
  const size_t n = 32;
  DeviceBuffer a = zeroed(n), b = zeroed(n);
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = finalized_mark(buffer, a.get(), 3, n, 1);
  const cl_mem to_b = b.get();
  const cl_int five = 5;
  const cl_mutable_dispatch_arg_khr args[] = {{0, sizeof to_b, &to_b}, {1, sizeof five, &five}};
  replays_around_update(buffer, argument_update(command, args));
  expect_span(env.queue, a.get(), n, 0, n, 3001, 0);
  expect_span(env.queue, b.get(), n, 0, n, 5001, 0);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// In a buffer of several commands (one CUDA graph on a GPU), an update changes its own command
// and leaves the others as they were, in every later replay; replays of two versions can wait
// together.
TEST_P(MutableDispatch, UpdatesOfOneCommandAmongSeveral) {
  const size_t n = 48;
  DeviceBuffer a = zeroed(n), b = zeroed(n), c = zeroed(n);
  const std::vector<cl_int> zeros(n, 0);  // to clear a again
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr first = nullptr, second = nullptr;
  const size_t four = 4;
  set_args(mark, a.get(), 1);
  ASSERT_EQ(record(buffer, mark, n, &four, &first), CL_SUCCESS);
  set_args(mark, b.get(), 2);
  ASSERT_EQ(record(buffer, mark, n, &four, &second), CL_SUCCESS);
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  replay(buffer);
  expect_span(env.queue, a.get(), n, 0, n, 1004, 0);
  expect_span(env.queue, b.get(), n, 0, n, 2004, 0);

  const cl_int seven = 7;
  const cl_mutable_dispatch_arg_khr value[] = {{1, sizeof seven, &seven}};
  MutableDispatchConfig config = argument_update(second, value);
  const size_t half = n / 2;
  config.global_work_size = &half;
  ASSERT_EQ(update(buffer, {&config}), CL_SUCCESS);
  ASSERT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  expect_span(env.queue, b.get(), n, 0, half, 7004, 2004);
  expect_span(env.queue, a.get(), n, 0, n, 1004, 0);

  // The first command moves to c; a replay waiting from before the update still writes a.
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, a.get(), CL_TRUE, 0, n * 4, zeros.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  const cl_int nine = 9;
  const cl_mem to_c = c.get();
  const cl_mutable_dispatch_arg_khr move[] = {{0, sizeof to_c, &to_c}, {1, sizeof nine, &nine}};
  replays_around_update(buffer, argument_update(first, move));
  expect_span(env.queue, a.get(), n, 0, n, 1004, 0);
  expect_span(env.queue, c.get(), n, 0, n, 9004, 0);
  expect_span(env.queue, b.get(), n, 0, half, 7004, 2004);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// A command recorded before its arguments are set leaves the buffer finalized but not
// executable until an update sets them; only a mutable command whose arguments may be
// updated can be recorded so.
TEST_P(MutableDispatch, ArgumentsLeftForAnUpdate) {
  const size_t n = 16;
  DeviceBuffer a(env.context, n * 4);
  const cl_mem data = a.get();
  ASSERT_EQ(clSetKernelArg(mark, 0, sizeof data, &data), CL_SUCCESS);  // the value stays unset
  const cl_command_properties_khr arguments[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                 CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  const cl_command_properties_khr range_only[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                  CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, 0};
  cl_command_buffer_khr plain = make(false);
  cl_mutable_command_khr command = nullptr;
  EXPECT_EQ(record(plain, mark, n, nullptr, &command, arguments), CL_INVALID_KERNEL_ARGS) << "not mutable";
  cl_command_buffer_khr buffer = make(true);
  EXPECT_EQ(record(buffer, mark, n, nullptr, nullptr, arguments), CL_INVALID_KERNEL_ARGS) << "no handle";
  EXPECT_EQ(record(buffer, mark, n, nullptr, &command, range_only), CL_INVALID_KERNEL_ARGS);
  ASSERT_EQ(record(buffer, mark, n, nullptr, &command, arguments), CL_SUCCESS);
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  EXPECT_EQ(state(buffer), kCommandBufferStateFinalized);
  EXPECT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  const cl_int seven = 7;
  const cl_mutable_dispatch_arg_khr args[] = {{1, sizeof seven, &seven}};
  MutableDispatchConfig config = argument_update(command, args);
  ASSERT_EQ(update(buffer, {&config}), CL_SUCCESS);
  EXPECT_EQ(state(buffer), cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR));
  replay(buffer);
  auto values = read_buffer<cl_int>(env.queue, a.get(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_GE(values[i], 7001) << i;  // the local size is the device's choice
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
  EXPECT_EQ(api.release(plain), CL_SUCCESS);
}

TEST_P(MutableDispatch, InfoQueries) {
  DeviceBuffer a(env.context, 64 * 4);
  set_args(mark, a.get(), cl_int{0});
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = nullptr, bare = nullptr;
  const cl_command_properties_khr properties[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                  CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, 0};
  const size_t offset[2] = {1, 2}, global[2] = {4, 8}, local[2] = {2, 4};
  ASSERT_EQ(api.ndrange(buffer, nullptr, properties, mark, 2, offset, global, local, 0, nullptr, nullptr, &command),
            CL_SUCCESS);
  ASSERT_EQ(record(buffer, mark, 8, nullptr, &bare), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_command_queue>(api.mutable_info, command, CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR), env.queue);
  EXPECT_EQ(info_value<cl_command_buffer_khr>(api.mutable_info, command, CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR),
            buffer);
  EXPECT_EQ(info_value<cl_command_type>(api.mutable_info, command, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR),
            cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  EXPECT_EQ(info_value<cl_kernel>(api.mutable_info, command, CL_MUTABLE_DISPATCH_KERNEL_KHR), mark);
  EXPECT_EQ(info_value<cl_uint>(api.mutable_info, command, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR), 2u);
  cl_command_properties_khr given[3] = {};
  size_t bytes = 0;
  ASSERT_EQ(api.mutable_info(command, kMutableCommandPropertiesArray, sizeof given, given, &bytes), CL_SUCCESS);
  EXPECT_EQ(bytes, sizeof given);
  EXPECT_EQ(given[0], properties[0]);
  EXPECT_EQ(given[1], properties[1]);
  EXPECT_EQ(given[2], 0u);
  ASSERT_EQ(api.mutable_info(bare, kMutableCommandPropertiesArray, 0, nullptr, &bytes), CL_SUCCESS);
  EXPECT_EQ(bytes, 0u) << "recorded without properties";
  EXPECT_EQ(sizes(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR), std::vector<size_t>({1, 2}));
  EXPECT_EQ(sizes(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR), std::vector<size_t>({4, 8}));
  EXPECT_EQ(sizes(command, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR), std::vector<size_t>({2, 4}));
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  const size_t bigger[2] = {8, 16};
  MutableDispatchConfig config;
  config.command = command;
  config.work_dim = 2;
  config.global_work_size = bigger;
  ASSERT_EQ(update(buffer, {&config}), CL_SUCCESS);
  EXPECT_EQ(sizes(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR), std::vector<size_t>({8, 16}));
  EXPECT_EQ(sizes(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR), std::vector<size_t>({1, 2}));
  cl_uint value = 0;
  EXPECT_EQ(api.mutable_info(command, 0x4321, sizeof value, &value, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(api.mutable_info(command, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, 1, &value, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(api.mutable_info(reinterpret_cast<cl_mutable_command_khr>(env.queue), CL_MUTABLE_DISPATCH_DIMENSIONS_KHR,
                             sizeof value, &value, nullptr),
            CL_INVALID_MUTABLE_COMMAND_KHR);
  EXPECT_EQ(api.mutable_info(nullptr, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof value, &value, nullptr),
            CL_INVALID_MUTABLE_COMMAND_KHR);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

TEST_P(MutableDispatch, RecordingErrors) {
  DeviceBuffer a(env.context, 64 * 4);
  set_args(mark, a.get(), cl_int{0});
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = nullptr;
  const size_t four = 4;
  auto with = [&](std::vector<cl_command_properties_khr> properties, const size_t* local) {
    properties.push_back(0);
    return record(buffer, mark, 16, local, &command, properties.data());
  };
  // Execution info is a valid field no device updates; other bits are not fields.
  EXPECT_EQ(with({CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, CL_MUTABLE_DISPATCH_EXEC_INFO_KHR}, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(with({CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 1 << 9}, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(with({0x4321, 0}, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(with({CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 0, CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 0}, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(with({kMutableDispatchAsserts, 1 << 3}, &four), CL_INVALID_VALUE);
  // Asserting no more work-groups needs the local size the count starts from.
  EXPECT_EQ(with({kMutableDispatchAsserts, kAssertNoAdditionalWorkGroups}, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(with({kMutableDispatchAsserts, kAssertNoAdditionalWorkGroups}, &four), CL_SUCCESS);
  const cl_command_buffer_properties_khr asserting[] = {kCommandBufferMutableDispatchAsserts,
                                                        kAssertNoAdditionalWorkGroups, 0};
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_command_buffer_khr asserted = api.create(1, &env.queue, asserting, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(record(asserted, mark, 16, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(record(asserted, mark, 16, &four, nullptr), CL_SUCCESS);
  // The range's own rules, as for clEnqueueNDRangeKernel.
  EXPECT_EQ(api.ndrange(buffer, nullptr, nullptr, mark, 4, nullptr, &four, nullptr, 0, nullptr, nullptr, &command),
            CL_INVALID_WORK_DIMENSION);
  const size_t three = 3;
  EXPECT_EQ(record(buffer, mark, 16, &three, &command), CL_INVALID_WORK_GROUP_SIZE);
  // Only kernel commands hand out handles.
  const cl_int one = 1;
  EXPECT_EQ(api.fill_buffer(buffer, nullptr, nullptr, a.get(), &one, 4, 0, 64, 0, nullptr, nullptr, &command),
            CL_INVALID_VALUE);
  EXPECT_EQ(api.release(asserted), CL_SUCCESS);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// Every refused update leaves every command of the call as it was.
TEST_P(MutableDispatch, UpdateErrorsChangeNothing) {
  const size_t n = 64;
  DeviceBuffer a = zeroed(n);
  set_args(mark, a.get(), cl_int{5});
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = nullptr, fixed = nullptr;
  const size_t eight = 8;
  ASSERT_EQ(record(buffer, mark, 16, &eight, &command), CL_SUCCESS);
  const cl_command_properties_khr offset_only[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                   CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR, 0};
  ASSERT_EQ(record(buffer, mark, 16, &eight, &fixed, offset_only), CL_SUCCESS);

  const size_t bigger = 32;
  MutableDispatchConfig good;
  good.command = command;
  good.global_work_size = &bigger;
  EXPECT_EQ(update(buffer, {&good}), CL_INVALID_OPERATION) << "still recording";
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);

  cl_uint type = kMutableDispatchConfigType;
  const void* pointer = &good;
  EXPECT_EQ(api.update(buffer, 1, nullptr, &pointer), CL_INVALID_VALUE);
  EXPECT_EQ(api.update(buffer, 1, &type, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(api.update(buffer, 0, &type, &pointer), CL_INVALID_VALUE);
  const cl_uint bad_type = 7;
  EXPECT_EQ(api.update(buffer, 1, &bad_type, &pointer), CL_INVALID_VALUE);
  const void* none = nullptr;
  EXPECT_EQ(api.update(buffer, 1, &type, &none), CL_INVALID_VALUE);
  EXPECT_EQ(api.update(nullptr, 1, &type, &pointer), CL_INVALID_COMMAND_BUFFER_KHR);

  // Each bad config follows a good one, which must not be applied.
  auto refused = [&](MutableDispatchConfig bad) { return update(buffer, {&good, &bad}); };
  MutableDispatchConfig bad = good;
  bad.command = reinterpret_cast<cl_mutable_command_khr>(env.queue);
  EXPECT_EQ(refused(bad), CL_INVALID_MUTABLE_COMMAND_KHR);
  bad = MutableDispatchConfig{};
  bad.command = fixed;
  bad.global_work_size = &bigger;
  EXPECT_EQ(refused(bad), CL_INVALID_OPERATION) << "the size is not updatable";
  bad = good;
  bad.work_dim = 2;
  EXPECT_EQ(refused(bad), CL_INVALID_OPERATION) << "another work_dim";
  const size_t uneven = 60;
  bad = good;
  bad.global_work_size = &uneven;
  EXPECT_EQ(refused(bad), CL_INVALID_OPERATION) << "no longer uniform";
  const size_t three = 3;
  bad = good;
  bad.local_work_size = &three;
  bad.global_work_size = &bigger;
  EXPECT_EQ(refused(bad), CL_INVALID_OPERATION) << "no longer uniform";
  const cl_int value = 9;
  const cl_mutable_dispatch_arg_khr past_the_end = {2, sizeof value, &value};
  bad = good;
  bad.num_args = 1;
  bad.arg_list = &past_the_end;
  EXPECT_EQ(refused(bad), CL_INVALID_ARG_INDEX);
  const cl_mutable_dispatch_arg_khr wrong_size = {1, 2, &value};
  bad.arg_list = &wrong_size;
  EXPECT_EQ(refused(bad), CL_INVALID_ARG_SIZE);
  bad = good;
  bad.num_args = 1;
  EXPECT_EQ(refused(bad), CL_INVALID_VALUE) << "num_args without arg_list";
  const cl_mutable_dispatch_exec_info_khr exec_info = {CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 0, nullptr};
  bad = good;
  bad.num_exec_infos = 1;
  bad.exec_info_list = &exec_info;
  EXPECT_EQ(refused(bad), CL_INVALID_OPERATION) << "execution info is not updatable";
  const cl_mutable_dispatch_arg_khr svm_past_the_end = {99, 0, &value};
  bad = good;
  bad.num_svm_args = 1;
  bad.arg_svm_list = &svm_past_the_end;
  EXPECT_EQ(refused(bad), CL_INVALID_ARG_INDEX) << "an SVM argument past the kernel's";

  EXPECT_EQ(sizes(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR), std::vector<size_t>({16}));
  replay(buffer);
  expect_span(env.queue, a.get(), n, 0, 16, 5008, 0);

  // A handle from a buffer that is not mutable names a command that cannot change.
  cl_command_buffer_khr plain = make(false);
  cl_mutable_command_khr plain_command = nullptr;
  ASSERT_EQ(record(plain, mark, 16, &eight, &plain_command), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(api.mutable_info, plain_command, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR), 1u);
  ASSERT_EQ(api.finalize(plain), CL_SUCCESS);
  good.command = plain_command;
  EXPECT_EQ(update(plain, {&good}), CL_INVALID_OPERATION);
  good.command = command;
  EXPECT_EQ(update(plain, {&good}), CL_INVALID_OPERATION);
  EXPECT_EQ(api.release(plain), CL_SUCCESS);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// Two configs naming one command apply in order; updates persist across replays.
TEST_P(MutableDispatch, RepeatedUpdatesOfOneCommandApplyInOrder) {
  const size_t n = 32;
  DeviceBuffer a(env.context, n * 4);
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = finalized_mark(buffer, a.get(), 1, n, 1);
  const cl_int six = 6;
  const cl_mutable_dispatch_arg_khr value[] = {{1, sizeof six, &six}};
  const size_t two = 2;
  MutableDispatchConfig first = argument_update(command, value), second;
  second.command = command;
  second.local_work_size = &two;
  ASSERT_EQ(update(buffer, {&first, &second}), CL_SUCCESS);
  for (int r = 0; r < 3; ++r) {
    replay(buffer);
    expect_span(env.queue, a.get(), n, 0, n, 6002, 0);
  }
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

// Releasing the buffer ends its commands' handles at once; a replay still waiting runs as
// it was enqueued.
TEST_P(MutableDispatch, HandlesEndWithTheBuffer) {
  const size_t n = 16;
  DeviceBuffer a(env.context, n * 4);
  cl_command_buffer_khr buffer = make(true);
  cl_mutable_command_khr command = finalized_mark(buffer, a.get(), 8, n, 2);
  cl_event gate = user_event(env.context);
  ASSERT_EQ(api.enqueue(0, nullptr, buffer, 1, &gate, nullptr), CL_SUCCESS);
  ASSERT_EQ(api.release(buffer), CL_SUCCESS);
  cl_uint dimensions = 0;
  EXPECT_EQ(api.mutable_info(command, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dimensions, &dimensions, nullptr),
            CL_INVALID_MUTABLE_COMMAND_KHR);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  expect_span(env.queue, a.get(), n, 0, n, 8002, 0);
  clReleaseEvent(gate);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, MutableDispatch, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace

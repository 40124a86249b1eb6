// Two GPUs in one context (skipped where cucl lists fewer): a buffer written by a kernel
// on one GPU is read by a kernel on the other in every order of queues and events, kernels
// run on both at once, chains alternate between them without the host waiting, a dependency
// between their queues is resolved on the devices, and a buffer may be released while the
// other GPU still uses it.
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include <CL/cl_ext.h>

#include "event_test_helpers.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

constexpr const char* kSource = R"CL(
kernel void add(global uint* data, uint value) { data[get_global_id(0)] += value; }
kernel void add_from(global uint* data, global const uint* from) {
  size_t i = get_global_id(0);
  data[i] += from[i];
}
// Takes `steps` dependent multiply-adds (tens of milliseconds for 1 << 23) before it adds.
kernel void slow_add(global uint* data, uint value, uint steps, global uint* scratch) {
  size_t i = get_global_id(0);
  uint x = data[i];
  for (uint k = 0; k < steps; ++k) x = x * 1664525u + 1013904223u;
  scratch[i] = x;
  data[i] += value;
}
)CL";

constexpr size_t kCount = 1 << 16;  // work-items, and uints per buffer
constexpr cl_uint kSlowSteps = 1u << 23;

// The context of the first two cucl GPUs, a program built for both, and queues.
class TwoGpus : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<cl_device_id> gpus = cucl_devices(CL_DEVICE_TYPE_GPU);
    if (gpus.size() < 2) GTEST_SKIP() << "needs two GPUs: cucl lists " << gpus.size();
    devices = {gpus[0], gpus[1]};
    cl_int status = CL_OUT_OF_RESOURCES;
    context = clCreateContext(nullptr, 2, devices.data(), nullptr, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    const char* source = kSource;
    program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(program, 2, devices.data(), "", nullptr, nullptr), CL_SUCCESS)
        << build_log(program, devices[0]) << build_log(program, devices[1]);
    for (auto [kernel, name] : {std::pair{&add, "add"}, std::pair{&add_from, "add_from"},
                                std::pair{&slow_add, "slow_add"}}) {
      *kernel = clCreateKernel(program, name, &status);
      ASSERT_EQ(status, CL_SUCCESS) << name;
    }
  }
  void TearDown() override {
    for (cl_command_queue queue : queues) {
      EXPECT_EQ(clFinish(queue), CL_SUCCESS);
      clReleaseCommandQueue(queue);
    }
    for (cl_kernel kernel : {add, add_from, slow_add}) {
      if (kernel) clReleaseKernel(kernel);
    }
    if (program) clReleaseProgram(program);
    if (context) clReleaseContext(context);
  }

  // A queue on GPU `gpu` (0 or 1), released at the end of the test.
  cl_command_queue queue_on(int gpu, cl_command_queue_properties properties = 0) {
    queues.push_back(make_queue(context, devices[gpu], properties));
    return queues.back();
  }
  Mem uint_buffer(cl_uint value, size_t count = kCount) {
    std::vector<cl_uint> values(count, value);
    return make_buffer(context, CL_MEM_COPY_HOST_PTR, count * sizeof(cl_uint), values.data());
  }
  // Launches over kCount work-items and returns the event (the caller releases it).
  cl_event launch(cl_command_queue queue, cl_kernel kernel, const std::vector<cl_event>& wait) {
    cl_event event = nullptr;
    size_t global = kCount;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, static_cast<cl_uint>(wait.size()),
                                     wait.empty() ? nullptr : wait.data(), &event),
              CL_SUCCESS);
    return event;
  }
  cl_event add_to(cl_command_queue queue, cl_mem data, cl_uint value, const std::vector<cl_event>& wait = {}) {
    set_args(add, data, value);
    return launch(queue, add, wait);
  }
  cl_event slow_add_to(cl_command_queue queue, cl_mem data, cl_uint value, cl_mem scratch,
                       const std::vector<cl_event>& wait = {}) {
    set_args(slow_add, data, value, kSlowSteps, scratch);
    return launch(queue, slow_add, wait);
  }
  std::vector<cl_uint> read(cl_command_queue queue, cl_mem buffer) { return read_buffer<cl_uint>(queue, buffer, kCount); }

  std::array<cl_device_id, 2> devices{};
  cl_context context = nullptr;
  cl_program program = nullptr;
  cl_kernel add = nullptr, add_from = nullptr, slow_add = nullptr;
  std::vector<cl_command_queue> queues;
};

// How the second kernel is ordered after the first: by its wait list, by clFinish of the
// first queue, or by a blocking read on the first queue in between.
enum class Order { WaitList, Finish, BlockingRead };

struct Case {
  int writer;  // the GPU of the first kernel; the second runs on the other
  cl_command_queue_properties properties;
  Order order;
};

class TwoGpusInEveryOrder : public TwoGpus, public ::testing::WithParamInterface<Case> {};

TEST_P(TwoGpusInEveryOrder, KernelOnOneGpuSeesTheOthersWrite) {
  const Case c = GetParam();
  cl_command_queue first = queue_on(c.writer, c.properties), second = queue_on(1 - c.writer, c.properties);
  Mem data = uint_buffer(1);
  cl_event written = add_to(first, data, 10);
  std::vector<cl_event> wait;
  if (c.order == Order::WaitList) wait.push_back(written);
  if (c.order == Order::Finish) {
    ASSERT_EQ(clFinish(first), CL_SUCCESS);
  }
  if (c.order == Order::BlockingRead) {
    EXPECT_EQ(read(first, data), std::vector<cl_uint>(kCount, 11));
  }
  cl_event second_write = add_to(second, data, 100, wait);
  ASSERT_EQ(clWaitForEvents(1, &second_write), CL_SUCCESS);
  EXPECT_EQ(read(first, data), std::vector<cl_uint>(kCount, 111));
  EXPECT_EQ(read(second, data), std::vector<cl_uint>(kCount, 111));
  release_all({written, second_write});
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const char* orders[] = {"WaitList", "Finish", "BlockingRead"};
  return std::string(info.param.writer ? "Gpu1First" : "Gpu0First") +
         (info.param.properties ? "OutOfOrder" : "InOrder") + orders[static_cast<int>(info.param.order)];
}

std::vector<Case> every_case() {
  std::vector<Case> cases;
  for (int writer : {0, 1}) {
    for (cl_command_queue_properties properties : {cl_command_queue_properties{0}, kOoo}) {
      for (Order order : {Order::WaitList, Order::Finish, Order::BlockingRead}) cases.push_back({writer, properties, order});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Orders, TwoGpusInEveryOrder, ::testing::ValuesIn(every_case()), case_name);

// 40 read-modify-write kernels alternating between the GPUs, each waiting for the one
// before by its event only; the host waits once, at the end.
TEST_F(TwoGpus, ChainAlternatingBetweenTheGpus) {
  constexpr cl_uint kLinks = 40;
  cl_command_queue q[2] = {queue_on(0), queue_on(1)};
  Mem data = uint_buffer(0);
  cl_event previous = nullptr;
  for (cl_uint link = 0; link < kLinks; ++link) {
    std::vector<cl_event> wait;
    if (previous) wait.push_back(previous);
    cl_event next = add_to(q[link % 2], data, link + 1, wait);
    if (previous) clReleaseEvent(previous);
    previous = next;
  }
  ASSERT_EQ(clWaitForEvents(1, &previous), CL_SUCCESS);
  clReleaseEvent(previous);
  EXPECT_EQ(read(q[0], data), std::vector<cl_uint>(kCount, kLinks * (kLinks + 1) / 2));
}

// Each GPU works on its own buffer at the same time, then adds the other's into its own.
TEST_F(TwoGpus, KernelsOnBothGpusAtOnceThenEachReadsTheOthers) {
  cl_command_queue q0 = queue_on(0), q1 = queue_on(1);
  Mem a = uint_buffer(0), b = uint_buffer(0), scratch_a = uint_buffer(0), scratch_b = uint_buffer(0);
  cl_event on0 = slow_add_to(q0, a, 3, scratch_a), on1 = slow_add_to(q1, b, 5, scratch_b);
  ASSERT_EQ(clFlush(q0), CL_SUCCESS);
  ASSERT_EQ(clFlush(q1), CL_SUCCESS);
  // a += b on GPU 0 and b += a on GPU 1 would race; each sums into a third buffer instead.
  Mem sum0 = uint_buffer(0), sum1 = uint_buffer(0);
  cl_mem s0 = sum0, s1 = sum1, ma = a, mb = b;
  std::vector<cl_event> both{on0, on1};
  set_args(add_from, s0, ma);
  cl_event e0 = launch(q0, add_from, both);
  set_args(add_from, s0, mb);
  cl_event e1 = launch(q0, add_from, {e0});
  set_args(add_from, s1, mb);
  cl_event e2 = launch(q1, add_from, both);
  set_args(add_from, s1, ma);
  cl_event e3 = launch(q1, add_from, {e2});
  ASSERT_EQ(clFinish(q0), CL_SUCCESS);
  ASSERT_EQ(clFinish(q1), CL_SUCCESS);
  EXPECT_EQ(read(q1, sum0), std::vector<cl_uint>(kCount, 8));
  EXPECT_EQ(read(q0, sum1), std::vector<cl_uint>(kCount, 8));
  release_all({on0, on1, e0, e1, e2, e3});
}

// A command waiting for a long kernel of the other GPU is handed to its device before that
// kernel ends (the wait is on the devices), and still sees its result.
TEST_F(TwoGpus, DependencyOnTheOtherGpuIsResolvedOnTheDevices) {
  cl_command_queue q0 = queue_on(0), q1 = queue_on(1);
  Mem data = uint_buffer(1), scratch = uint_buffer(0), other = uint_buffer(7);
  // Make GPU 1 hold `data` first, so that only the long kernel's bytes must move later.
  cl_event warm = add_to(q1, data, 0);
  ASSERT_EQ(clWaitForEvents(1, &warm), CL_SUCCESS);
  cl_event slow = slow_add_to(q0, other, 1, scratch);
  cl_event after = add_to(q1, data, 2, {slow});  // no memory of `slow` to move
  cl_int status = CL_QUEUED, slow_status = CL_QUEUED;
  ASSERT_EQ(clGetEventInfo(after, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetEventInfo(slow, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof slow_status, &slow_status, nullptr),
            CL_SUCCESS);
  if (slow_status > CL_COMPLETE) {
    EXPECT_LE(status, CL_SUBMITTED) << "the command on GPU 1 waited on the host for GPU 0's kernel";
  }
  ASSERT_EQ(clWaitForEvents(1, &after), CL_SUCCESS);
  cl_int final_slow = CL_QUEUED;
  clGetEventInfo(slow, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof final_slow, &final_slow, nullptr);
  EXPECT_EQ(final_slow, CL_COMPLETE) << "an event is complete only after the events it waited for";
  EXPECT_EQ(read(q1, data), std::vector<cl_uint>(kCount, 3));
  EXPECT_EQ(read(q1, other), std::vector<cl_uint>(kCount, 8));
  release_all({warm, slow, after});
}

// The same when the later kernel reads what the long one writes: the copy between the GPUs
// waits for it on the device.
TEST_F(TwoGpus, CopyBetweenTheGpusWaitsForTheLongWriter) {
  cl_command_queue q0 = queue_on(0), q1 = queue_on(1);
  Mem data = uint_buffer(1), scratch = uint_buffer(0);
  for (int round = 0; round < 3; ++round) {
    cl_event slow = slow_add_to(q0, data, 10, scratch);
    cl_event after = add_to(q1, data, 100, {slow});
    ASSERT_EQ(clWaitForEvents(1, &after), CL_SUCCESS);
    release_all({slow, after});
  }
  EXPECT_EQ(read(q0, data), std::vector<cl_uint>(kCount, 1 + 3 * 110));
}

// The application lets go of a buffer while a kernel on the other GPU still uses it.
TEST_F(TwoGpus, BufferReleasedWhileTheOtherGpuUsesIt) {
  cl_command_queue q0 = queue_on(0), q1 = queue_on(1);
  Mem result = uint_buffer(0), scratch = uint_buffer(0);
  {
    Mem source = uint_buffer(0);
    cl_event written = slow_add_to(q0, source, 42, scratch);
    cl_mem r = result, s = source;
    set_args(add_from, r, s);
    cl_event read_it = launch(q1, add_from, {written});
    release_all({written, read_it});
  }  // the application's last reference to `source` goes here
  ASSERT_EQ(clFinish(q1), CL_SUCCESS);
  ASSERT_EQ(clFinish(q0), CL_SUCCESS);
  EXPECT_EQ(read(q0, result), std::vector<cl_uint>(kCount, 42));
}

// clEnqueueMigrateMemObjects between the GPUs, then each reads the other's write.
TEST_F(TwoGpus, MigrateMovesTheCurrentCopyBetweenTheGpus) {
  cl_command_queue q0 = queue_on(0), q1 = queue_on(1);
  Mem data = uint_buffer(5);
  cl_event written = add_to(q0, data, 1);
  cl_mem memory = data;
  cl_event migrated = nullptr;
  ASSERT_EQ(clEnqueueMigrateMemObjects(q1, 1, &memory, 0, 1, &written, &migrated), CL_SUCCESS);
  cl_event added = add_to(q1, data, 10, {migrated});
  ASSERT_EQ(clWaitForEvents(1, &added), CL_SUCCESS);
  EXPECT_EQ(read(q0, data), std::vector<cl_uint>(kCount, 16));
  release_all({written, migrated, added});
}

// A large buffer (larger than one staging chunk of the path through host memory) written
// on one GPU arrives whole on the other, and sub-buffers written on each GPU both survive.
TEST_F(TwoGpus, LargeBufferAndSubBuffersWrittenOnEachGpu) {
  cl_command_queue q0 = queue_on(0), q1 = queue_on(1);
  constexpr size_t kBig = (96u << 20) / sizeof(cl_uint);
  std::vector<cl_uint> values(kBig);
  for (size_t i = 0; i < kBig; ++i) values[i] = static_cast<cl_uint>(i * 2654435761u);
  Mem big = make_buffer(context, 0, kBig * sizeof(cl_uint));
  ASSERT_EQ(clEnqueueWriteBuffer(q0, big, CL_TRUE, 0, kBig * sizeof(cl_uint), values.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read_buffer<cl_uint>(q1, big, kBig), values);

  const size_t half = kCount / 2 * sizeof(cl_uint);
  Mem data = uint_buffer(0);
  Mem lower = make_sub_buffer(data, 0, 0, half), upper = make_sub_buffer(data, 0, half, half);
  cl_uint one = 1, two = 2;
  cl_event e0 = nullptr, e1 = nullptr;
  ASSERT_EQ(clEnqueueFillBuffer(q0, lower, &one, sizeof one, 0, half, 0, nullptr, &e0), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillBuffer(q1, upper, &two, sizeof two, 0, half, 0, nullptr, &e1), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &e0), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &e1), CL_SUCCESS);
  std::vector<cl_uint> expected(kCount, 2);
  std::fill(expected.begin(), expected.begin() + kCount / 2, 1);
  EXPECT_EQ(read(q0, data), expected);
  EXPECT_EQ(read(q1, data), expected);
  release_all({e0, e1});
}

// Each GPU is its own device to the application: a context of type GPU takes both, and
// their UUIDs and PCI addresses differ.
TEST_F(TwoGpus, EveryGpuIsItsOwnDeviceWithItsOwnIdentity) {
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_context of_type = clCreateContextFromType(nullptr, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  cl_uint members = 0;
  EXPECT_EQ(clGetContextInfo(of_type, CL_CONTEXT_NUM_DEVICES, sizeof members, &members, nullptr), CL_SUCCESS);
  EXPECT_EQ(members, cucl_devices(CL_DEVICE_TYPE_GPU).size());
  clReleaseContext(of_type);

  std::array<std::array<cl_uchar, CL_UUID_SIZE_KHR>, 2> uuids{};
  std::array<cl_device_pci_bus_info_khr, 2> buses{};
  for (int gpu : {0, 1}) {
    ASSERT_EQ(clGetDeviceInfo(devices[gpu], CL_DEVICE_UUID_KHR, CL_UUID_SIZE_KHR, uuids[gpu].data(), nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clGetDeviceInfo(devices[gpu], CL_DEVICE_PCI_BUS_INFO_KHR, sizeof buses[gpu], &buses[gpu], nullptr),
              CL_SUCCESS);
  }
  EXPECT_NE(uuids[0], uuids[1]);
  EXPECT_FALSE(buses[0].pci_domain == buses[1].pci_domain && buses[0].pci_bus == buses[1].pci_bus &&
               buses[0].pci_device == buses[1].pci_device && buses[0].pci_function == buses[1].pci_function);
}

}  // namespace

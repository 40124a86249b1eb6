// Command buffers on the GPU replay as one CUDA graph launch (CUCL_CUDA_GRAPHS, on by
// default): every replay does all of its work again, in the recorded order, and gives the
// same bytes as the operation-by-operation replay that CUCL_CUDA_GRAPHS=0 and lists a graph
// cannot hold (printf) take.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "support/command_buffer_api.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;

namespace {

constexpr size_t kItems = 1000;  // not a multiple of the work-group size: edge groups too

const char* const kSource = R"(
  kernel void twice_plus_index(global const int* in, global int* out) {
    size_t i = get_global_id(0);
    out[i] = 2 * in[i] + (int)i;
  }
  kernel void add_one(global int* data) { data[get_global_id(0)] += 1; }
  kernel void add_one_and_say(global int* data, int never) {
    data[get_global_id(0)] += 1;
    if (get_global_id(0) == never) printf("never printed\n");
  })";

// Sets CUCL_CUDA_GRAPHS for as long as it lives.
class GraphSetting {
 public:
  explicit GraphSetting(const char* value) { setenv("CUCL_CUDA_GRAPHS", value, 1); }
  ~GraphSetting() { unsetenv("CUCL_CUDA_GRAPHS"); }
};

class CudaGraphReplay : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!lists_extension(gpu, "cl_khr_command_buffer")) GTEST_SKIP() << "no cl_khr_command_buffer";
    api = CommandBufferApi::load();
    program = std::make_unique<BuiltProgram>(*env, kSource, "-cl-std=CL3.0");  // edge groups
    ASSERT_TRUE(*program);
  }
  cl_command_buffer_khr make() {
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_command_buffer_khr buffer = api.create(1, &env->queue, nullptr, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return buffer;
  }
  void kernel(cl_command_buffer_khr buffer, const char* name, std::initializer_list<cl_mem> args) {
    cl_kernel k = program->kernel(name);
    cl_uint index = 0;
    for (cl_mem arg : args) ASSERT_EQ(clSetKernelArg(k, index++, sizeof arg, &arg), CL_SUCCESS);
    const cl_int beyond_the_range = static_cast<cl_int>(kItems);  // add_one_and_say's `never`
    if (index == 1 && std::string(name) == "add_one_and_say") {
      ASSERT_EQ(clSetKernelArg(k, index, sizeof beyond_the_range, &beyond_the_range), CL_SUCCESS);
    }
    const size_t local = 64;
    ASSERT_EQ(api.ndrange(buffer, nullptr, nullptr, k, 1, nullptr, &kItems, &local, 0, nullptr, nullptr, nullptr),
              CL_SUCCESS);
  }
  void replay(cl_command_buffer_khr buffer, int times) {
    for (int i = 0; i < times; ++i) ASSERT_EQ(api.enqueue(0, nullptr, buffer, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(env->queue), CL_SUCCESS);
  }

  // Fill, kernel, copy, rect copy and an accumulating kernel, replayed `times` times; what
  // the last buffer holds.
  std::vector<cl_int> pipeline_result(int times) {
    DeviceBuffer in(context(), kItems * 4), mid(context(), kItems * 4), copy(context(), kItems * 4);
    std::vector<cl_int> zeros(kItems, 0);
    DeviceBuffer total(context(), kItems * 4, zeros.data());
    cl_command_buffer_khr buffer = make();
    const cl_int seven = 7;
    EXPECT_EQ(api.fill_buffer(buffer, nullptr, nullptr, in.get(), &seven, 4, 0, kItems * 4, 0, nullptr, nullptr,
                              nullptr),
              CL_SUCCESS);
    kernel(buffer, "twice_plus_index", {in.get(), mid.get()});
    EXPECT_EQ(api.copy_buffer(buffer, nullptr, nullptr, mid.get(), copy.get(), 0, 0, kItems * 4, 0, nullptr, nullptr,
                              nullptr),
              CL_SUCCESS);
    // Rows of 40 bytes of `copy` land in `mid` shifted by one row (its first row keeps the kernel's).
    const size_t origin[3] = {0, 0, 0}, shifted[3] = {0, 1, 0}, region[3] = {40, kItems * 4 / 40 - 1, 1};
    EXPECT_EQ(api.copy_buffer_rect(buffer, nullptr, nullptr, copy.get(), mid.get(), origin, shifted, region, 40, 0, 40,
                                   0, 0, nullptr, nullptr, nullptr),
              CL_SUCCESS);
    kernel(buffer, "add_one", {total.get()});
    EXPECT_EQ(api.finalize(buffer), CL_SUCCESS);
    replay(buffer, times);
    auto shifted_values = read_buffer<cl_int>(env->queue, mid.get(), kItems);
    auto totals = read_buffer<cl_int>(env->queue, total.get(), kItems);
    EXPECT_EQ(api.release(buffer), CL_SUCCESS);
    shifted_values.insert(shifted_values.end(), totals.begin(), totals.end());
    return shifted_values;
  }

  CommandBufferApi api;
  std::unique_ptr<BuiltProgram> program;
};

TEST_F(CudaGraphReplay, EveryReplayRunsTheWholeListInOrder) {
  const int times = 50;
  const std::vector<cl_int> result = pipeline_result(times);
  size_t wrong = 0;
  for (size_t i = 0; i < kItems; ++i) {
    const size_t source = i < 10 ? i : i - 10;  // one row of 10 ints back
    wrong += result[i] != 14 + static_cast<cl_int>(source);
    wrong += result[kItems + i] != times;
  }
  EXPECT_EQ(wrong, 0u);
}

TEST_F(CudaGraphReplay, GraphAndOperationByOperationReplaysAgree) {
  const std::vector<cl_int> as_graph = pipeline_result(3);
  std::vector<cl_int> one_by_one;
  {
    GraphSetting off("0");
    one_by_one = pipeline_result(3);
  }
  EXPECT_EQ(as_graph, one_by_one);
}

// printf's records are read by the host after the kernel: such a list replays operation by
// operation, and still runs every time.
TEST_F(CudaGraphReplay, ListsWithPrintfStillReplay) {
  std::vector<cl_int> zeros(kItems, 0);
  DeviceBuffer total(context(), kItems * 4, zeros.data());
  cl_command_buffer_khr buffer = make();
  kernel(buffer, "add_one_and_say", {total.get()});
  kernel(buffer, "add_one", {total.get()});
  ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  replay(buffer, 4);
  const auto totals = read_buffer<cl_int>(env->queue, total.get(), kItems);
  size_t wrong = 0;
  for (cl_int value : totals) wrong += value != 8;
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(api.release(buffer), CL_SUCCESS);
}

}  // namespace

// Mutable-dispatch updates between replays. An update whose replaced kernels each still make
// as many CUDA launches is written into their graph nodes; one that changes how many (an
// uneven range launches its full and its edge groups apart) captures the list again. Either way each
// replay runs the version of the list it was enqueued with, checked against a model of
// the list run on the host.
namespace updates {

const char* const kSource = R"(
  kernel void add(global int* data, int amount) { data[get_global_id(0)] += amount; }
  kernel void add_with_index(global int* data, int amount) {
    size_t i = get_global_id(0);
    data[i] += amount + (int)i;
  })";

constexpr size_t kSpan = 2048;   // ints per buffer: room for every range below
constexpr size_t kFixed = 1024;  // the range of the kernels never updated

// The updated command's configuration.
struct Dispatch {
  cl_mem data;
  cl_int amount;
  size_t offset, global, local;
};

// A mutable buffer of four commands: add(a, 1), the updated add_with_index, a copy of a's
// first kFixed ints into c, add(a, 100); and the model of what its replays leave.
class CudaGraphReplayUpdates : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!lists_extension(gpu, "cl_khr_command_buffer_mutable_dispatch")) {
      GTEST_SKIP() << "no cl_khr_command_buffer_mutable_dispatch";
    }
    api = CommandBufferApi::load();
    program = std::make_unique<BuiltProgram>(*env, kSource, "-cl-std=CL3.0");  // uneven ranges
    ASSERT_TRUE(*program);
    const std::vector<cl_int> zeros(kSpan, 0);
    for (auto& memory : memories) {
      memory = std::make_unique<DeviceBuffer>(context(), kSpan * 4, zeros.data());
      expected[memory->get()] = zeros;
    }
  }
  void TearDown() override {
    if (buffer) {
      EXPECT_EQ(api.release(buffer), CL_SUCCESS);
    }
  }

  // Records and finalizes the list, the updated command with `initial`.
  void build(const Dispatch& initial) {
    const cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR,
                                                           0};
    cl_int status = CL_OUT_OF_RESOURCES;
    buffer = api.create(1, &env->queue, properties, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    cl_kernel add = program->kernel("add");
    cl_kernel add_with_index = program->kernel("add_with_index");
    record(add, {a(), 1, 0, kFixed, 64}, nullptr);
    current = initial;
    record(add_with_index, current, &updated);
    ASSERT_EQ(api.copy_buffer(buffer, nullptr, nullptr, a(), c(), 0, 0, kFixed * 4, 0, nullptr, nullptr, nullptr),
              CL_SUCCESS);
    record(add, {a(), 100, 0, kFixed, 64}, nullptr);
    ASSERT_EQ(api.finalize(buffer), CL_SUCCESS);
  }

  cl_mem a() const { return memories[0]->get(); }
  cl_mem b() const { return memories[1]->get(); }
  cl_mem other_b() const { return memories[2]->get(); }
  cl_mem c() const { return memories[3]->get(); }

  void record(cl_kernel kernel, const Dispatch& dispatch, cl_mutable_command_khr* handle) {
    set_args(kernel, dispatch.data, dispatch.amount);
    ASSERT_EQ(api.ndrange(buffer, nullptr, nullptr, kernel, 1, &dispatch.offset, &dispatch.global, &dispatch.local, 0,
                          nullptr, nullptr, handle),
              CL_SUCCESS);
  }
  // A new version of the list, with `next` for the updated command.
  void update(const Dispatch& next) {
    const cl_mutable_dispatch_arg_khr arguments[] = {{0, sizeof next.data, &next.data},
                                                     {1, sizeof next.amount, &next.amount}};
    MutableDispatchConfig config;
    config.command = updated;
    config.num_args = 2;
    config.work_dim = 1;
    config.arg_list = arguments;
    config.global_work_offset = &next.offset;
    config.global_work_size = &next.global;
    config.local_work_size = &next.local;
    const cl_uint type = kMutableDispatchConfigType;
    const void* pointer = &config;
    ASSERT_EQ(api.update(buffer, 1, &type, &pointer), CL_SUCCESS);
    current = next;
  }
  // One replay on `queue` of the list as it is now, and what it does in the model.
  void replay(cl_command_queue queue, cl_uint waits = 0, const cl_event* wait_list = nullptr) {
    ASSERT_EQ(api.enqueue(1, &queue, buffer, waits, wait_list, nullptr), CL_SUCCESS);
    enqueued.push_back(current);
  }
  // The model runs the replays enqueued so far (what they leave does not depend on their order).
  void run_in_model() {
    for (const Dispatch& dispatch : enqueued) {
      std::vector<cl_int>& first = expected[a()];
      for (size_t i = 0; i < kFixed; ++i) first[i] += 1;
      std::vector<cl_int>& data = expected[dispatch.data];
      for (size_t i = dispatch.offset; i < dispatch.offset + dispatch.global; ++i) {
        data[i] += dispatch.amount + static_cast<cl_int>(i);
      }
      std::copy(first.begin(), first.begin() + kFixed, expected[c()].begin());
      for (size_t i = 0; i < kFixed; ++i) first[i] += 100;
    }
    enqueued.clear();
  }
  // Every buffer holds what the model says; `when` names the step in the failure.
  void expect_model(const std::string& when) {
    ASSERT_EQ(clFinish(env->queue), CL_SUCCESS);
    run_in_model();
    const char* names[] = {"a", "b", "other b", "c"};
    for (size_t m = 0; m < memories.size(); ++m) {
      const std::vector<cl_int> values = read_buffer<cl_int>(env->queue, memories[m]->get(), kSpan);
      const std::vector<cl_int>& model = expected[memories[m]->get()];
      size_t wrong = 0, first_wrong = kSpan;
      for (size_t i = 0; i < kSpan; ++i) {
        if (values[i] == model[i]) continue;
        ++wrong;
        first_wrong = std::min(first_wrong, i);
      }
      EXPECT_EQ(wrong, 0u) << names[m] << " after " << when << ", first at " << first_wrong << ": "
                           << (wrong ? values[first_wrong] : 0) << " instead of " << (wrong ? model[first_wrong] : 0);
    }
  }

  CommandBufferApi api;
  std::unique_ptr<BuiltProgram> program;
  std::array<std::unique_ptr<DeviceBuffer>, 4> memories;  // a, b, other b, c
  std::map<cl_mem, std::vector<cl_int>> expected;
  cl_command_buffer_khr buffer = nullptr;
  cl_mutable_command_khr updated = nullptr;
  Dispatch current{};
  std::vector<Dispatch> enqueued;  // not yet in the model
};

// Uniform ranges (one launch each): the updated kernel's buffer, scalar, offset, size and
// work-group size change between replays, the kernels around it and the copy stay.
TEST_F(CudaGraphReplayUpdates, UpdatedKernelsRunWithTheirNewArgumentsAndRange) {
  build({b(), 5, 0, 512, 64});
  replay(queue());
  expect_model("the first replay");
  for (int i = 0; i < 12; ++i) {
    const size_t local = i % 3 == 2 ? 32 : 64;
    update({i % 2 ? other_b() : b(), 7 * i + 3, 64 * static_cast<size_t>(i % 3), local * (2 + i % 4), local});
    replay(queue());
    replay(queue());
    expect_model("update " + std::to_string(i));
  }
}

// Replays of many versions queued at once: each runs with what its version had, whatever
// later updates set in the graph before it ran.
TEST_F(CudaGraphReplayUpdates, ReplaysInFlightKeepTheirVersion) {
  build({b(), 5, 0, 512, 64});
  for (int i = 0; i < 40; ++i) {
    update({i % 3 ? b() : other_b(), i + 1, static_cast<size_t>(64 * (i % 5)), static_cast<size_t>(64 * (1 + i % 7)),
            64});
    replay(queue());
    if (i % 10 == 0) replay(queue());
  }
  expect_model("40 updates in flight");
}

// An uneven range launches its full groups and its edge group apart, a range smaller than
// one group only the edge group (an update cannot make a range uniform or uneven): updates
// that change the launch count capture the list again, those that keep it set the nodes.
TEST_F(CudaGraphReplayUpdates, RangesThatChangeTheLaunchCountAreCapturedAgain) {
  build({b(), 5, 0, 1000, 64});  // two launches
  replay(queue());
  expect_model("the first replay");
  const Dispatch steps[] = {
      {b(), 11, 0, 40, 64},          // one
      {b(), 12, 3, 50, 64},          // one
      {other_b(), 13, 0, 1001, 64},  // two
      {other_b(), 14, 0, 1000, 32},  // two: 31 full groups of 32 and an edge group of 8
      {b(), 15, 64, 100, 128},       // one
      {b(), 15, 64, 100, 128},       // the same configuration: a new version all the same
  };
  for (const Dispatch& step : steps) {
    update(step);
    replay(queue());
    expect_model("a range of " + std::to_string(step.global) + " in groups of " + std::to_string(step.local));
    replay(queue());
    expect_model("the replay after it");
  }
}

// A replay held back by its wait list reaches the GPU after a replay of a newer version on
// another queue, and still runs its own version: the graph goes back to it.
TEST_F(CudaGraphReplayUpdates, ALateReplayOfAnOlderVersionRunsThatVersion) {
  cl_int status = CL_SUCCESS;
  cl_command_queue other = clCreateCommandQueue(context(), gpu, 0, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  build({b(), 5, 0, 512, 64});
  update({b(), 21, 0, 512, 64});
  replay(queue());
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  cl_event gate = user_event(context());
  replay(queue(), 1, &gate);  // the older version, held back
  update({other_b(), 22, 128, 256, 64});
  replay(other);
  ASSERT_EQ(clFinish(other), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  expect_model("the older version's late replay");
  clReleaseEvent(gate);
  clReleaseCommandQueue(other);
}

}  // namespace updates

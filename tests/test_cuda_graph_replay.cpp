// Command buffers on the GPU replay as one CUDA graph launch (CUCL_CUDA_GRAPHS, on by
// default): every replay does all of its work again, in the recorded order, and gives the
// same bytes as the operation-by-operation replay that CUCL_CUDA_GRAPHS=0 and lists a graph
// cannot hold (printf) take.
#include <cstdlib>
#include <string>

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

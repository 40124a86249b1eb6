// A kernel that faults on the GPU (a wild write, a trap): its event ends with a negative
// status, the context's notify callback says why, later work on the GPU fails at once
// instead of hanging, the GPU reports CL_DEVICE_AVAILABLE false, and the host device keeps
// working. CUDA cannot give a process its GPU back after such a fault (every context of the
// process fails from then on), so each test needs a process of its own: ctest runs every
// test case separately.
#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;

namespace {

// What a context's notify callback received.
struct Notes {
  std::mutex mutex;
  std::vector<std::string> messages;

  static void CL_CALLBACK record(const char* message, const void*, size_t, void* user_data) {
    auto* notes = static_cast<Notes*>(user_data);
    std::lock_guard lock(notes->mutex);
    notes->messages.emplace_back(message);
  }
  std::string all() {
    std::lock_guard lock(mutex);
    std::string text;
    for (const auto& message : messages) text += message + "\n";
    return text;
  }
};

constexpr const char* kFaultingSource = R"CL(
  __kernel void wild_write(__global int* out, ulong address) {
    out[0] = 1;
    *(volatile __global int*)address = 2;
  }
  __kernel void trap(__global int* out) {
    out[0] = 1;
    __builtin_trap();
  }
  __kernel void add_one(__global int* data) { data[get_global_id(0)] += 1; }
)CL";

// A context on the GPU whose notify callback records into `notes`, with one queue.
class GpuContextWithNotes {
 public:
  GpuContextWithNotes(cl_device_id gpu, Notes& notes) {
    cl_int status = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &gpu, Notes::record, &notes, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, gpu, nullptr, &status);
    EXPECT_EQ(status, CL_SUCCESS);
  }
  ~GpuContextWithNotes() {
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

cl_int event_status(cl_event event) {
  cl_int status = CL_COMPLETE;
  EXPECT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  return status;
}

class CudaFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu = first_gpu();
    CUCL_REQUIRE_GPU(gpu);
  }

  // Runs `name` (which faults) in a fresh GPU context and checks what the application sees.
  void expect_fault_reported(const char* name, const std::string& cuda_error) {
    Notes notes;
    GpuContextWithNotes faulting(gpu, notes);
    // A second context on the same GPU: CUDA fails it too, and it hears why.
    Notes bystander_notes;
    GpuContextWithNotes bystander(gpu, bystander_notes);
    ASSERT_NE(faulting.queue, nullptr);
    ASSERT_NE(bystander.queue, nullptr);

    cl_int status = CL_SUCCESS;
    const char* source = kFaultingSource;
    cl_program program = clCreateProgramWithSource(faulting.context, 1, &source, nullptr, &status);
    ASSERT_EQ(clBuildProgram(program, 1, &gpu, nullptr, nullptr, nullptr), CL_SUCCESS)
        << build_log(program, gpu);
    cl_kernel kernel = clCreateKernel(program, name, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    cl_mem out = clCreateBuffer(faulting.context, CL_MEM_READ_WRITE, 64, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof out, &out), CL_SUCCESS);
    if (std::string(name) == "wild_write") {
      const cl_ulong address = 16;  // never mapped
      ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof address, &address), CL_SUCCESS);
    }

    // The bystander's buffer is in use on the GPU before the fault.
    cl_mem other = clCreateBuffer(bystander.context, CL_MEM_READ_WRITE, 64, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    int value = 7;
    ASSERT_EQ(clEnqueueWriteBuffer(bystander.queue, other, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr),
              CL_SUCCESS);

    cl_event faulted = nullptr;
    const size_t one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(faulting.queue, kernel, 1, nullptr, &one, nullptr, 0, nullptr, &faulted),
              CL_SUCCESS);
    EXPECT_EQ(clWaitForEvents(1, &faulted), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_LT(event_status(faulted), 0);
    const std::string said = notes.all();
    EXPECT_NE(said.find(cuda_error), std::string::npos) << said;

    // Later work on the GPU ends at once with an error, on this queue and on another context's.
    cl_event later = nullptr;
    EXPECT_EQ(clEnqueueWriteBuffer(faulting.queue, out, CL_FALSE, 0, sizeof value, &value, 0, nullptr, &later),
              CL_SUCCESS);
    EXPECT_EQ(clWaitForEvents(1, &later), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_NE(clEnqueueReadBuffer(faulting.queue, out, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr),
              CL_SUCCESS);
    clFinish(faulting.queue);  // returns (whatever it reports): nothing hangs

    EXPECT_NE(clEnqueueWriteBuffer(bystander.queue, other, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_NE(bystander_notes.all().find(cuda_error), std::string::npos) << bystander_notes.all();
    clReleaseMemObject(other);

    // The GPU says it is gone; new contexts on it are refused.
    cl_bool available = CL_TRUE;
    ASSERT_EQ(clGetDeviceInfo(gpu, CL_DEVICE_AVAILABLE, sizeof available, &available, nullptr), CL_SUCCESS);
    EXPECT_EQ(available, CL_FALSE);
    EXPECT_EQ(clCreateContext(nullptr, 1, &gpu, nullptr, nullptr, &status), nullptr);
    EXPECT_EQ(status, CL_DEVICE_NOT_AVAILABLE);
    // A context of every GPU takes those still available: none where this was the only one.
    const size_t gpus = cucl_devices(CL_DEVICE_TYPE_GPU).size();
    cl_context of_type = clCreateContextFromType(nullptr, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &status);
    if (gpus == 1) {
      EXPECT_EQ(of_type, nullptr);
      EXPECT_EQ(status, CL_DEVICE_NOT_AVAILABLE);
    } else {
      ASSERT_NE(of_type, nullptr);
      std::vector<cl_device_id> members(gpus);
      size_t bytes = 0;
      ASSERT_EQ(clGetContextInfo(of_type, CL_CONTEXT_DEVICES, members.size() * sizeof(cl_device_id), members.data(),
                                 &bytes),
                CL_SUCCESS);
      members.resize(bytes / sizeof(cl_device_id));
      EXPECT_EQ(members.size(), gpus - 1);
      EXPECT_EQ(std::find(members.begin(), members.end(), gpu), members.end());
      clReleaseContext(of_type);
    }

    // The host device is unaffected.
    expect_host_device_works();

    clReleaseEvent(later);
    clReleaseEvent(faulted);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }

  static void expect_host_device_works() {
    Env host(host_device());
    BuiltProgram program(host, kFaultingSource);
    ASSERT_TRUE(program);
    cl_kernel add_one = program.kernel("add_one");
    std::vector<int> data = {1, 2, 3, 4};
    cl_int status = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(host.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(int),
                                   data.data(), &status);
    ASSERT_EQ(status, CL_SUCCESS);
    set_args(add_one, buffer);
    const size_t items = data.size();
    ASSERT_EQ(clEnqueueNDRangeKernel(host.queue, add_one, 1, nullptr, &items, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(host.queue, buffer, CL_TRUE, 0, data.size() * sizeof(int), data.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(data, (std::vector<int>{2, 3, 4, 5}));
    clReleaseMemObject(buffer);
  }

  cl_device_id gpu = nullptr;
};

TEST_F(CudaFaults, WildWriteFailsItsEventAndTheDeviceButNotTheHost) {
  expect_fault_reported("wild_write", "CUDA_ERROR_ILLEGAL_ADDRESS");
}

TEST_F(CudaFaults, TrapFailsItsEventAndTheDeviceButNotTheHost) {
  expect_fault_reported("trap", "CUDA_ERROR_LAUNCH_FAILED");
}

}  // namespace

// Shared virtual memory on GPUs (managed memory) and in a context of two devices (the host
// device and a GPU, or two GPUs): one allocation used by kernels of both, in turn and at once,
// the card's memory limit, buffers on SVM pointers. test_svm*.cpp run the per-device tests on
// GPUs too.
#include <cstring>
#include <deque>
#include <string>

#include "svm_test_helpers.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace svm_test;

namespace {

class CudaSvm : public cuda_test::GpuTest {};

// Managed memory is never asked for beyond what the card holds: allocations of the largest
// size, none of them touched (so the card's free memory does not shrink), are refused before
// together they pass the card's memory, and the context goes on.
TEST_F(CudaSvm, MoreThanTheCardHoldsIsNullAndTheContextGoesOn) {
  cl_ulong global = 0, max_alloc = 0;
  ASSERT_EQ(clGetDeviceInfo(gpu, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(gpu, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr), CL_SUCCESS);
  ASSERT_GT(svm_capabilities(gpu) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, 0u);
  EXPECT_EQ(clSVMAlloc(context(), CL_MEM_READ_WRITE, max_alloc + 1, 0), nullptr);
  std::deque<SvmPointer> held;  // SvmPointer does not move
  for (cl_ulong allocated = 0; allocated <= global; allocated += max_alloc) {
    held.emplace_back(context(), CL_MEM_READ_WRITE, max_alloc);
    if (!held.back().get()) break;
  }
  ASSERT_FALSE(held.empty());
  EXPECT_EQ(held.back().get(), nullptr) << "more managed memory than the card holds was handed out";
  EXPECT_LT((held.size() - 1) * max_alloc, global);
  held.clear();
  SvmPointer small(context(), CL_MEM_READ_WRITE, 1 << 20);
  ASSERT_NE(small.get(), nullptr);
  const cl_uint pattern = 0xabcd;
  ASSERT_EQ(clEnqueueSVMMemFill(queue(), small.get(), &pattern, 4, 1 << 20, 0, nullptr, nullptr), CL_SUCCESS);
  cl_uint last = 0;
  ASSERT_EQ(clEnqueueSVMMemcpy(queue(), CL_TRUE, &last, small.as<char>() + (1 << 20) - 4, 4, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(last, pattern);
}

// SVM to SVM on the GPU is a device copy; host memory at one end is a transfer.
TEST_F(CudaSvm, CopiesBetweenAllocationsAndHostMemory) {
  const size_t size = 64 << 20;
  SvmPointer a(context(), CL_MEM_READ_WRITE, size);
  SvmPointer b(context(), CL_MEM_READ_WRITE, size);
  ASSERT_TRUE(a.get() && b.get());
  auto bytes = cuda_test::position_pattern(size, 17);
  std::vector<uint8_t> back(size);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue(), CL_FALSE, a.get(), bytes.data(), size, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue(), CL_FALSE, b.get(), a.get(), size, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue(), CL_TRUE, back.data(), b.get(), size, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_TRUE(back == bytes);
}

// A buffer on an SVM pointer is that managed memory on the GPU: a kernel's writes to the
// buffer are the allocation's bytes.
TEST_F(CudaSvm, ABufferOnAnSvmPointerIsTheSameMemoryOnTheGpu) {
  const size_t n = 1 << 16;
  SvmPointer svm(context(), CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_NE(svm.get(), nullptr);
  cl_int status = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context(), CL_MEM_USE_HOST_PTR, n * sizeof(cl_int), svm.get(), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  BuiltProgram program(*env, "kernel void k(global int* out) { out[get_global_id(0)] = (int)get_global_id(0) * 2; }");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  set_args(kernel, buffer);
  run_1d(queue(), kernel, n);
  ASSERT_EQ(clEnqueueSVMMap(queue(), CL_TRUE, CL_MAP_READ, svm.get(), n * sizeof(cl_int), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(svm.as<cl_int>()[i], static_cast<cl_int>(i * 2)) << "at " << i;
  ASSERT_EQ(clEnqueueSVMUnmap(queue(), svm.get(), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  clReleaseMemObject(buffer);
}

// Adds `amount` to each element of `data`.
const char* const kAddSource = "kernel void add(global int* data, int amount) { data[get_global_id(0)] += amount; }";

// One context of two devices: the host device and the first GPU, or the first two GPUs
// (skipped where cucl lists fewer), with a queue on each.
enum class DevicePair { HostAndGpu, TwoGpus };

class SvmOnTwoDevices : public cuda_test::TwoDeviceContextTest, public ::testing::WithParamInterface<DevicePair> {
 protected:
  void SetUp() override {
    const std::vector<cl_device_id> gpus = cucl_devices(CL_DEVICE_TYPE_GPU);
    CUCL_REQUIRE_GPU(gpus.empty() ? nullptr : gpus[0]);
    if (GetParam() == DevicePair::TwoGpus) {
      if (gpus.size() < 2) GTEST_SKIP() << "needs two GPUs: cucl lists " << gpus.size();
      open({gpus[0], gpus[1]});
    } else {
      open({host_device(), gpus[0]});
    }
  }
  // `name` of `source`, built for each device of the context.
  std::array<cl_kernel, 2> kernels_for_each_device(const std::string& source, const char* name) {
    std::array<cl_kernel, 2> kernels{};
    for (size_t d = 0; d < 2; ++d) {
      cl_int status = CL_SUCCESS;
      const char* text = source.c_str();
      cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
      EXPECT_EQ(clBuildProgram(program, 1, &devices[d], "-cl-std=CL3.0", nullptr, nullptr), CL_SUCCESS);
      kernels[d] = clCreateKernel(program, name, &status);
      EXPECT_EQ(status, CL_SUCCESS);
      clReleaseProgram(program);
    }
    return kernels;
  }
  cl_command_queue first_queue() const { return queues[0]; }
};

// The context offers what both devices have: fine grain only where the (second) GPU has it too.
TEST_P(SvmOnTwoDevices, FineGrainOnlyWhereTheGpuHasIt) {
  const cl_device_svm_capabilities gpu = svm_capabilities(devices[1]);
  SvmPointer coarse(context, CL_MEM_READ_WRITE, 4096);
  EXPECT_NE(coarse.get(), nullptr);
  SvmPointer fine(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096);
  EXPECT_EQ(fine.get() != nullptr, (gpu & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0);
  SvmPointer atomics(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 4096);
  EXPECT_EQ(atomics.get() != nullptr, (gpu & CL_DEVICE_SVM_ATOMICS) != 0);
}

// One allocation, a kernel on the first device then one on the second then the first
// again, ordered by events.
TEST_P(SvmOnTwoDevices, BothDevicesUseOneAllocationInTurn) {
  const size_t n = 1 << 16;
  SvmPointer svm(context, CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_NE(svm.get(), nullptr);
  const std::array<cl_kernel, 2> kernels = kernels_for_each_device(kAddSource, "add");
  ASSERT_TRUE(kernels[0] && kernels[1]);
  const cl_int zero = 0;
  ASSERT_EQ(clEnqueueSVMMemFill(first_queue(), svm.get(), &zero, 4, n * 4, 0, nullptr, nullptr), CL_SUCCESS);
  cl_event previous = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(first_queue(), 0, nullptr, &previous), CL_SUCCESS);
  const cl_int amounts[] = {1, 10, 100};
  for (int step = 0; step < 3; ++step) {
    const size_t d = step % 2;
    cl_kernel kernel = kernels[d];
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, svm.get()), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof(cl_int), &amounts[step]), CL_SUCCESS);
    cl_event done = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(queues[d], kernel, 1, nullptr, &n, nullptr, 1, &previous, &done), CL_SUCCESS);
    clReleaseEvent(previous);
    previous = done;
  }
  ASSERT_EQ(clWaitForEvents(1, &previous), CL_SUCCESS);
  clReleaseEvent(previous);
  ASSERT_EQ(clEnqueueSVMMap(first_queue(), CL_TRUE, CL_MAP_READ, svm.get(), n * 4, 0, nullptr, nullptr), CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(svm.as<cl_int>()[i], 111) << "at " << i;
  ASSERT_EQ(clEnqueueSVMUnmap(first_queue(), svm.get(), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(first_queue()), CL_SUCCESS);
  for (cl_kernel kernel : kernels) clReleaseKernel(kernel);
}

// SVM fills, copies and migrations on either device's queue, ordered by events against the
// other device's kernels, all see one value.
TEST_P(SvmOnTwoDevices, CommandsOnEitherQueueFollowTheOtherDevicesKernels) {
  const size_t n = 1 << 16;
  SvmPointer a(context, CL_MEM_READ_WRITE, n * sizeof(cl_int)), b(context, CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_TRUE(a.get() && b.get());
  const std::array<cl_kernel, 2> kernels = kernels_for_each_device(kAddSource, "add");
  ASSERT_TRUE(kernels[0] && kernels[1]);
  std::array<cl_event, 5> events{};
  const cl_int five = 5, one = 1, ten = 10;
  ASSERT_EQ(clEnqueueSVMMemFill(queues[1], a.get(), &five, 4, n * 4, 0, nullptr, &events[0]), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernels[0], 0, a.get()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernels[0], 1, sizeof one, &one), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queues[0], kernels[0], 1, nullptr, &n, nullptr, 1, &events[0], &events[1]),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(queues[1], CL_FALSE, b.get(), a.get(), n * 4, 1, &events[1], &events[2]), CL_SUCCESS);
  const void* moved[] = {b.get()};
  ASSERT_EQ(clEnqueueSVMMigrateMem(queues[0], 1, moved, nullptr, 0, 1, &events[2], &events[3]), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernels[0], 0, b.get()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernels[0], 1, sizeof ten, &ten), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queues[0], kernels[0], 1, nullptr, &n, nullptr, 1, &events[3], &events[4]),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMap(queues[1], CL_TRUE, CL_MAP_READ, b.get(), n * 4, 1, &events[4], nullptr), CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(b.as<cl_int>()[i], 16) << "at " << i;
  ASSERT_EQ(clEnqueueSVMUnmap(queues[1], b.get(), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queues[1]), CL_SUCCESS);
  for (cl_event event : events) clReleaseEvent(event);
  for (cl_kernel kernel : kernels) clReleaseKernel(kernel);
}

// An allocation a kernel reaches only through a pointer stored in another one, named with
// CL_KERNEL_EXEC_INFO_SVM_PTRS, after a kernel on the other device wrote it (the launch moves
// its pages first): each device reads what the other wrote.
TEST_P(SvmOnTwoDevices, AllocationsListedForAKernelAreCurrentWhereItRuns) {
  const size_t n = 1 << 16;
  SvmPointer data(context, CL_MEM_READ_WRITE, n * sizeof(cl_int)), holder(context, CL_MEM_READ_WRITE, sizeof(void*));
  ASSERT_TRUE(data.get() && holder.get());
  const std::array<cl_kernel, 2> kernels = kernels_for_each_device(
      "kernel void add(global int* global* holder, int amount) { (*holder)[get_global_id(0)] += amount; }", "add");
  ASSERT_TRUE(kernels[0] && kernels[1]);
  ASSERT_EQ(clEnqueueSVMMap(first_queue(), CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, holder.get(), sizeof(void*), 0,
                            nullptr, nullptr),
            CL_SUCCESS);
  *holder.as<void*>() = data.get();
  ASSERT_EQ(clEnqueueSVMUnmap(first_queue(), holder.get(), 0, nullptr, nullptr), CL_SUCCESS);
  const cl_int zero = 0;
  ASSERT_EQ(clEnqueueSVMMemFill(first_queue(), data.get(), &zero, 4, n * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(first_queue()), CL_SUCCESS);
  void* listed[] = {data.get()};
  const cl_int amounts[] = {1, 10, 100, 1000};
  for (int step = 0; step < 4; ++step) {
    const size_t d = step % 2;
    cl_kernel kernel = kernels[d];
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, holder.get()), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof(cl_int), &amounts[step]), CL_SUCCESS);
    ASSERT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof listed, listed), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(queues[d], kernel, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queues[d]), CL_SUCCESS);
  }
  ASSERT_EQ(clEnqueueSVMMap(first_queue(), CL_TRUE, CL_MAP_READ, data.get(), n * 4, 0, nullptr, nullptr), CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(data.as<cl_int>()[i], 1111) << "at " << i;
  ASSERT_EQ(clEnqueueSVMUnmap(first_queue(), data.get(), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(first_queue()), CL_SUCCESS);
  for (cl_kernel kernel : kernels) clReleaseKernel(kernel);
}

// Fine grain with atomics: a kernel on each device adds to one counter while the other runs.
// Each work-item first says it runs and waits (boundedly) for the other device's first one, and
// counts whether it saw it, so the test shows that the two kernels overlapped.
TEST_P(SvmOnTwoDevices, KernelsOfBothDevicesAddToOneCounterAtOnce) {
  const cl_svm_mem_flags flags = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  SvmPointer shared(context, flags, 8 * sizeof(cl_int));
  if (!shared.get()) GTEST_SKIP() << "the context has no SVM atomics";
  cl_int* words = shared.as<cl_int>();  // [0, 1]: started per device, [2, 3]: saw the other, [4]: counter
  std::memset(words, 0, 8 * sizeof(cl_int));
  const std::array<cl_kernel, 2> kernels = kernels_for_each_device(R"(
      kernel void add(global atomic_int* words, int me, int patience, int adds) {
        atomic_fetch_add_explicit(&words[me], 1, memory_order_release, memory_scope_all_svm_devices);
        for (int i = 0; i < patience; ++i) {
          if (atomic_load_explicit(&words[1 - me], memory_order_acquire, memory_scope_all_svm_devices)) {
            atomic_fetch_add_explicit(&words[2 + me], 1, memory_order_relaxed, memory_scope_all_svm_devices);
            break;
          }
        }
        for (int k = 0; k < adds; ++k)
          atomic_fetch_add_explicit(&words[4], 1, memory_order_relaxed, memory_scope_all_svm_devices);
      })", "add");
  ASSERT_TRUE(kernels[0] && kernels[1]);
  const size_t items = 64;
  const cl_int adds = 1000, patience[] = {cl_int{1} << 30, cl_int{1} << 22};
  for (cl_int d = 0; d < 2; ++d) {
    ASSERT_EQ(clSetKernelArgSVMPointer(kernels[d], 0, words), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernels[d], 1, sizeof d, &d), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernels[d], 2, sizeof(cl_int), &patience[d]), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernels[d], 3, sizeof adds, &adds), CL_SUCCESS);
  }
  for (size_t d : {1, 0}) {
    ASSERT_EQ(clEnqueueNDRangeKernel(queues[d], kernels[d], 1, nullptr, &items, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFlush(queues[d]), CL_SUCCESS);
  }
  for (cl_command_queue queue : queues) ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(words[0], static_cast<cl_int>(items));
  EXPECT_EQ(words[1], static_cast<cl_int>(items));
  EXPECT_GT(words[2], 0) << "no work-item of the first device saw the second device's kernel run";
  EXPECT_GT(words[3], 0) << "no work-item of the second device saw the first device's kernel run";
  EXPECT_EQ(words[4], static_cast<cl_int>(2 * items * adds));
  for (cl_kernel kernel : kernels) clReleaseKernel(kernel);
}

INSTANTIATE_TEST_SUITE_P(Pairs, SvmOnTwoDevices, ::testing::Values(DevicePair::HostAndGpu, DevicePair::TwoGpus),
                         [](const ::testing::TestParamInfo<DevicePair>& info) {
                           return std::string(info.param == DevicePair::TwoGpus ? "TwoGpus" : "HostAndGpu");
                         });

}  // namespace

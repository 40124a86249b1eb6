// Queues and events on a GPU: profiling timestamps, out-of-order queues, user events, and
// contexts that hold the host device and a GPU together.
#include <thread>

#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

class CudaProfiling : public GpuTest {
 protected:
  cl_command_queue_properties queue_properties() const override { return CL_QUEUE_PROFILING_ENABLE; }
};

TEST_F(CudaProfiling, TimestampsAreOrderedAndOnTheHostTimeBase) {
  constexpr size_t kSize = 8u << 20;
  Mem buffer = make_buffer(context(), 0, kSize);
  std::vector<uint8_t> data(kSize, 1);
  cl_ulong device_before = 0, host_before = 0;
  ASSERT_EQ(clGetDeviceAndHostTimer(gpu, &device_before, &host_before), CL_SUCCESS);
  std::vector<cl_event> events(4);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_FALSE, 0, kSize, data.data(), 0, nullptr, &events[0]), CL_SUCCESS);
  uint32_t zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(queue(), buffer, &zero, 4, 0, kSize, 0, nullptr, &events[1]), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_FALSE, 0, kSize, data.data(), 0, nullptr, &events[2]), CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue(), 0, nullptr, &events[3]), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  cl_ulong device_after = 0, host_after = 0;
  ASSERT_EQ(clGetDeviceAndHostTimer(gpu, &device_after, &host_after), CL_SUCCESS);
  cl_ulong previous_end = device_before;
  for (cl_event event : events) {
    cl_ulong queued = profile(event, CL_PROFILING_COMMAND_QUEUED);
    cl_ulong submit = profile(event, CL_PROFILING_COMMAND_SUBMIT);
    cl_ulong start = profile(event, CL_PROFILING_COMMAND_START);
    cl_ulong end = profile(event, CL_PROFILING_COMMAND_END);
    EXPECT_LE(device_before, queued);
    EXPECT_LE(queued, submit);
    EXPECT_LE(submit, start);
    EXPECT_LE(start, end);
    EXPECT_LE(end, profile(event, CL_PROFILING_COMMAND_COMPLETE));
    EXPECT_LE(previous_end, start);  // an in-order queue runs one command after another
    EXPECT_LE(end, device_after);
    previous_end = end;
    clReleaseEvent(event);
  }
  EXPECT_EQ(data, std::vector<uint8_t>(kSize, 0));
}

class CudaOutOfOrder : public GpuTest {
 protected:
  cl_command_queue_properties queue_properties() const override { return CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; }
};

TEST_F(CudaOutOfOrder, IndependentCommandsAndABarrier) {
  constexpr size_t kBuffers = 16, kSize = 1 << 16;
  std::vector<Mem> buffers;
  std::vector<std::vector<uint8_t>> data;
  for (size_t i = 0; i < kBuffers; ++i) {
    buffers.push_back(make_buffer(context(), 0, kSize));
    data.push_back(pattern(kSize, static_cast<uint8_t>(i)));
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffers[i], CL_FALSE, 0, kSize, data[i].data(), 0, nullptr, nullptr),
              CL_SUCCESS);
  }
  ASSERT_EQ(clEnqueueBarrierWithWaitList(queue(), 0, nullptr, nullptr), CL_SUCCESS);
  // After the barrier: each buffer copied into the next one's second half.
  Mem target = make_buffer(context(), 0, kSize * kBuffers);
  for (size_t i = 0; i < kBuffers; ++i) {
    ASSERT_EQ(clEnqueueCopyBuffer(queue(), buffers[i], target, 0, i * kSize, kSize, 0, nullptr, nullptr), CL_SUCCESS);
  }
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  auto all = read_all(queue(), target, kSize * kBuffers);
  for (size_t i = 0; i < kBuffers; ++i) {
    EXPECT_TRUE(std::equal(data[i].begin(), data[i].end(), all.begin() + i * kSize)) << "buffer " << i;
  }
}

TEST_F(CudaOutOfOrder, UserEventHoldsBackItsDependents) {
  constexpr size_t kSize = 4096;
  Mem buffer = make_buffer(context(), 0, kSize);
  cl_event gate = user_event(context());
  auto data = pattern(kSize, 40);
  cl_event write = nullptr, read = nullptr;
  std::vector<uint8_t> back(kSize, 0);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_FALSE, 0, kSize, data.data(), 1, &gate, &write), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_FALSE, 0, kSize, back.data(), 1, &write, &read), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(event_status(write), CL_QUEUED);
  EXPECT_EQ(event_status(read), CL_QUEUED);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
  EXPECT_EQ(back, data);
  for (cl_event event : {gate, write, read}) clReleaseEvent(event);
}

// A context with the host device and a GPU, one queue on each.
class MixedContext : public MixedContextTest {};

TEST_F(MixedContext, BufferWrittenOnOneDeviceIsReadOnTheOther) {
  constexpr size_t kSize = 1 << 20;
  Mem buffer = make_buffer(context, 0, kSize);
  auto first = pattern(kSize, 50);
  write_all(host_queue(), buffer, first);
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), first) << "host device -> GPU";
  auto second = pattern(kSize, 51);
  write_all(gpu_queue(), buffer, second);
  EXPECT_EQ(read_all(host_queue(), buffer, kSize), second) << "GPU -> host device";
}

TEST_F(MixedContext, UseHostPtrBufferIsSharedByBothDevices) {
  constexpr size_t kSize = 1 << 20;
  std::vector<uint8_t> storage = pattern(kSize, 60);
  Mem buffer = make_buffer(context, CL_MEM_USE_HOST_PTR, kSize, storage.data());
  auto update = pattern(kSize / 2, 61);
  ASSERT_EQ(clEnqueueWriteBuffer(gpu_queue(), buffer, CL_TRUE, 0, update.size(), update.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  auto expected = pattern(kSize, 60);
  std::copy(update.begin(), update.end(), expected.begin());
  EXPECT_EQ(read_all(host_queue(), buffer, kSize), expected);
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), expected);
}

TEST_F(MixedContext, GpuCommandsWaitForHostDeviceEvents) {
  constexpr size_t kSize = 1 << 16;
  Mem a = make_buffer(context, 0, kSize);
  Mem b = make_buffer(context, 0, kSize);
  auto data = pattern(kSize, 70);
  cl_event gate = user_event(context), host_write = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(host_queue(), a, CL_FALSE, 0, kSize, data.data(), 1, &gate, &host_write), CL_SUCCESS);
  std::vector<uint8_t> zeros(kSize, 0);
  cl_event gpu_write = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(gpu_queue(), b, CL_FALSE, 0, kSize, zeros.data(), 1, &host_write, &gpu_write),
            CL_SUCCESS);
  EXPECT_EQ(event_status(gpu_write), CL_QUEUED);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &gpu_write), CL_SUCCESS);
  EXPECT_EQ(event_status(host_write), CL_COMPLETE);
  for (cl_event event : {gate, host_write, gpu_write}) clReleaseEvent(event);
}

}  // namespace

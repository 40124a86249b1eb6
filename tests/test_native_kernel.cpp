// clEnqueueNativeKernel on the host device: the function runs on a host thread with a
// copy of the arguments in which buffer handles are replaced by the buffers' memory.
#include <atomic>
#include <cstring>
#include <vector>

#include "support/test_support.h"

using namespace cucl_test;

namespace {

struct ScaleArgs {
  float* data;  // replaced by the buffer's memory
  size_t count;
  float factor;
};

void CL_CALLBACK scale(void* raw) {
  auto* args = static_cast<ScaleArgs*>(raw);
  for (size_t i = 0; i < args->count; ++i) args->data[i] *= args->factor;
}

struct CopyArgs {
  const int* source;
  int* destination;
  size_t count;
};

void CL_CALLBACK copy_ints(void* raw) {
  auto* args = static_cast<CopyArgs*>(raw);
  std::memcpy(args->destination, args->source, args->count * sizeof(int));
}

std::atomic<int> calls_with_null_args{0};
void CL_CALLBACK count_null_args(void* args) {
  if (args == nullptr) ++calls_with_null_args;
}

cl_mem make_buffer(cl_context context, size_t size, void* host = nullptr) {
  cl_int status = 1;
  cl_mem buffer = clCreateBuffer(context, host ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, size, host, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  return buffer;
}

}  // namespace

TEST(NativeKernel, HostDeviceAdvertisesNativeKernels) {
  EXPECT_TRUE(
      info_value<cl_device_exec_capabilities>(clGetDeviceInfo, host_device(), CL_DEVICE_EXECUTION_CAPABILITIES) &
      CL_EXEC_NATIVE_KERNEL);
}

TEST(NativeKernel, RunsWithBufferMemoryInPlaceOfHandles) {
  Env env;
  std::vector<float> values(256);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  cl_mem buffer = make_buffer(env.context, values.size() * sizeof(float), values.data());

  ScaleArgs args{nullptr, values.size(), 3.0f};
  cl_mem mem_list[] = {buffer};
  const void* locations[] = {&args.data};
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueNativeKernel(env.queue, scale, &args, sizeof args, 1, mem_list, locations, 0, nullptr, &event),
            CL_SUCCESS);
  args.factor = -1.0f;  // the command owns a copy: changing ours afterwards changes nothing
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  cl_command_type type = 0;
  EXPECT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_NATIVE_KERNEL));

  std::vector<float> result(values.size());
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, result.size() * sizeof(float), result.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < result.size(); ++i) EXPECT_EQ(result[i], 3.0f * static_cast<float>(i)) << i;
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
}

TEST(NativeKernel, SeesEarlierCommandsAndSubBuffersInOrder) {
  Env env;
  std::vector<int> source(64);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<int>(i * 7);
  cl_mem from = make_buffer(env.context, source.size() * sizeof(int));
  cl_mem parent = make_buffer(env.context, 4096 + source.size() * sizeof(int));
  cl_buffer_region region{4096, source.size() * sizeof(int)};
  cl_int status = 1;
  cl_mem to = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  ASSERT_EQ(status, CL_SUCCESS);

  // Non-blocking write, then the native kernel: the in-order queue orders them.
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, from, CL_FALSE, 0, source.size() * sizeof(int), source.data(), 0,
                                 nullptr, nullptr),
            CL_SUCCESS);
  CopyArgs args{nullptr, nullptr, source.size()};
  cl_mem mem_list[] = {from, to};
  const void* locations[] = {&args.source, &args.destination};
  ASSERT_EQ(clEnqueueNativeKernel(env.queue, copy_ints, &args, sizeof args, 2, mem_list, locations, 0, nullptr,
                                  nullptr),
            CL_SUCCESS);
  std::vector<int> result(source.size());
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, parent, CL_TRUE, 4096, result.size() * sizeof(int), result.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(result, source);
  EXPECT_EQ(clReleaseMemObject(to), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(parent), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(from), CL_SUCCESS);
}

TEST(NativeKernel, NullArgumentsAreCalledWithNull) {
  Env env;
  calls_with_null_args = 0;
  ASSERT_EQ(clEnqueueNativeKernel(env.queue, count_null_args, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(calls_with_null_args.load(), 1);
}

TEST(NativeKernel, FailedWaitListEventStopsIt) {
  Env env;
  calls_with_null_args = 0;
  cl_int status = 1;
  cl_event gate = clCreateUserEvent(env.context, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueNativeKernel(env.queue, count_null_args, nullptr, 0, 0, nullptr, nullptr, 1, &gate, &event),
            CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, -12), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &event), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int final_status = 1;
  clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof final_status, &final_status, nullptr);
  EXPECT_EQ(final_status, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(calls_with_null_args.load(), 0);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);
}

TEST(NativeKernel, Errors) {
  Env env;
  cl_mem buffer = make_buffer(env.context, 64);
  ScaleArgs args{nullptr, 16, 1.0f};
  cl_mem mem_list[] = {buffer};
  const void* locations[] = {&args.data};
  const void* outside[] = {&args + 1};
  auto enqueue = [&](cl_command_queue queue, void(CL_CALLBACK * function)(void*), void* a, size_t size, cl_uint n,
                     const cl_mem* mems, const void** locs) {
    return clEnqueueNativeKernel(queue, function, a, size, n, mems, locs, 0, nullptr, nullptr);
  };
  EXPECT_EQ(enqueue(nullptr, scale, &args, sizeof args, 1, mem_list, locations), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(enqueue(env.queue, nullptr, &args, sizeof args, 1, mem_list, locations), CL_INVALID_VALUE);
  EXPECT_EQ(enqueue(env.queue, scale, nullptr, sizeof args, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(enqueue(env.queue, scale, nullptr, 0, 1, mem_list, locations), CL_INVALID_VALUE);
  EXPECT_EQ(enqueue(env.queue, scale, &args, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(enqueue(env.queue, scale, &args, sizeof args, 1, nullptr, locations), CL_INVALID_VALUE);
  EXPECT_EQ(enqueue(env.queue, scale, &args, sizeof args, 1, mem_list, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(enqueue(env.queue, scale, &args, sizeof args, 0, mem_list, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(enqueue(env.queue, scale, &args, sizeof args, 0, nullptr, locations), CL_INVALID_VALUE);
  EXPECT_EQ(enqueue(reinterpret_cast<cl_command_queue>(buffer), scale, &args, sizeof args, 1, mem_list, locations),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(enqueue(env.queue, scale, &args, sizeof args, 1, mem_list, outside), CL_INVALID_VALUE);
  cl_mem not_a_buffer[] = {reinterpret_cast<cl_mem>(env.context)};
  EXPECT_EQ(enqueue(env.queue, scale, &args, sizeof args, 1, not_a_buffer, locations), CL_INVALID_MEM_OBJECT);
  cl_event bad_list[] = {nullptr};
  EXPECT_EQ(clEnqueueNativeKernel(env.queue, scale, &args, sizeof args, 1, mem_list, locations, 1, bad_list, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
}

// Buffer objects: creation rules, host pointer flags, queries, reference counts and
// destructor callbacks.
#include <atomic>
#include <cstring>
#include <mutex>

#include "buffer_test_helpers.h"

using namespace cucl_test;
using namespace buffer_test;

namespace {

constexpr size_t kSize = 1024;

TEST(Buffer, CreateAnswersEveryQuery) {
  Env env;
  Mem buffer = make_buffer(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, kSize);
  EXPECT_EQ(info_value<cl_mem_object_type>(clGetMemObjectInfo, buffer, CL_MEM_TYPE),
            cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  EXPECT_EQ(info_value<cl_mem_flags>(clGetMemObjectInfo, buffer, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
  EXPECT_EQ(info_value<size_t>(clGetMemObjectInfo, buffer, CL_MEM_SIZE), kSize);
  EXPECT_EQ(info_value<void*>(clGetMemObjectInfo, buffer, CL_MEM_HOST_PTR), nullptr);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 0u);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_REFERENCE_COUNT), 1u);
  EXPECT_EQ(info_value<cl_context>(clGetMemObjectInfo, buffer, CL_MEM_CONTEXT), env.context);
  EXPECT_EQ(info_value<cl_mem>(clGetMemObjectInfo, buffer, CL_MEM_ASSOCIATED_MEMOBJECT), nullptr);
  EXPECT_EQ(info_value<size_t>(clGetMemObjectInfo, buffer, CL_MEM_OFFSET), 0u);
  EXPECT_EQ(info_value<cl_bool>(clGetMemObjectInfo, buffer, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  size_t size = 99;
  EXPECT_EQ(clGetMemObjectInfo(buffer, CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u) << "clCreateBuffer has no properties to report";
}

TEST(Buffer, DefaultFlagsAreKeptAsGiven) {
  Env env;
  Mem buffer = make_buffer(env.context, 0, kSize);
  EXPECT_EQ(info_value<cl_mem_flags>(clGetMemObjectInfo, buffer, CL_MEM_FLAGS), cl_mem_flags(0));
  auto data = pattern(kSize);
  write_all(env.queue, buffer, data);
  EXPECT_EQ(read_all(env.queue, buffer, kSize), data);
}

TEST(Buffer, InfoSizeRulesAndUnknownParam) {
  Env env;
  Mem buffer = make_buffer(env.context, 0, kSize);
  size_t size = 0;
  EXPECT_EQ(clGetMemObjectInfo(buffer, CL_MEM_SIZE, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(size_t));
  cl_uint too_small = 0;
  EXPECT_EQ(clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof too_small, &too_small, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetMemObjectInfo(buffer, CL_CONTEXT_DEVICES, sizeof size, &size, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetMemObjectInfo(buffer, 0x7fff, sizeof size, &size, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_INVALID_MEM_OBJECT);
}

TEST(Buffer, WithPropertiesReportsTheListGiven) {
  Env env;
  cl_mem_properties empty[] = {0};
  cl_int status = CL_OUT_OF_RESOURCES;
  Mem listed(clCreateBufferWithProperties(env.context, empty, 0, kSize, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  size_t size = 0;
  cl_mem_properties got[4] = {7, 7, 7, 7};
  EXPECT_EQ(clGetMemObjectInfo(listed, CL_MEM_PROPERTIES, sizeof got, got, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_mem_properties));
  EXPECT_EQ(got[0], 0u);

  Mem unlisted(clCreateBufferWithProperties(env.context, nullptr, CL_MEM_READ_WRITE, kSize, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(clGetMemObjectInfo(unlisted, CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
}

TEST(Buffer, WithPropertiesRefusesEveryPropertyName) {
  Env env;
  cl_int status = CL_SUCCESS;
  cl_mem_properties unknown[] = {0x4242, 1, 0};
  EXPECT_EQ(clCreateBufferWithProperties(env.context, unknown, 0, kSize, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_PROPERTY);
  constexpr cl_mem_properties kDeviceHandleListKhr = 0x2051;  // cl_khr_external_memory, not offered
  cl_mem_properties handle_list[] = {kDeviceHandleListKhr, 0, 0};
  EXPECT_EQ(clCreateBufferWithProperties(env.context, handle_list, 0, kSize, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_PROPERTY);
  EXPECT_EQ(clCreateBufferWithProperties(nullptr, nullptr, 0, kSize, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_CONTEXT);
}

TEST(Buffer, InvalidContext) {
  Env env;
  EXPECT_EQ(buffer_error(nullptr, 0, kSize), CL_INVALID_CONTEXT);
  EXPECT_EQ(buffer_error(reinterpret_cast<cl_context>(env.queue), 0, kSize), CL_INVALID_CONTEXT);
  EXPECT_EQ(clCreateBuffer(nullptr, 0, kSize, nullptr, nullptr), nullptr) << "errcode_ret may be NULL";
}

TEST(Buffer, InvalidFlags) {
  Env env;
  const cl_mem_flags invalid[] = {
      cl_mem_flags(1) << 40,
      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
      CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
      CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
      CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY,
      CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY,
      CL_MEM_KERNEL_READ_AND_WRITE,
  };
  for (cl_mem_flags flags : invalid) EXPECT_EQ(buffer_error(env.context, flags, kSize), CL_INVALID_VALUE) << flags;
  char host[kSize];
  EXPECT_EQ(buffer_error(env.context, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, kSize, host), CL_INVALID_VALUE);
  EXPECT_EQ(buffer_error(env.context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, kSize, host), CL_INVALID_VALUE);
}

TEST(Buffer, InvalidSize) {
  Env env;
  EXPECT_EQ(buffer_error(env.context, 0, 0), CL_INVALID_BUFFER_SIZE);
  auto max_alloc = info_value<cl_ulong>(clGetDeviceInfo, env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(buffer_error(env.context, 0, static_cast<size_t>(max_alloc) + 1), CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(buffer_error(env.context, 0, SIZE_MAX), CL_INVALID_BUFFER_SIZE);
}

TEST(Buffer, InvalidHostPtr) {
  Env env;
  char host[kSize];
  EXPECT_EQ(buffer_error(env.context, CL_MEM_USE_HOST_PTR, kSize), CL_INVALID_HOST_PTR);
  EXPECT_EQ(buffer_error(env.context, CL_MEM_COPY_HOST_PTR, kSize), CL_INVALID_HOST_PTR);
  EXPECT_EQ(buffer_error(env.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, kSize), CL_INVALID_HOST_PTR);
  EXPECT_EQ(buffer_error(env.context, 0, kSize, host), CL_INVALID_HOST_PTR);
  EXPECT_EQ(buffer_error(env.context, CL_MEM_ALLOC_HOST_PTR, kSize, host), CL_INVALID_HOST_PTR);
}

TEST(Buffer, CopyHostPtrTakesTheContentsAtCreation) {
  Env env;
  auto initial = pattern(kSize, 3);
  auto host = initial;
  Mem buffer = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, host.data());
  std::memset(host.data(), 0, kSize);  // the application may reuse host_ptr at once
  EXPECT_EQ(info_value<void*>(clGetMemObjectInfo, buffer, CL_MEM_HOST_PTR), nullptr);
  EXPECT_EQ(read_all(env.queue, buffer, kSize), initial);
  EXPECT_EQ(host, std::vector<uint8_t>(kSize, 0)) << "the buffer must not write back to host_ptr";
}

TEST(Buffer, AllocAndCopyHostPtr) {
  Env env;
  auto initial = pattern(kSize, 9);
  Mem buffer = make_buffer(env.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, kSize, initial.data());
  EXPECT_EQ(read_all(env.queue, buffer, kSize), initial);
  EXPECT_EQ(info_value<cl_mem_flags>(clGetMemObjectInfo, buffer, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR));
}

TEST(Buffer, AllocHostPtrRoundTrips) {
  Env env;
  Mem buffer = make_buffer(env.context, CL_MEM_ALLOC_HOST_PTR, kSize);
  auto data = pattern(kSize, 5);
  write_all(env.queue, buffer, data);
  EXPECT_EQ(read_all(env.queue, buffer, kSize), data);
}

TEST(Buffer, UseHostPtrIsTheStorage) {
  Env env;
  std::vector<uint8_t> host = pattern(kSize, 11);
  Mem buffer = make_buffer(env.context, CL_MEM_USE_HOST_PTR, kSize, host.data());
  EXPECT_EQ(info_value<void*>(clGetMemObjectInfo, buffer, CL_MEM_HOST_PTR), host.data());
  EXPECT_EQ(read_all(env.queue, buffer, kSize), pattern(kSize, 11)) << "initial contents come from host_ptr";

  auto data = pattern(64, 40);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_TRUE, 100, 64, data.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(0, std::memcmp(host.data() + 100, data.data(), 64)) << "a blocking write lands in host memory";
}

TEST(Buffer, RetainAndReleaseCount) {
  Env env;
  Mem buffer = make_buffer(env.context, 0, kSize);
  EXPECT_EQ(ref_count(buffer.get()), 1u);
  EXPECT_EQ(clRetainMemObject(buffer), CL_SUCCESS);
  EXPECT_EQ(ref_count(buffer.get()), 2u);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  EXPECT_EQ(ref_count(buffer.get()), 1u);
  {
    Mem sub = make_sub_buffer(buffer, 0, 0, 64);
    // The parent stays a valid handle (CL_MEM_ASSOCIATED_MEMOBJECT) while the sub-buffer
    // lives, so the sub-buffer counts as one of its references, as in other implementations.
    EXPECT_EQ(ref_count(buffer.get()), 2u);
    EXPECT_EQ(ref_count(sub.get()), 1u);
  }
  EXPECT_EQ(ref_count(buffer.get()), 1u);
  EXPECT_EQ(clRetainMemObject(nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clReleaseMemObject(nullptr), CL_INVALID_MEM_OBJECT);
}

TEST(Buffer, ReleasedHandleIsInvalid) {
  Env env;
  cl_mem buffer = make_buffer(env.context, 0, kSize).release();
  ASSERT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  size_t size = 0;
  char data[16];
  EXPECT_EQ(clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clRetainMemObject(buffer), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, 16, data, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_TRUE, 0, 16, data, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
}

TEST(Buffer, OtherObjectKindsAreNotMemory) {
  Env env;
  cl_mem context_as_mem = reinterpret_cast<cl_mem>(env.context);
  cl_mem queue_as_mem = reinterpret_cast<cl_mem>(env.queue);
  size_t size = 0;
  char data[16];
  cl_uint context_refs = ref_count(env.context);
  EXPECT_EQ(clGetMemObjectInfo(context_as_mem, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clRetainMemObject(context_as_mem), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clReleaseMemObject(queue_as_mem), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, context_as_mem, CL_TRUE, 0, 16, data, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(sub_buffer_error(context_as_mem, 0, 0, 16), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(ref_count(env.context), context_refs) << "the mistaken calls must not touch the context";
}

// Destructor callbacks record their order here.
struct CallbackLog {
  std::mutex mutex;
  std::vector<int> order;
  std::atomic<int> calls{0};
};

struct CallbackTag {
  CallbackLog* log;
  int id;
};

void CL_CALLBACK record_destruction(cl_mem, void* user_data) {
  auto* tag = static_cast<CallbackTag*>(user_data);
  std::lock_guard lock(tag->log->mutex);
  tag->log->order.push_back(tag->id);
  tag->log->calls.fetch_add(1);
}

TEST(Buffer, DestructorCallbacksRunNewestFirst) {
  Env env;
  CallbackLog log;
  CallbackTag tags[] = {{&log, 1}, {&log, 2}, {&log, 3}};
  cl_mem buffer = make_buffer(env.context, 0, kSize).release();
  for (auto& tag : tags) ASSERT_EQ(clSetMemObjectDestructorCallback(buffer, record_destruction, &tag), CL_SUCCESS);
  ASSERT_EQ(clRetainMemObject(buffer), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  EXPECT_EQ(log.calls.load(), 0) << "one reference is still held";
  ASSERT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  EXPECT_EQ(log.order, (std::vector<int>{3, 2, 1}));
}

TEST(Buffer, DestructorCallbackArgumentErrors) {
  Env env;
  Mem buffer = make_buffer(env.context, 0, kSize);
  EXPECT_EQ(clSetMemObjectDestructorCallback(buffer, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetMemObjectDestructorCallback(nullptr, record_destruction, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetMemObjectDestructorCallback(reinterpret_cast<cl_mem>(env.context), record_destruction, nullptr),
            CL_INVALID_MEM_OBJECT);
}

TEST(Buffer, DestructionWaitsForPendingCommands) {
  Env env;
  CallbackLog log;
  CallbackTag tag{&log, 1};
  cl_event gate = user_event(env.context);
  auto data = pattern(kSize);
  cl_mem buffer = make_buffer(env.context, 0, kSize).release();
  ASSERT_EQ(clSetMemObjectDestructorCallback(buffer, record_destruction, &tag), CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_FALSE, 0, kSize, data.data(), 1, &gate, nullptr), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  EXPECT_EQ(log.calls.load(), 0) << "the pending write still uses the buffer";
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(log.calls.load(), 1);
  EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);
}

TEST(Buffer, ParentOutlivesItsSubBuffers) {
  Env env;
  CallbackLog log;
  CallbackTag parent_tag{&log, 1}, sub_tag{&log, 2};
  auto data = pattern(kSize, 21);
  cl_mem parent = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data()).release();
  cl_mem sub = make_sub_buffer(parent, 0, 256, 128).release();
  ASSERT_EQ(clSetMemObjectDestructorCallback(parent, record_destruction, &parent_tag), CL_SUCCESS);
  ASSERT_EQ(clSetMemObjectDestructorCallback(sub, record_destruction, &sub_tag), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(parent), CL_SUCCESS);
  EXPECT_EQ(log.calls.load(), 0);
  auto seen = read_all(env.queue, sub, 128);
  EXPECT_EQ(seen, std::vector<uint8_t>(data.begin() + 256, data.begin() + 384)) << "the sub-buffer still reads";
  ASSERT_EQ(clReleaseMemObject(sub), CL_SUCCESS);
  EXPECT_EQ(log.order, (std::vector<int>{2, 1}));
}

}  // namespace

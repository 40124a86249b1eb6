// clEnqueueMapBuffer and clEnqueueUnmapMemObject.
#include <cstring>

#include "buffer_test_helpers.h"

using namespace cucl_test;
using namespace buffer_test;

namespace {

constexpr size_t kSize = 4096;

class BufferMap : public BufferFixture {
 protected:
  void* map(cl_mem buffer, cl_map_flags flags, size_t offset, size_t size, cl_int expected = CL_SUCCESS) {
    cl_int status = CL_OUT_OF_RESOURCES;
    void* pointer =
        clEnqueueMapBuffer(env.queue, buffer, CL_TRUE, flags, offset, size, 0, nullptr, nullptr, &status);
    EXPECT_EQ(status, expected);
    EXPECT_EQ(pointer == nullptr, expected != CL_SUCCESS);
    return pointer;
  }
  cl_int unmap(cl_mem buffer, void* pointer) {
    return clEnqueueUnmapMemObject(env.queue, buffer, pointer, 0, nullptr, nullptr);
  }
};

TEST_F(BufferMap, ReadMapShowsTheContents) {
  auto data = pattern(kSize, 15);
  Mem buffer = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  auto* pointer = static_cast<uint8_t*>(map(buffer, CL_MAP_READ, 100, 1000));
  ASSERT_NE(pointer, nullptr);
  EXPECT_EQ(0, std::memcmp(pointer, data.data() + 100, 1000));
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 1u);
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, buffer, pointer, 0, nullptr, &event), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 0u) << "the count follows at enqueue";
  EXPECT_EQ(event_type(event), cl_command_type(CL_COMMAND_UNMAP_MEM_OBJECT));
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
}

TEST_F(BufferMap, WritesThroughTheMapReachTheBuffer) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  write_all(env.queue, buffer, std::vector<uint8_t>(kSize, 0));
  auto data = pattern(512, 60);
  for (cl_map_flags flags : {cl_map_flags(CL_MAP_WRITE), cl_map_flags(CL_MAP_WRITE_INVALIDATE_REGION),
                             cl_map_flags(CL_MAP_READ | CL_MAP_WRITE)}) {
    SCOPED_TRACE(flags);
    auto* pointer = static_cast<uint8_t*>(map(buffer, flags, 1024, 512));
    ASSERT_NE(pointer, nullptr);
    std::memcpy(pointer, data.data(), 512);
    ASSERT_EQ(unmap(buffer, pointer), CL_SUCCESS);
    auto whole = read_all(env.queue, buffer, kSize);
    EXPECT_EQ(std::vector<uint8_t>(whole.begin() + 1024, whole.begin() + 1536), data);
    EXPECT_EQ(std::count(whole.begin(), whole.begin() + 1024, 0), 1024);
    data = pattern(512, static_cast<uint8_t>(data[0] + 1));
  }
}

TEST_F(BufferMap, NonBlockingMapReturnsThePointerAtOnce) {
  auto data = pattern(kSize, 70);
  Mem buffer = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  cl_event gate = user_event(env.context);
  cl_event mapped = nullptr;
  cl_int status = CL_OUT_OF_RESOURCES;
  void* pointer = clEnqueueMapBuffer(env.queue, buffer, CL_FALSE, CL_MAP_READ, 0, kSize, 1, &gate, &mapped, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_NE(pointer, nullptr);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 1u);
  EXPECT_EQ(event_type(mapped), cl_command_type(CL_COMMAND_MAP_BUFFER));
  EXPECT_GT(event_status(mapped), CL_RUNNING);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &mapped), CL_SUCCESS);
  EXPECT_EQ(0, std::memcmp(pointer, data.data(), kSize));
  EXPECT_EQ(unmap(buffer, pointer), CL_SUCCESS);
  clReleaseEvent(mapped);
  clReleaseEvent(gate);
}

TEST_F(BufferMap, UseHostPtrMapsIntoTheApplicationsMemory) {
  std::vector<uint8_t> host(kSize, 0);
  Mem buffer = make_buffer(env.context, CL_MEM_USE_HOST_PTR, kSize, host.data());
  auto* pointer = static_cast<uint8_t*>(map(buffer, CL_MAP_WRITE, 256, 256));
  EXPECT_EQ(pointer, host.data() + 256) << "the pointer is derived from host_ptr";
  auto data = pattern(256, 90);
  std::memcpy(pointer, data.data(), 256);
  ASSERT_EQ(unmap(buffer, pointer), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(0, std::memcmp(host.data() + 256, data.data(), 256));
}

TEST_F(BufferMap, SubBufferMapsItsOwnRegion) {
  auto data = pattern(kSize, 101);
  Mem parent = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  Mem sub = make_sub_buffer(parent, 0, 2 * align, 2 * align);
  auto* pointer = static_cast<uint8_t*>(map(sub, CL_MAP_READ | CL_MAP_WRITE, align, align));
  ASSERT_NE(pointer, nullptr);
  EXPECT_EQ(0, std::memcmp(pointer, data.data() + 3 * align, align));
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, sub, CL_MEM_MAP_COUNT), 1u);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, parent, CL_MEM_MAP_COUNT), 0u);
  std::memset(pointer, 0x5A, align);
  EXPECT_EQ(unmap(parent, pointer), CL_INVALID_VALUE) << "the mapping belongs to the sub-buffer";
  ASSERT_EQ(unmap(sub, pointer), CL_SUCCESS);
  std::memset(data.data() + 3 * align, 0x5A, align);
  EXPECT_EQ(read_all(env.queue, parent, kSize), data);
}

TEST_F(BufferMap, OverlappingWriteMapsAreRefused) {
  Mem parent = make_buffer(env.context, 0, kSize);
  Mem sub = make_sub_buffer(parent, 0, align, align);
  void* first = map(parent, CL_MAP_WRITE, 0, 2 * align);
  map(parent, CL_MAP_READ, align, 16, CL_INVALID_OPERATION);
  map(parent, CL_MAP_WRITE_INVALIDATE_REGION, 2 * align - 1, 16, CL_INVALID_OPERATION);
  map(sub, CL_MAP_READ, 0, 16, CL_INVALID_OPERATION);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, parent, CL_MEM_MAP_COUNT), 1u);
  void* beside = map(parent, CL_MAP_WRITE, 2 * align, align);
  ASSERT_EQ(unmap(parent, first), CL_SUCCESS);
  void* sub_write = map(sub, CL_MAP_WRITE, 0, align);
  ASSERT_EQ(unmap(sub, sub_write), CL_SUCCESS);
  ASSERT_EQ(unmap(parent, beside), CL_SUCCESS);

  void* read1 = map(parent, CL_MAP_READ, 0, kSize);
  void* read2 = map(sub, CL_MAP_READ, 0, align);
  EXPECT_NE(read1, nullptr) << "reads may overlap";
  map(sub, CL_MAP_WRITE, 0, 16, CL_INVALID_OPERATION);
  ASSERT_EQ(unmap(parent, read1), CL_SUCCESS);
  ASSERT_EQ(unmap(sub, read2), CL_SUCCESS);
}

TEST_F(BufferMap, SameRegionMappedTwiceCountsTwice) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  void* a = map(buffer, CL_MAP_READ, 0, 64);
  void* b = map(buffer, CL_MAP_READ, 0, 64);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 2u);
  ASSERT_EQ(unmap(buffer, a), CL_SUCCESS);
  ASSERT_EQ(unmap(buffer, b), CL_SUCCESS);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 0u);
  EXPECT_EQ(unmap(buffer, a), CL_INVALID_VALUE) << "already unmapped";
}

TEST_F(BufferMap, MapArgumentErrors) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  map(buffer, CL_MAP_READ, 0, 0, CL_INVALID_VALUE);
  map(buffer, CL_MAP_READ, kSize - 8, 16, CL_INVALID_VALUE);
  map(buffer, CL_MAP_READ, 16, SIZE_MAX - 8, CL_INVALID_VALUE);
  map(buffer, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, CL_INVALID_VALUE);
  map(buffer, CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, CL_INVALID_VALUE);
  map(buffer, cl_map_flags(1) << 10, 0, 16, CL_INVALID_VALUE);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 0u);

  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clEnqueueMapBuffer(nullptr, buffer, CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueMapBuffer(env.queue, nullptr, CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr, &status),
            nullptr);
  EXPECT_EQ(status, CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueMapBuffer(env.queue, buffer, CL_TRUE, CL_MAP_READ, 0, 16, 1, nullptr, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 0u)
      << "a refused map leaves no mapping behind";
  EXPECT_EQ(clEnqueueMapBuffer(env.queue, buffer, CL_TRUE, 0x100, 0, 16, 0, nullptr, nullptr, nullptr), nullptr)
      << "errcode_ret may be NULL";

  Env other;
  Mem foreign = make_buffer(other.context, 0, kSize);
  map(foreign, CL_MAP_READ, 0, 16, CL_INVALID_CONTEXT);
}

TEST_F(BufferMap, HostAccessFlagsLimitMaps) {
  Mem write_only = make_buffer(env.context, CL_MEM_HOST_WRITE_ONLY, kSize);
  Mem read_only = make_buffer(env.context, CL_MEM_HOST_READ_ONLY, kSize);
  Mem no_access = make_buffer(env.context, CL_MEM_HOST_NO_ACCESS, kSize);
  map(write_only, CL_MAP_READ, 0, 16, CL_INVALID_OPERATION);
  map(read_only, CL_MAP_WRITE, 0, 16, CL_INVALID_OPERATION);
  map(read_only, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, CL_INVALID_OPERATION);
  map(no_access, CL_MAP_READ, 0, 16, CL_INVALID_OPERATION);
  map(no_access, CL_MAP_WRITE, 0, 16, CL_INVALID_OPERATION);
  void* w = map(write_only, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16);
  void* r = map(read_only, CL_MAP_READ, 0, 16);
  EXPECT_EQ(unmap(write_only, w), CL_SUCCESS);
  EXPECT_EQ(unmap(read_only, r), CL_SUCCESS);
}

TEST_F(BufferMap, BlockingMapWithFailedWaitList) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  cl_event gate = user_event(env.context);
  ASSERT_EQ(clSetUserEventStatus(gate, -3), CL_SUCCESS);
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clEnqueueMapBuffer(env.queue, buffer, CL_TRUE, CL_MAP_READ, 0, 16, 1, &gate, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 0u);
  clReleaseEvent(gate);
}

TEST_F(BufferMap, UnmapErrors) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  Mem other_buffer = make_buffer(env.context, 0, kSize);
  void* pointer = map(buffer, CL_MAP_READ, 0, 64);
  uint8_t stranger[16];
  EXPECT_EQ(unmap(buffer, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(unmap(buffer, stranger), CL_INVALID_VALUE);
  EXPECT_EQ(unmap(buffer, static_cast<uint8_t*>(pointer) + 1), CL_INVALID_VALUE);
  EXPECT_EQ(unmap(other_buffer, pointer), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueUnmapMemObject(nullptr, buffer, pointer, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, reinterpret_cast<cl_mem>(env.context), pointer, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, buffer, pointer, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  Env other;
  cl_event foreign_event = user_event(other.context);
  EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, buffer, pointer, 1, &foreign_event, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueUnmapMemObject(other.queue, buffer, pointer, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(info_value<cl_uint>(clGetMemObjectInfo, buffer, CL_MEM_MAP_COUNT), 1u) << "refused unmaps keep the mapping";
  EXPECT_EQ(unmap(buffer, pointer), CL_SUCCESS);
  clReleaseEvent(foreign_event);
}

}  // namespace

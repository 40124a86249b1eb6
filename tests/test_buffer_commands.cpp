// clEnqueueReadBuffer, WriteBuffer, CopyBuffer, FillBuffer and MigrateMemObjects.
#include <cstring>

#include "buffer_test_helpers.h"

using namespace cucl_test;
using namespace buffer_test;

namespace {

constexpr size_t kSize = 4096;

class BufferCommands : public BufferFixture {};

TEST_F(BufferCommands, WriteThenReadAtOffsets) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  write_all(env.queue, buffer, std::vector<uint8_t>(kSize, 0));
  auto data = pattern(1000, 4);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_TRUE, 123, 1000, data.data(), 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint8_t> back(1000);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 123, 1000, back.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(back, data);
  auto whole = read_all(env.queue, buffer, kSize);
  EXPECT_EQ(std::count(whole.begin(), whole.begin() + 123, 0), 123);
  EXPECT_EQ(std::count(whole.begin() + 1123, whole.end(), 0), long(kSize - 1123));
  // The last byte, and an empty transfer at the very end (no bytes to read: in bounds).
  uint8_t last = 0;
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, kSize - 1, 1, &last, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, kSize, 0, &last, 0, nullptr, nullptr), CL_SUCCESS);
}

TEST_F(BufferCommands, NonBlockingReadCompletesItsEvent) {
  auto data = pattern(kSize, 8);
  Mem buffer = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  std::vector<uint8_t> back(kSize, 0);
  cl_event done = nullptr;
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_FALSE, 0, kSize, back.data(), 0, nullptr, &done), CL_SUCCESS);
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(event_type(done), cl_command_type(CL_COMMAND_READ_BUFFER));
  ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  EXPECT_EQ(event_status(done), CL_COMPLETE);
  EXPECT_EQ(back, data);
  EXPECT_EQ(clReleaseEvent(done), CL_SUCCESS);
}

TEST_F(BufferCommands, WriteWaitsForItsWaitList) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  write_all(env.queue, buffer, std::vector<uint8_t>(kSize, 0));
  cl_event gate = user_event(env.context);
  auto data = pattern(kSize, 12);
  cl_event write = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_FALSE, 0, kSize, data.data(), 1, &gate, &write), CL_SUCCESS);
  EXPECT_EQ(event_type(write), cl_command_type(CL_COMMAND_WRITE_BUFFER));
  EXPECT_GT(event_status(write), CL_RUNNING) << "must not start before the user event completes";
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &write), CL_SUCCESS);
  EXPECT_EQ(read_all(env.queue, buffer, kSize), data);
  clReleaseEvent(write);
  clReleaseEvent(gate);
}

TEST_F(BufferCommands, FailedWaitListFailsTheCommand) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  auto before = pattern(kSize, 1);
  write_all(env.queue, buffer, before);
  cl_event gate = user_event(env.context);
  auto data = pattern(kSize, 99);
  cl_event write = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_FALSE, 0, kSize, data.data(), 1, &gate, &write), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, -5), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_LT(event_status(write), 0);

  std::vector<uint8_t> back(kSize, 0);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, kSize, back.data(), 1, &gate, nullptr),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_TRUE, 0, kSize, data.data(), 1, &gate, nullptr),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(read_all(env.queue, buffer, kSize), before) << "no failed write may have run";
  clReleaseEvent(write);
  clReleaseEvent(gate);
}

TEST_F(BufferCommands, ReadWriteArgumentErrors) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  std::vector<uint8_t> host(kSize);
  for (int which = 0; which < 2; ++which) {
    auto call = [&](cl_command_queue q, cl_mem m, size_t offset, size_t size, void* ptr) {
      return which == 0 ? clEnqueueReadBuffer(q, m, CL_TRUE, offset, size, ptr, 0, nullptr, nullptr)
                        : clEnqueueWriteBuffer(q, m, CL_TRUE, offset, size, ptr, 0, nullptr, nullptr);
    };
    SCOPED_TRACE(which == 0 ? "read" : "write");
    EXPECT_EQ(call(nullptr, buffer, 0, 16, host.data()), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(call(reinterpret_cast<cl_command_queue>(env.context), buffer, 0, 16, host.data()),
              CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(call(env.queue, nullptr, 0, 16, host.data()), CL_INVALID_MEM_OBJECT);
    EXPECT_EQ(call(env.queue, buffer, 0, 16, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(call(env.queue, buffer, kSize - 15, 16, host.data()), CL_INVALID_VALUE);
    EXPECT_EQ(call(env.queue, buffer, kSize + 1, 0, host.data()), CL_INVALID_VALUE);
    EXPECT_EQ(call(env.queue, buffer, 0, kSize + 1, host.data()), CL_INVALID_VALUE);
    EXPECT_EQ(call(env.queue, buffer, 16, SIZE_MAX - 8, host.data()), CL_INVALID_VALUE) << "offset + size wraps";
  }
}

TEST_F(BufferCommands, ContextAndWaitListErrors) {
  Env other;
  Mem buffer = make_buffer(env.context, 0, kSize);
  Mem foreign = make_buffer(other.context, 0, kSize);
  char host[16];
  cl_event other_event = user_event(other.context);
  cl_event own_event = user_event(env.context);
  ASSERT_EQ(clSetUserEventStatus(own_event, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(other_event, CL_COMPLETE), CL_SUCCESS);
  cl_event bogus = reinterpret_cast<cl_event>(buffer.get());

  EXPECT_EQ(clEnqueueReadBuffer(env.queue, foreign, CL_TRUE, 0, 16, host, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueWriteBuffer(env.queue, foreign, CL_TRUE, 0, 16, host, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, 16, host, 1, &other_event, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, 16, host, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, 16, host, 0, &own_event, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueWriteBuffer(env.queue, buffer, CL_TRUE, 0, 16, host, 1, &bogus, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_event event = nullptr;
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, 16, host, 1, &own_event, &event), CL_SUCCESS);
  EXPECT_EQ(event_status(event), CL_COMPLETE);
  clReleaseEvent(event);
  clReleaseEvent(own_event);
  clReleaseEvent(other_event);
}

TEST_F(BufferCommands, HostAccessFlagsLimitReadAndWrite) {
  char host[16] = {};
  auto read = [&](cl_mem m) { return clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); };
  auto write = [&](cl_mem m) { return clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, 16, host, 0, nullptr, nullptr); };
  Mem write_only = make_buffer(env.context, CL_MEM_HOST_WRITE_ONLY, kSize);
  Mem read_only = make_buffer(env.context, CL_MEM_HOST_READ_ONLY, kSize);
  Mem no_access = make_buffer(env.context, CL_MEM_HOST_NO_ACCESS, kSize);
  EXPECT_EQ(read(write_only), CL_INVALID_OPERATION);
  EXPECT_EQ(write(write_only), CL_SUCCESS);
  EXPECT_EQ(read(read_only), CL_SUCCESS);
  EXPECT_EQ(write(read_only), CL_INVALID_OPERATION);
  EXPECT_EQ(read(no_access), CL_INVALID_OPERATION);
  EXPECT_EQ(write(no_access), CL_INVALID_OPERATION);
  Mem inherited = make_sub_buffer(no_access, 0, 0, align);
  EXPECT_EQ(read(inherited), CL_INVALID_OPERATION) << "sub-buffers inherit host access";
}

TEST_F(BufferCommands, CopyBetweenBuffersAndWithinOne) {
  auto data = pattern(kSize, 6);
  Mem src = make_buffer(env.context, CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_NO_ACCESS, kSize, data.data());
  Mem dst = make_buffer(env.context, 0, kSize);
  write_all(env.queue, dst, std::vector<uint8_t>(kSize, 0));
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueCopyBuffer(env.queue, src, dst, 100, 300, 1000, 0, nullptr, &event), CL_SUCCESS)
      << "copies ignore host access flags";
  EXPECT_EQ(event_type(event), cl_command_type(CL_COMMAND_COPY_BUFFER));
  clReleaseEvent(event);
  std::vector<uint8_t> expected(kSize, 0);
  std::copy(data.begin() + 100, data.begin() + 1100, expected.begin() + 300);
  EXPECT_EQ(read_all(env.queue, dst, kSize), expected);

  // Within one buffer: [0, 300) to [1000, 1300) does not overlap.
  ASSERT_EQ(clEnqueueCopyBuffer(env.queue, dst, dst, 300, 2000, 300, 0, nullptr, nullptr), CL_SUCCESS);
  std::copy(expected.begin() + 300, expected.begin() + 600, expected.begin() + 2000);
  EXPECT_EQ(read_all(env.queue, dst, kSize), expected);
}

TEST_F(BufferCommands, CopyOverlapIsRefused) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, buffer, buffer, 0, 100, 101, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, buffer, buffer, 100, 0, 101, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, buffer, buffer, 0, 0, 1, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, buffer, buffer, 0, 100, 100, 0, nullptr, nullptr), CL_SUCCESS);

  Mem a = make_sub_buffer(buffer, 0, 0, 4 * align);          // [0, 4 align)
  Mem b = make_sub_buffer(buffer, 0, 2 * align, 4 * align);  // [2 align, 6 align)
  // a[2 align..] and b[0..] are the same bytes.
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, a, b, 2 * align, 0, 16, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, b, a, 0, 2 * align + 8, 16, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  // A sub-buffer and its parent share the store too.
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, b, buffer, 0, 2 * align, 16, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);

  auto data = pattern(kSize, 31);
  write_all(env.queue, buffer, data);
  ASSERT_EQ(clEnqueueCopyBuffer(env.queue, a, b, 0, 2 * align, align, 0, nullptr, nullptr), CL_SUCCESS);
  std::copy(data.begin(), data.begin() + align, data.begin() + 4 * align);
  EXPECT_EQ(read_all(env.queue, buffer, kSize), data);
}

TEST_F(BufferCommands, CopyArgumentErrors) {
  Env other;
  Mem a = make_buffer(env.context, 0, kSize);
  Mem b = make_buffer(env.context, 0, kSize / 2);
  Mem foreign = make_buffer(other.context, 0, kSize);
  auto copy = [&](cl_command_queue q, cl_mem s, cl_mem d, size_t so, size_t doff, size_t size) {
    return clEnqueueCopyBuffer(q, s, d, so, doff, size, 0, nullptr, nullptr);
  };
  EXPECT_EQ(copy(nullptr, a, b, 0, 0, 16), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(copy(env.queue, nullptr, b, 0, 0, 16), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(copy(env.queue, a, reinterpret_cast<cl_mem>(env.context), 0, 0, 16), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(copy(env.queue, foreign, b, 0, 0, 16), CL_INVALID_CONTEXT);
  EXPECT_EQ(copy(env.queue, a, foreign, 0, 0, 16), CL_INVALID_CONTEXT);
  EXPECT_EQ(copy(env.queue, a, b, 0, 0, kSize / 2 + 1), CL_INVALID_VALUE) << "past the end of dst";
  EXPECT_EQ(copy(env.queue, a, b, kSize - 8, 0, 16), CL_INVALID_VALUE) << "past the end of src";
  EXPECT_EQ(copy(env.queue, a, b, 0, SIZE_MAX, 16), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, a, b, 0, 0, 16, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
}

TEST_F(BufferCommands, FillWithEveryPatternSize) {
  for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
    SCOPED_TRACE(pattern_size);
    auto background = pattern(kSize, 200);
    // Fills ignore host access flags.
    Mem fresh = make_buffer(env.context, CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_READ_ONLY, kSize, background.data());
    auto fill = pattern(pattern_size, static_cast<uint8_t>(pattern_size));
    size_t offset = 2 * 128, size = 8 * 128;
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueFillBuffer(env.queue, fresh, fill.data(), pattern_size, offset, size, 0, nullptr, &event),
              CL_SUCCESS);
    EXPECT_EQ(event_type(event), cl_command_type(CL_COMMAND_FILL_BUFFER));
    clReleaseEvent(event);
    auto expected = background;
    for (size_t i = 0; i < size; ++i) expected[offset + i] = fill[i % pattern_size];
    EXPECT_EQ(read_all(env.queue, fresh, kSize), expected);
  }
}

TEST_F(BufferCommands, FillArgumentErrors) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  uint8_t bytes[256] = {};
  auto fill = [&](const void* p, size_t pattern_size, size_t offset, size_t size) {
    return clEnqueueFillBuffer(env.queue, buffer, p, pattern_size, offset, size, 0, nullptr, nullptr);
  };
  EXPECT_EQ(fill(nullptr, 4, 0, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(bytes, 0, 0, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(bytes, 3, 0, 12), CL_INVALID_VALUE);
  EXPECT_EQ(fill(bytes, 256, 0, 256), CL_INVALID_VALUE);
  EXPECT_EQ(fill(bytes, 4, 2, 16), CL_INVALID_VALUE) << "offset not a multiple of the pattern";
  EXPECT_EQ(fill(bytes, 4, 0, 18), CL_INVALID_VALUE) << "size not a multiple of the pattern";
  EXPECT_EQ(fill(bytes, 4, kSize - 8, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(bytes, 4, SIZE_MAX - 3, 8), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(nullptr, buffer, bytes, 4, 0, 16, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueFillBuffer(env.queue, nullptr, bytes, 4, 0, 16, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  Env other;
  Mem foreign = make_buffer(other.context, 0, kSize);
  EXPECT_EQ(clEnqueueFillBuffer(env.queue, foreign, bytes, 4, 0, 16, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(fill(bytes, 4, 0, 16), CL_SUCCESS);
}

TEST_F(BufferCommands, MigrateKeepsContents) {
  auto data = pattern(kSize, 44);
  Mem a = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  Mem b = make_buffer(env.context, 0, kSize);
  Mem sub = make_sub_buffer(a, 0, align, align);
  cl_mem all[] = {a, b, sub};
  for (cl_mem_migration_flags flags : {cl_mem_migration_flags(0), cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST),
                                       cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED),
                                       cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                                              CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)}) {
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueMigrateMemObjects(env.queue, 3, all, flags, 0, nullptr, &event), CL_SUCCESS) << flags;
    EXPECT_EQ(event_type(event), cl_command_type(CL_COMMAND_MIGRATE_MEM_OBJECTS));
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    clReleaseEvent(event);
  }
  ASSERT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, all, 0, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_all(env.queue, a, kSize), data);
}

TEST_F(BufferCommands, MigrateArgumentErrors) {
  Env other;
  Mem a = make_buffer(env.context, 0, kSize);
  Mem foreign = make_buffer(other.context, 0, kSize);
  cl_mem list[] = {a};
  cl_mem with_foreign[] = {a, foreign};
  cl_mem with_null[] = {a, nullptr};
  EXPECT_EQ(clEnqueueMigrateMemObjects(nullptr, 1, list, 0, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 0, list, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, nullptr, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, list, 1 << 5, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 2, with_null, 0, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 2, with_foreign, 0, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, list, 0, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
}

}  // namespace

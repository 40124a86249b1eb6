// clEnqueueReadBufferRect, WriteBufferRect and CopyBufferRect.
#include <array>

#include "buffer_test_helpers.h"

using namespace cucl_test;
using namespace buffer_test;

namespace {

constexpr size_t kSize = 8192;
using Triple = std::array<size_t, 3>;

// The byte-by-byte meaning of a rectangle copy, as the spec describes it.
void reference_copy(const uint8_t* src, Triple src_origin, size_t src_row, size_t src_slice, uint8_t* dst,
                    Triple dst_origin, size_t dst_row, size_t dst_slice, Triple region) {
  for (size_t z = 0; z < region[2]; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      for (size_t x = 0; x < region[0]; ++x) {
        size_t s = (src_origin[2] + z) * src_slice + (src_origin[1] + y) * src_row + src_origin[0] + x;
        size_t d = (dst_origin[2] + z) * dst_slice + (dst_origin[1] + y) * dst_row + dst_origin[0] + x;
        dst[d] = src[s];
      }
    }
  }
}

// A rectangle and where it lies in a buffer and in host memory, in the order the API takes
// them; read and write enqueue the rectangle transfer with these arguments.
struct RectLayout {
  Triple buffer_origin, host_origin, region;
  size_t buffer_row = 0, buffer_slice = 0, host_row = 0, host_slice = 0;

  cl_int read(cl_command_queue queue, cl_mem buffer, cl_bool blocking, void* host, cl_event* event = nullptr,
              const std::vector<cl_event>& wait = {}) const {
    return clEnqueueReadBufferRect(queue, buffer, blocking, buffer_origin.data(), host_origin.data(), region.data(),
                                   buffer_row, buffer_slice, host_row, host_slice, host,
                                   static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(), event);
  }
  cl_int write(cl_command_queue queue, cl_mem buffer, cl_bool blocking, const void* host, cl_event* event = nullptr,
               const std::vector<cl_event>& wait = {}) const {
    return clEnqueueWriteBufferRect(queue, buffer, blocking, buffer_origin.data(), host_origin.data(), region.data(),
                                    buffer_row, buffer_slice, host_row, host_slice, host,
                                    static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(), event);
  }
};

class BufferRect : public BufferFixture {};

TEST_F(BufferRect, WriteRectPlacesEveryRow) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  write_all(env.queue, buffer, std::vector<uint8_t>(kSize, 0));
  auto host = pattern(4000, 3);
  RectLayout rect{{5, 2, 1}, {3, 1, 2}, {17, 6, 3}, 40, 400, 25, 200};
  cl_event event = nullptr;
  ASSERT_EQ(rect.write(env.queue, buffer, CL_TRUE, host.data(), &event), CL_SUCCESS);
  EXPECT_EQ(event_type(event), cl_command_type(CL_COMMAND_WRITE_BUFFER_RECT));
  clReleaseEvent(event);
  std::vector<uint8_t> expected(kSize, 0);
  reference_copy(host.data(), rect.host_origin, rect.host_row, rect.host_slice, expected.data(), rect.buffer_origin,
                 rect.buffer_row, rect.buffer_slice, rect.region);
  EXPECT_EQ(read_all(env.queue, buffer, kSize), expected);
}

TEST_F(BufferRect, ReadRectLeavesTheGapsAlone) {
  auto data = pattern(kSize, 17);
  Mem buffer = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  std::vector<uint8_t> host(3000, 0xAB);
  RectLayout rect{{7, 3, 2}, {1, 2, 1}, {10, 4, 2}, 64, 1024, 32, 256};
  cl_event event = nullptr;
  ASSERT_EQ(rect.read(env.queue, buffer, CL_FALSE, host.data(), &event), CL_SUCCESS);
  EXPECT_EQ(event_type(event), cl_command_type(CL_COMMAND_READ_BUFFER_RECT));
  ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
  std::vector<uint8_t> expected(3000, 0xAB);
  reference_copy(data.data(), rect.buffer_origin, rect.buffer_row, rect.buffer_slice, expected.data(), rect.host_origin,
                 rect.host_row, rect.host_slice, rect.region);
  EXPECT_EQ(host, expected);
}

TEST_F(BufferRect, ZeroPitchesMeanTightlyPacked) {
  auto data = pattern(kSize, 23);
  Mem buffer = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  RectLayout packed{{2, 1, 1}, {0, 0, 0}, {8, 3, 2}};  // every pitch 0
  std::vector<uint8_t> host(8 * 3 * 2, 0);
  ASSERT_EQ(packed.read(env.queue, buffer, CL_TRUE, host.data()), CL_SUCCESS);
  std::vector<uint8_t> expected(host.size(), 0);
  // Buffer pitches default to region[0] and region[0] * region[1] too.
  reference_copy(data.data(), packed.buffer_origin, 8, 24, expected.data(), packed.host_origin, 8, 24, packed.region);
  EXPECT_EQ(host, expected);
}

TEST_F(BufferRect, CopyRectBetweenBuffers) {
  auto data = pattern(kSize, 29);
  Mem src = make_buffer(env.context, CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_NO_ACCESS, kSize, data.data());
  Mem dst = make_buffer(env.context, 0, kSize);
  write_all(env.queue, dst, std::vector<uint8_t>(kSize, 0));
  Triple src_origin{4, 2, 1}, dst_origin{9, 0, 2}, region{20, 5, 3};
  cl_event event = nullptr;
  ASSERT_EQ(clEnqueueCopyBufferRect(env.queue, src, dst, src_origin.data(), dst_origin.data(), region.data(), 48, 480,
                                    30, 600, 0, nullptr, &event),
            CL_SUCCESS);
  EXPECT_EQ(event_type(event), cl_command_type(CL_COMMAND_COPY_BUFFER_RECT));
  clReleaseEvent(event);
  std::vector<uint8_t> expected(kSize, 0);
  reference_copy(data.data(), src_origin, 48, 480, expected.data(), dst_origin, 30, 600, region);
  EXPECT_EQ(read_all(env.queue, dst, kSize), expected);
}

TEST_F(BufferRect, CopyRectWithinOneBuffer) {
  auto data = pattern(kSize, 37);
  Mem buffer = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  Triple region{8, 4, 1};
  // Left half of each 16-byte row to the right half of the same rows: interleaved, disjoint.
  Triple left{0, 0, 0}, right{8, 0, 0};
  ASSERT_EQ(clEnqueueCopyBufferRect(env.queue, buffer, buffer, left.data(), right.data(), region.data(), 16, 64, 16, 64,
                                    0, nullptr, nullptr),
            CL_SUCCESS);
  auto expected = data;
  reference_copy(data.data(), left, 16, 64, expected.data(), right, 16, 64, region);
  EXPECT_EQ(read_all(env.queue, buffer, kSize), expected);

  Triple shifted{4, 0, 0}, next_row{0, 1, 0};
  EXPECT_EQ(clEnqueueCopyBufferRect(env.queue, buffer, buffer, left.data(), shifted.data(), region.data(), 16, 64, 16,
                                    64, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBufferRect(env.queue, buffer, buffer, left.data(), next_row.data(), region.data(), 16, 64, 16,
                                    64, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBufferRect(env.queue, buffer, buffer, left.data(), right.data(), region.data(), 16, 64, 32,
                                    128, 0, nullptr, nullptr),
            CL_INVALID_VALUE)
      << "one buffer needs one set of pitches";
}

TEST_F(BufferRect, CopyRectOverlapThroughSubBuffers) {
  Mem parent = make_buffer(env.context, 0, kSize);
  Mem a = make_sub_buffer(parent, 0, 0, 4 * align);
  Mem b = make_sub_buffer(parent, 0, align, 4 * align);
  Triple at_align{0, 1, 0}, zero{0, 0, 0}, region{16, 2, 1};
  // a's second row (pitch = align) starts where b starts.
  EXPECT_EQ(clEnqueueCopyBufferRect(env.queue, a, b, at_align.data(), zero.data(), region.data(), align, 0, align, 0,
                                    0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  Triple far{0, 2, 0};
  EXPECT_EQ(clEnqueueCopyBufferRect(env.queue, a, b, zero.data(), far.data(), region.data(), 16, 0, align, 0, 0,
                                    nullptr, nullptr),
            CL_SUCCESS);
}

TEST_F(BufferRect, ArgumentErrors) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  std::vector<uint8_t> host(kSize);
  Triple zero{0, 0, 0}, region{16, 4, 2};
  auto read = [&](const size_t* bo, const size_t* ho, const size_t* r, size_t br, size_t bs, size_t hr, size_t hs,
                  void* ptr) {
    return clEnqueueReadBufferRect(env.queue, buffer, CL_TRUE, bo, ho, r, br, bs, hr, hs, ptr, 0, nullptr, nullptr);
  };
  EXPECT_EQ(read(nullptr, zero.data(), region.data(), 0, 0, 0, 0, host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(read(zero.data(), nullptr, region.data(), 0, 0, 0, 0, host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(read(zero.data(), zero.data(), nullptr, 0, 0, 0, 0, host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(read(zero.data(), zero.data(), region.data(), 0, 0, 0, 0, nullptr), CL_INVALID_VALUE);
  for (size_t i = 0; i < 3; ++i) {
    Triple empty = region;
    empty[i] = 0;
    EXPECT_EQ(read(zero.data(), zero.data(), empty.data(), 0, 0, 0, 0, host.data()), CL_INVALID_VALUE) << i;
  }
  EXPECT_EQ(read(zero.data(), zero.data(), region.data(), 15, 0, 0, 0, host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(read(zero.data(), zero.data(), region.data(), 16, 63, 0, 0, host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(read(zero.data(), zero.data(), region.data(), 16, 72, 0, 0, host.data()), CL_INVALID_VALUE)
      << "slice pitch not a multiple of row pitch";
  EXPECT_EQ(read(zero.data(), zero.data(), region.data(), 0, 0, 15, 0, host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(read(zero.data(), zero.data(), region.data(), 0, 0, 20, 60, host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(read(zero.data(), zero.data(), region.data(), 0, 0, 20, 90, host.data()), CL_INVALID_VALUE);
  Triple end{0, 0, kSize / 64 - 1};
  EXPECT_EQ(read(end.data(), zero.data(), region.data(), 0, 0, 0, 0, host.data()), CL_INVALID_VALUE)
      << "the second slice is past the end";
  Triple huge{SIZE_MAX, 0, 0};
  EXPECT_EQ(read(huge.data(), zero.data(), region.data(), 0, 0, 0, 0, host.data()), CL_INVALID_VALUE);
  Triple huge_rows{0, SIZE_MAX / 4, 0};
  EXPECT_EQ(read(huge_rows.data(), zero.data(), region.data(), 0, 0, 0, 0, host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(read(zero.data(), zero.data(), region.data(), 16, 64, 16, 64, host.data()), CL_SUCCESS);

  EXPECT_EQ(clEnqueueWriteBufferRect(env.queue, buffer, CL_TRUE, zero.data(), zero.data(), region.data(), 0, 0, 0, 0,
                                     nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBufferRect(env.queue, buffer, buffer, nullptr, zero.data(), region.data(), 0, 0, 0, 0, 0,
                                    nullptr, nullptr),
            CL_INVALID_VALUE);
  Triple far{0, 0, 3};
  EXPECT_EQ(clEnqueueCopyBufferRect(env.queue, buffer, buffer, zero.data(), far.data(), region.data(), 0, 0, 0, 0, 0,
                                    nullptr, nullptr),
            CL_SUCCESS);
  Triple tiny_region{16, 1, 1};
  EXPECT_EQ(clEnqueueCopyBufferRect(env.queue, buffer, buffer, zero.data(), far.data(), tiny_region.data(), 8, 0, 0, 0,
                                    0, nullptr, nullptr),
            CL_INVALID_VALUE);
}

TEST_F(BufferRect, QueueContextAndHostAccessErrors) {
  Env other;
  Mem buffer = make_buffer(env.context, 0, kSize);
  Mem foreign = make_buffer(other.context, 0, kSize);
  Mem write_only = make_buffer(env.context, CL_MEM_HOST_WRITE_ONLY, kSize);
  Mem read_only = make_buffer(env.context, CL_MEM_HOST_READ_ONLY, kSize);
  std::vector<uint8_t> host(kSize);
  Triple zero{0, 0, 0}, region{16, 4, 1};
  RectLayout rect{zero, zero, region};
  auto read = [&](cl_command_queue q, cl_mem m) { return rect.read(q, m, CL_TRUE, host.data()); };
  auto write = [&](cl_command_queue q, cl_mem m) { return rect.write(q, m, CL_TRUE, host.data()); };
  auto copy = [&](cl_command_queue q, cl_mem s, cl_mem d) {
    return clEnqueueCopyBufferRect(q, s, d, zero.data(), zero.data(), region.data(), 0, 0, 0, 0, 0, nullptr, nullptr);
  };
  EXPECT_EQ(read(nullptr, buffer), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(write(nullptr, buffer), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(copy(nullptr, buffer, read_only), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(read(env.queue, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(write(env.queue, reinterpret_cast<cl_mem>(env.queue)), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(copy(env.queue, buffer, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(read(env.queue, foreign), CL_INVALID_CONTEXT);
  EXPECT_EQ(write(env.queue, foreign), CL_INVALID_CONTEXT);
  EXPECT_EQ(copy(env.queue, buffer, foreign), CL_INVALID_CONTEXT);
  EXPECT_EQ(read(env.queue, write_only), CL_INVALID_OPERATION);
  EXPECT_EQ(write(env.queue, write_only), CL_SUCCESS);
  EXPECT_EQ(read(env.queue, read_only), CL_SUCCESS);
  EXPECT_EQ(write(env.queue, read_only), CL_INVALID_OPERATION);
  EXPECT_EQ(copy(env.queue, write_only, read_only), CL_SUCCESS) << "copies ignore host access flags";
  EXPECT_EQ(clEnqueueReadBufferRect(env.queue, buffer, CL_TRUE, zero.data(), zero.data(), region.data(), 0, 0, 0, 0,
                                    host.data(), 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
}

TEST_F(BufferRect, BlockingRectWithFailedWaitList) {
  Mem buffer = make_buffer(env.context, 0, kSize);
  std::vector<uint8_t> host(kSize);
  RectLayout rect{{0, 0, 0}, {0, 0, 0}, {16, 4, 1}};
  cl_event gate = user_event(env.context);
  ASSERT_EQ(clSetUserEventStatus(gate, -1), CL_SUCCESS);
  EXPECT_EQ(rect.read(env.queue, buffer, CL_TRUE, host.data(), nullptr, {gate}),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(rect.write(env.queue, buffer, CL_TRUE, host.data(), nullptr, {gate}),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(gate);
}

}  // namespace

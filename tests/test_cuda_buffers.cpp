// The buffer commands on a GPU: read, write, copy, fill and the rectangle variants, each
// checked byte for byte against what the host computes.
#include <array>
#include <cstring>
#include <numeric>

#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

class CudaBuffers : public GpuTest {};

TEST_F(CudaBuffers, WriteThenReadAtOffsets) {
  constexpr size_t kSize = 4096;
  Mem buffer = make_buffer(context(), 0, kSize);
  auto base = pattern(kSize, 1);
  write_all(queue(), buffer, base);
  auto part = pattern(1000, 9);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_TRUE, 123, part.size(), part.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  std::copy(part.begin(), part.end(), base.begin() + 123);
  EXPECT_EQ(read_all(queue(), buffer, kSize), base);
  std::vector<uint8_t> middle(77, 0);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_TRUE, 1001, middle.size(), middle.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(std::equal(middle.begin(), middle.end(), base.begin() + 1001));
}

TEST_F(CudaBuffers, NonBlockingCommandsCompleteTheirEvents) {
  constexpr size_t kSize = 1 << 16;
  Mem buffer = make_buffer(context(), 0, kSize);
  auto data = pattern(kSize, 4);
  std::vector<uint8_t> back(kSize, 0);
  cl_event write = nullptr, read = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_FALSE, 0, kSize, data.data(), 0, nullptr, &write), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_FALSE, 0, kSize, back.data(), 1, &write, &read), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
  EXPECT_EQ(event_status(write), CL_COMPLETE);
  EXPECT_EQ(event_status(read), CL_COMPLETE);
  EXPECT_EQ(back, data);
  clReleaseEvent(write);
  clReleaseEvent(read);
}

TEST_F(CudaBuffers, CopyBetweenBuffersAndWithinOne) {
  constexpr size_t kSize = 8192;
  Mem a = make_buffer(context(), 0, kSize);
  Mem b = make_buffer(context(), 0, kSize);
  auto data_a = pattern(kSize, 2);
  auto data_b = pattern(kSize, 5);
  write_all(queue(), a, data_a);
  write_all(queue(), b, data_b);
  ASSERT_EQ(clEnqueueCopyBuffer(queue(), a, b, 100, 3000, 2500, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBuffer(queue(), a, a, 0, 5000, 1000, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  std::copy(data_a.begin() + 100, data_a.begin() + 2600, data_b.begin() + 3000);
  std::copy(data_a.begin(), data_a.begin() + 1000, data_a.begin() + 5000);
  EXPECT_EQ(read_all(queue(), b, kSize), data_b);
  EXPECT_EQ(read_all(queue(), a, kSize), data_a);
}

TEST_F(CudaBuffers, SubBuffersReadAndWriteTheirParentsBytes) {
  const size_t align = base_align(gpu);
  const size_t size = 4 * align;
  Mem parent = make_buffer(context(), 0, size);
  auto data = pattern(size, 3);
  write_all(queue(), parent, data);
  Mem sub = make_sub_buffer(parent, 0, align, 2 * align);
  EXPECT_TRUE(std::equal(data.begin() + align, data.begin() + 3 * align, read_all(queue(), sub, 2 * align).begin()));
  auto fresh = pattern(2 * align, 11);
  write_all(queue(), sub, fresh);
  std::copy(fresh.begin(), fresh.end(), data.begin() + align);
  EXPECT_EQ(read_all(queue(), parent, size), data);
}

// Every pattern size, with patterns that repeat at a narrower width (the driver's memset)
// and patterns that do not (the fill kernels), at offsets inside the buffer.
TEST_F(CudaBuffers, FillWithEveryPatternSize) {
  constexpr size_t kSize = 1 << 14;
  Mem buffer = make_buffer(context(), 0, kSize);
  for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
    for (bool repeating : {false, true}) {
      std::vector<uint8_t> expected(kSize, 0x5A);
      write_all(queue(), buffer, expected);
      std::vector<uint8_t> value(pattern_size);
      for (size_t i = 0; i < pattern_size; ++i) value[i] = repeating ? 0xC3 : static_cast<uint8_t>(17 + 29 * i);
      const size_t offset = pattern_size * 3, size = pattern_size * 37;
      ASSERT_EQ(clEnqueueFillBuffer(queue(), buffer, value.data(), pattern_size, offset, size, 0, nullptr, nullptr),
                CL_SUCCESS);
      for (size_t i = 0; i < size; ++i) expected[offset + i] = value[i % pattern_size];
      EXPECT_EQ(read_all(queue(), buffer, kSize), expected) << "pattern size " << pattern_size
                                                            << (repeating ? " (repeating)" : "");
    }
  }
}

TEST_F(CudaBuffers, LargeFillWithAWidePattern) {
  constexpr size_t kSize = 64u << 20;
  Mem buffer = make_buffer(context(), 0, kSize);
  std::array<uint8_t, 128> value;
  std::iota(value.begin(), value.end(), uint8_t{1});
  ASSERT_EQ(clEnqueueFillBuffer(queue(), buffer, value.data(), value.size(), 0, kSize, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto back = read_all(queue(), buffer, kSize);
  size_t wrong = 0;
  for (size_t i = 0; i < kSize; ++i) wrong += back[i] != value[i % value.size()];
  EXPECT_EQ(wrong, 0u);
}

using Triple = std::array<size_t, 3>;

// The byte-by-byte meaning of a rectangle copy.
void reference_rect(const uint8_t* src, Triple src_origin, size_t src_row, size_t src_slice, uint8_t* dst,
                    Triple dst_origin, size_t dst_row, size_t dst_slice, Triple region) {
  for (size_t z = 0; z < region[2]; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      for (size_t x = 0; x < region[0]; ++x) {
        dst[(dst_origin[2] + z) * dst_slice + (dst_origin[1] + y) * dst_row + dst_origin[0] + x] =
            src[(src_origin[2] + z) * src_slice + (src_origin[1] + y) * src_row + src_origin[0] + x];
      }
    }
  }
}

struct RectCase {
  Triple buffer_origin, host_origin, region;
  size_t buffer_row, buffer_slice, host_row, host_slice;
};

// 3D rectangles with padded rows and slices, a tightly packed 2D one, and slices taller
// than the region on both sides.
constexpr RectCase kRectCases[] = {
    {{5, 2, 1}, {3, 1, 2}, {17, 6, 3}, 40, 400, 25, 200},
    {{0, 0, 0}, {0, 0, 0}, {64, 8, 1}, 64, 512, 64, 512},
    {{7, 1, 1}, {2, 3, 0}, {30, 5, 4}, 48, 480, 33, 330},
};

TEST_F(CudaBuffers, WriteAndReadRectangles) {
  constexpr size_t kSize = 8192;
  Mem buffer = make_buffer(context(), 0, kSize);
  for (const RectCase& rect : kRectCases) {
    std::vector<uint8_t> device_bytes(kSize, 0);
    write_all(queue(), buffer, device_bytes);
    auto host = pattern(4000, 3);
    ASSERT_EQ(clEnqueueWriteBufferRect(queue(), buffer, CL_TRUE, rect.buffer_origin.data(), rect.host_origin.data(),
                                       rect.region.data(), rect.buffer_row, rect.buffer_slice, rect.host_row,
                                       rect.host_slice, host.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    reference_rect(host.data(), rect.host_origin, rect.host_row, rect.host_slice, device_bytes.data(),
                   rect.buffer_origin, rect.buffer_row, rect.buffer_slice, rect.region);
    EXPECT_EQ(read_all(queue(), buffer, kSize), device_bytes);

    std::vector<uint8_t> back(4000, 0xEE), expected(4000, 0xEE);
    ASSERT_EQ(clEnqueueReadBufferRect(queue(), buffer, CL_TRUE, rect.buffer_origin.data(), rect.host_origin.data(),
                                      rect.region.data(), rect.buffer_row, rect.buffer_slice, rect.host_row,
                                      rect.host_slice, back.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    reference_rect(device_bytes.data(), rect.buffer_origin, rect.buffer_row, rect.buffer_slice, expected.data(),
                   rect.host_origin, rect.host_row, rect.host_slice, rect.region);
    EXPECT_EQ(back, expected);
  }
}

TEST_F(CudaBuffers, CopyRectanglesBetweenBuffers) {
  constexpr size_t kSize = 8192;
  Mem a = make_buffer(context(), 0, kSize);
  Mem b = make_buffer(context(), 0, kSize);
  for (const RectCase& rect : kRectCases) {
    auto data_a = pattern(kSize, 6);
    auto data_b = pattern(kSize, 8);
    write_all(queue(), a, data_a);
    write_all(queue(), b, data_b);
    ASSERT_EQ(clEnqueueCopyBufferRect(queue(), a, b, rect.buffer_origin.data(), rect.host_origin.data(),
                                      rect.region.data(), rect.buffer_row, rect.buffer_slice, rect.host_row,
                                      rect.host_slice, 0, nullptr, nullptr),
              CL_SUCCESS);
    reference_rect(data_a.data(), rect.buffer_origin, rect.buffer_row, rect.buffer_slice, data_b.data(),
                   rect.host_origin, rect.host_row, rect.host_slice, rect.region);
    EXPECT_EQ(read_all(queue(), b, kSize), data_b);
  }
}

TEST_F(CudaBuffers, MigrateKeepsContents) {
  constexpr size_t kSize = 1024;
  Mem buffer = make_buffer(context(), 0, kSize);
  auto data = pattern(kSize, 12);
  write_all(queue(), buffer, data);
  cl_mem list[] = {buffer.get()};
  ASSERT_EQ(clEnqueueMigrateMemObjects(queue(), 1, list, 0, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueMigrateMemObjects(queue(), 1, list, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read_all(queue(), buffer, kSize), data);
}

TEST_F(CudaBuffers, AllocationsUpToTheLimitWork) {
  auto max_alloc = info_value<cl_ulong>(clGetDeviceInfo, gpu, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  Mem big = make_buffer(context(), 0, max_alloc);
  uint32_t value = 0xDEADBEEF;
  ASSERT_EQ(clEnqueueFillBuffer(queue(), big, &value, 4, max_alloc - 4096, 4096, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint32_t> tail(1024, 0);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), big, CL_TRUE, max_alloc - 4096, 4096, tail.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(tail, std::vector<uint32_t>(1024, value));
}

}  // namespace

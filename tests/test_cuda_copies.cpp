// Copies between GPU buffers of every alignment and size, and the pipelined in-order queue: commands go to the CUDA stream
// without waiting for the previous one, reads into pageable memory are deferred behind them,
// and events complete in order.
#include <cstring>

#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

class CudaCopies : public GpuTest {};

TEST_F(CudaCopies, CopiesOfEveryAlignmentAndSize) {
  constexpr size_t kSize = (6u << 20) + 64;
  struct Case {
    size_t src, dst, size;
  };
  const Case cases[] = {
      {0, 0, 4u << 20},                 // aligned: the kernel
      {3, 19, (3u << 20) + 5},          // equally misaligned: the kernel with a head and a tail
      {7, 7, (5u << 20) + 9},           // the same offset
      {16, 0, 1u << 20},                // exactly the threshold
      {1, 2, (2u << 20) + 3},           // unequally aligned: cuMemcpyAsync
      {0, 0, (1u << 20) - 1},           // below the threshold: cuMemcpyAsync
      {15, 1, (1u << 20) + 15},         // head of 15 bytes
  };
  Mem src = make_buffer(context(), 0, kSize);
  Mem dst = make_buffer(context(), 0, kSize);
  const auto source = position_pattern(kSize, 1);
  write_all(queue(), src, source);
  for (const Case& c : cases) {
    auto expected = position_pattern(kSize, 2);
    write_all(queue(), dst, expected);
    ASSERT_EQ(clEnqueueCopyBuffer(queue(), src, dst, c.src, c.dst, c.size, 0, nullptr, nullptr), CL_SUCCESS);
    std::copy(source.begin() + c.src, source.begin() + c.src + c.size, expected.begin() + c.dst);
    EXPECT_EQ(read_all(queue(), dst, kSize), expected) << "src " << c.src << " dst " << c.dst << " size " << c.size;
  }
}

TEST_F(CudaCopies, CopiesWithinOneBuffer) {
  constexpr size_t kSize = 8u << 20;
  Mem buffer = make_buffer(context(), 0, kSize);
  auto data = position_pattern(kSize, 3);
  write_all(queue(), buffer, data);
  ASSERT_EQ(clEnqueueCopyBuffer(queue(), buffer, buffer, 0, 4u << 20, 3u << 20, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBuffer(queue(), buffer, buffer, (4u << 20) + 5, 21, 3u << 20, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::copy(data.begin(), data.begin() + (3u << 20), data.begin() + (4u << 20));
  std::copy(data.begin() + (4u << 20) + 5, data.begin() + (7u << 20) + 5, data.begin() + 21);
  EXPECT_EQ(read_all(queue(), buffer, kSize), data);
}

// Each copy reads what the one before it wrote: the stream must keep their order although
// none waits for the previous one.
TEST_F(CudaCopies, ChainedCopiesKeepTheirOrder) {
  constexpr size_t kSize = 16u << 20;
  Mem buffers[3] = {make_buffer(context(), 0, kSize), make_buffer(context(), 0, kSize),
                    make_buffer(context(), 0, kSize)};
  auto data = position_pattern(kSize, 4);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffers[0], CL_FALSE, 0, kSize, data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  uint32_t zero = 0;
  for (int round = 0; round < 20; ++round) {
    ASSERT_EQ(clEnqueueFillBuffer(queue(), buffers[(round + 1) % 3], &zero, 4, 0, kSize, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueCopyBuffer(queue(), buffers[round % 3], buffers[(round + 1) % 3], 0, 0, kSize, 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
  }
  std::vector<uint8_t> back(kSize, 0);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffers[20 % 3], CL_TRUE, 0, kSize, back.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(back == data);
}

// A non-blocking read into pageable memory queued behind copies (deferred to the completion
// thread), then writes that change the buffer: the read sees the state before them.
TEST_F(CudaCopies, ReadsBehindBusyStreamSeeTheirPlaceInOrder) {
  constexpr size_t kSize = 32u << 20;
  Mem a = make_buffer(context(), 0, kSize);
  Mem b = make_buffer(context(), 0, kSize);
  auto data = position_pattern(kSize, 5);
  write_all(queue(), a, data);
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(clEnqueueCopyBuffer(queue(), i % 2 ? b : a, i % 2 ? a : b, 0, 0, kSize, 0, nullptr, nullptr),
              CL_SUCCESS);
  }
  std::vector<uint8_t> small(4096, 0), large(kSize, 0);
  cl_event small_read = nullptr, large_read = nullptr;
  ASSERT_EQ(clEnqueueReadBuffer(queue(), a, CL_FALSE, 0, small.size(), small.data(), 0, nullptr, &small_read),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), a, CL_FALSE, 0, kSize, large.data(), 0, nullptr, &large_read), CL_SUCCESS);
  std::vector<uint8_t> ones(kSize, 1);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), a, CL_FALSE, 0, kSize, ones.data(), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &small_read), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &large_read), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  EXPECT_TRUE(std::equal(small.begin(), small.end(), data.begin()));
  EXPECT_TRUE(large == data);
  EXPECT_EQ(read_all(queue(), a, kSize), ones);
  clReleaseEvent(small_read);
  clReleaseEvent(large_read);
}

// Many small commands with events, some waited for while more are enqueued: every event
// completes, in order, and the data is what the last write left.
TEST_F(CudaCopies, EventsOfManySmallCommandsCompleteInOrder) {
  constexpr size_t kCount = 5000;
  Mem buffer = make_buffer(context(), 0, 64 * 4);
  std::vector<uint32_t> values(kCount);
  std::vector<cl_event> events(kCount, nullptr);
  for (size_t i = 0; i < kCount; ++i) {
    values[i] = static_cast<uint32_t>(i);
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_FALSE, (i % 64) * 4, 4, &values[i], 0, nullptr, &events[i]),
              CL_SUCCESS);
    if (i % 100 == 50) {
      ASSERT_EQ(clWaitForEvents(1, &events[i - 50]), CL_SUCCESS);
      for (size_t j = 0; j <= i - 50; ++j) EXPECT_EQ(event_status(events[j]), CL_COMPLETE) << j;
    }
  }
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  for (cl_event event : events) {
    EXPECT_EQ(event_status(event), CL_COMPLETE);
    clReleaseEvent(event);
  }
  std::vector<uint32_t> back(64, 0);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_TRUE, 0, 64 * 4, back.data(), 0, nullptr, nullptr), CL_SUCCESS);
  // Offset k holds the last value written there: the largest i < kCount with i % 64 == k.
  for (size_t k = 0; k < 64; ++k) EXPECT_EQ(back[k], (kCount - 1 - k) / 64 * 64 + k);
}

}  // namespace

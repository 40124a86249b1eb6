// The host device gives a released buffer's memory to the next buffer of about its size
// (backends/host/host_memory_pool.h), so a buffer made per call does not fault in fresh
// pages in every call. 40 MiB is above malloc's largest mmap threshold, where without the
// pool every allocation is a fresh mapping whose pages are not there until first written.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "buffer_test_helpers.h"

using namespace cucl_test;
using namespace buffer_test;

namespace {

constexpr size_t kSize = size_t{40} << 20;

// The pages of [data, data + size) that are in memory, counted with mincore.
size_t resident_pages(const void* data, size_t size) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + size + page - 1) / page * page;
  std::vector<unsigned char> pages((end - begin) / page);
  if (mincore(reinterpret_cast<void*>(begin), end - begin, pages.data()) != 0) return 0;
  size_t count = 0;
  for (unsigned char state : pages) count += state & 1;
  return count;
}

class HostMemoryReuse : public BufferFixture {
 protected:
  void* map_for_writing(cl_mem buffer) {
    cl_int status = CL_OUT_OF_RESOURCES;
    void* pointer = clEnqueueMapBuffer(env.queue, buffer, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, kSize, 0,
                                       nullptr, nullptr, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return pointer;
  }
};

TEST_F(HostMemoryReuse, ABufferMadeAfterOneOfItsSizeWasReleasedIsAlreadyInMemory) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  {
    Mem first = make_buffer(env.context, 0, kSize);
    const cl_uint zero = 0;
    ASSERT_EQ(clEnqueueFillBuffer(env.queue, first, &zero, sizeof zero, 0, kSize, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  }
  Mem second = make_buffer(env.context, 0, kSize);
  void* pointer = map_for_writing(second);
  ASSERT_NE(pointer, nullptr);
  EXPECT_GE(resident_pages(pointer, kSize), kSize / page * 9 / 10)
      << "the released buffer's pages, written by the fill, should serve this one";
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, second, pointer, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
}

// Reuse hands over memory, not contents the program may see as its own: a reused buffer made
// from host data holds that data, and two buffers alive at once never share memory.
TEST_F(HostMemoryReuse, ReusedMemoryHoldsTheNewBuffersOwnContents) {
  std::vector<uint32_t> data(kSize / sizeof(uint32_t));
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint32_t>(i * 2654435761u);
  {
    Mem first = make_buffer(env.context, 0, kSize);
    const cl_uint ones = ~0u;
    ASSERT_EQ(clEnqueueFillBuffer(env.queue, first, &ones, sizeof ones, 0, kSize, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  }
  Mem copied = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  Mem other = make_buffer(env.context, 0, kSize);
  const cl_uint seven = 7;
  ASSERT_EQ(clEnqueueFillBuffer(env.queue, other, &seven, sizeof seven, 0, kSize, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint32_t> read(data.size());
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, copied, CL_TRUE, 0, kSize, read.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read, data);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, other, CL_TRUE, 0, kSize, read.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read, std::vector<uint32_t>(data.size(), 7u));
}

}  // namespace

// Host <-> GPU transfers: large pageable buffers (staged), small writes, page-locked sources,
// buffers made from host memory (CL_MEM_USE_HOST_PTR / COPY_HOST_PTR) and maps.
#include <sys/mman.h>

#include <cstring>
#include <thread>

#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

class CudaTransfers : public GpuTest {};

size_t first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  auto [at, _] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return static_cast<size_t>(at - a.begin());
}

TEST_F(CudaTransfers, LargePageableWriteAndReadKeepEveryByte) {
  constexpr size_t kSize = 256u << 20;
  Mem buffer = make_buffer(context(), 0, kSize);
  auto data = position_pattern(kSize, 7);
  write_all(queue(), buffer, data);
  std::vector<uint8_t> back(kSize, 0);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_TRUE, 0, kSize, back.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(first_difference(back, data), kSize);
}

TEST_F(CudaTransfers, LargeTransfersAtOddOffsetsAndSizes) {
  constexpr size_t kSize = 40u << 20;
  constexpr size_t kOffset = 12345, kPart = (27u << 20) + 3;
  Mem buffer = make_buffer(context(), 0, kSize);
  auto data = position_pattern(kSize, 3);
  write_all(queue(), buffer, data);
  auto part = position_pattern(kPart, 99);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_TRUE, kOffset, kPart, part.data() , 0, nullptr, nullptr),
            CL_SUCCESS);
  std::copy(part.begin(), part.end(), data.begin() + kOffset);
  std::vector<uint8_t> back(kSize, 0);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_TRUE, 0, kSize, back.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(first_difference(back, data), kSize);
  // A read into the middle of a host array leaves its neighbours alone.
  std::vector<uint8_t> window(kPart + 2, 0xAB);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_TRUE, kOffset, kPart, window.data() + 1, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(window.front(), 0xAB);
  EXPECT_EQ(window.back(), 0xAB);
  EXPECT_TRUE(std::equal(part.begin(), part.end(), window.begin() + 1));
}

TEST_F(CudaTransfers, MappedMemoryIsAPageLockedSourceForOtherTransfers) {
  constexpr size_t kSize = 32u << 20;
  Mem staging = make_buffer(context(), CL_MEM_ALLOC_HOST_PTR, kSize);
  Mem target = make_buffer(context(), 0, kSize);
  cl_int status = CL_SUCCESS;
  auto* mapped = static_cast<uint8_t*>(clEnqueueMapBuffer(queue(), staging, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                          0, kSize, 0, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  auto data = position_pattern(kSize, 5);
  std::memcpy(mapped, data.data(), kSize);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), target, CL_TRUE, 0, kSize, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  std::memset(mapped, 0, kSize);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), target, CL_TRUE, 0, kSize, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::memcmp(mapped, data.data(), kSize), 0);
  ASSERT_EQ(clEnqueueUnmapMemObject(queue(), staging, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(first_difference(read_all(queue(), staging, kSize), data), kSize);
}

TEST_F(CudaTransfers, CopyHostPtrTakesTheContentsAtCreation) {
  for (size_t size : {size_t{1000}, size_t{24u << 20}}) {
    auto data = position_pattern(size, 11);
    Mem buffer = make_buffer(context(), CL_MEM_COPY_HOST_PTR, size, data.data());
    auto expected = data;
    std::fill(data.begin(), data.end(), 0);  // the application may reuse its memory at once
    EXPECT_EQ(first_difference(read_all(queue(), buffer, size), expected), size) << size << " bytes";
  }
}

// USE_HOST_PTR memory that the driver can register (whole pages) and memory it may not
// (an odd address inside an array): both must behave as the buffer's storage.
struct HostMemory {
  explicit HostMemory(size_t bytes) : size(bytes) {
    base = mmap(nullptr, size + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }
  ~HostMemory() { munmap(base, size + 8192); }
  uint8_t* at(size_t offset) const { return static_cast<uint8_t*>(base) + offset; }
  void* base;
  size_t size;
};

TEST_F(CudaTransfers, UseHostPtrBuffersShowTheApplicationsMemory) {
  constexpr size_t kSize = 3u << 20;
  for (size_t misalign : {size_t{0}, size_t{24}}) {
    HostMemory host(kSize);
    uint8_t* storage = host.at(misalign);
    auto initial = position_pattern(kSize, 21);
    std::memcpy(storage, initial.data(), kSize);
    Mem buffer = make_buffer(context(), CL_MEM_USE_HOST_PTR, kSize, storage);
    EXPECT_EQ(first_difference(read_all(queue(), buffer, kSize), initial), kSize) << "misalign " << misalign;

    auto update = position_pattern(kSize / 2, 22);
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_TRUE, 4096, update.size(), update.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    std::copy(update.begin(), update.end(), initial.begin() + 4096);
    uint32_t fill = 0x01020304;
    ASSERT_EQ(clEnqueueFillBuffer(queue(), buffer, &fill, 4, 0, 64, 0, nullptr, nullptr), CL_SUCCESS);
    for (size_t i = 0; i < 64; ++i) initial[i] = static_cast<uint8_t>(4 - i % 4);
    // A map of USE_HOST_PTR memory is the application's memory, and shows every change.
    cl_int status = CL_SUCCESS;
    void* mapped = clEnqueueMapBuffer(queue(), buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, kSize, 0, nullptr,
                                      nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    EXPECT_EQ(mapped, static_cast<void*>(storage));
    EXPECT_EQ(std::memcmp(storage, initial.data(), kSize), 0) << "misalign " << misalign;
    storage[100] = 0x77;
    initial[100] = 0x77;
    ASSERT_EQ(clEnqueueUnmapMemObject(queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(first_difference(read_all(queue(), buffer, kSize), initial), kSize) << "misalign " << misalign;
  }
}

// PTX loads 16 bytes only at a multiple of 16: memory the application gives on a coarser
// alignment must still read and write correctly through a kernel's vector accesses.
TEST_F(CudaTransfers, KernelsUseVectorsOfUseHostPtrMemoryAtAnyAlignment) {
  BuiltProgram program(*env, R"(
      kernel void twice(global float4* data) { data[get_global_id(0)] *= 2.0f; })");
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("twice");
  constexpr size_t kVectors = 1024;
  for (size_t misalign : {size_t{0}, size_t{8}, size_t{4}}) {
    HostMemory host(kVectors * 16);
    float* values = reinterpret_cast<float*>(host.at(4096 + misalign));
    for (size_t i = 0; i < kVectors * 4; ++i) values[i] = static_cast<float>(i);
    Mem buffer = make_buffer(context(), CL_MEM_USE_HOST_PTR, kVectors * 16, values);
    set_args(kernel, buffer.get());
    ASSERT_EQ(clEnqueueNDRangeKernel(queue(), kernel, 1, nullptr, &kVectors, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    cl_int status = CL_SUCCESS;
    void* mapped = clEnqueueMapBuffer(queue(), buffer, CL_TRUE, CL_MAP_READ, 0, kVectors * 16, 0, nullptr, nullptr,
                                      &status);
    ASSERT_EQ(status, CL_SUCCESS) << "misalign " << misalign;
    EXPECT_EQ(mapped, static_cast<void*>(values));
    size_t wrong = 0;
    for (size_t i = 0; i < kVectors * 4; ++i) wrong += values[i] != 2.0f * static_cast<float>(i);
    EXPECT_EQ(wrong, 0u) << "misalign " << misalign;
    ASSERT_EQ(clEnqueueUnmapMemObject(queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  }
}

TEST_F(CudaTransfers, TwoUseHostPtrBuffersInOnePage) {
  HostMemory host(4096);
  std::memset(host.at(0), 1, 64);
  std::memset(host.at(1024), 2, 64);
  Mem first = make_buffer(context(), CL_MEM_USE_HOST_PTR, 64, host.at(0));
  Mem second = make_buffer(context(), CL_MEM_USE_HOST_PTR, 64, host.at(1024));
  EXPECT_EQ(read_all(queue(), first, 64), std::vector<uint8_t>(64, 1));
  first = Mem();  // the page stays usable by the other buffer
  EXPECT_EQ(read_all(queue(), second, 64), std::vector<uint8_t>(64, 2));
}

// The second buffer's pages partly overlap the first's registration, so it cannot be
// registered itself: it keeps a device copy that maps bring back into its memory.
TEST_F(CudaTransfers, UseHostPtrBuffersSharingSomePages) {
  constexpr size_t kSize = 6000;
  HostMemory host(2 * kSize);
  auto first_data = pattern(kSize, 31), second_data = pattern(kSize, 32);
  std::memcpy(host.at(0), first_data.data(), kSize);
  std::memcpy(host.at(kSize), second_data.data(), kSize);
  Mem first = make_buffer(context(), CL_MEM_USE_HOST_PTR, kSize, host.at(0));
  Mem second = make_buffer(context(), CL_MEM_USE_HOST_PTR, kSize, host.at(kSize));
  EXPECT_EQ(read_all(queue(), first, kSize), first_data);
  EXPECT_EQ(read_all(queue(), second, kSize), second_data);
  auto update = pattern(kSize, 33);
  write_all(queue(), second, update);
  write_all(queue(), first, update);
  cl_int status = CL_SUCCESS;
  for (cl_mem buffer : {first.get(), second.get()}) {
    void* mapped =
        clEnqueueMapBuffer(queue(), buffer, CL_TRUE, CL_MAP_READ, 0, kSize, 0, nullptr, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    EXPECT_EQ(std::memcmp(mapped, update.data(), kSize), 0);
    ASSERT_EQ(clEnqueueUnmapMemObject(queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  }
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
}

TEST_F(CudaTransfers, MapsReadAndWriteTheDeviceCopy) {
  constexpr size_t kSize = 1 << 20;
  Mem buffer = make_buffer(context(), 0, kSize);
  auto data = pattern(kSize, 13);
  write_all(queue(), buffer, data);
  cl_int status = CL_SUCCESS;
  auto* read_map = static_cast<uint8_t*>(
      clEnqueueMapBuffer(queue(), buffer, CL_TRUE, CL_MAP_READ, 1000, 5000, 0, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_TRUE(std::equal(data.begin() + 1000, data.begin() + 6000, read_map));
  ASSERT_EQ(clEnqueueUnmapMemObject(queue(), buffer, read_map, 0, nullptr, nullptr), CL_SUCCESS);

  cl_event mapped_event = nullptr;
  auto* write_map = static_cast<uint8_t*>(clEnqueueMapBuffer(queue(), buffer, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                             kSize / 2, kSize / 2, 0, nullptr, &mapped_event, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &mapped_event), CL_SUCCESS);
  clReleaseEvent(mapped_event);
  std::memset(write_map, 0x3C, kSize / 2);
  std::fill(data.begin() + kSize / 2, data.end(), 0x3C);
  ASSERT_EQ(clEnqueueUnmapMemObject(queue(), buffer, write_map, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_all(queue(), buffer, kSize), data);
}

TEST_F(CudaTransfers, ManySmallCommandsAllComplete) {
  constexpr size_t kCount = 2000;
  Mem buffer = make_buffer(context(), 0, kCount * 4);
  std::vector<uint32_t> values(kCount);
  for (size_t i = 0; i < kCount; ++i) {
    values[i] = static_cast<uint32_t>(i * 2654435761u);
    ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_FALSE, i * 4, 4, &values[i], 0, nullptr, nullptr), CL_SUCCESS);
  }
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  std::vector<uint32_t> back(kCount, 0);
  ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_TRUE, 0, kCount * 4, back.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(back, values);
}

TEST_F(CudaTransfers, SmallWritesLandAtEveryWidthAndOffsetInOrder) {
  constexpr size_t kSize = 64;
  Mem buffer = make_buffer(context(), 0, kSize);
  std::vector<uint8_t> expected(kSize, 0xEE);
  write_all(queue(), buffer, expected);
  // Each write has bytes of its own in `source`, which stays untouched until clFinish. Later
  // writes overlap earlier ones: the buffer must show them applied in the order enqueued.
  std::vector<uint8_t> source(5 * 16 * 8);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<uint8_t>(i * 37 + 11);
  size_t next = 0;
  for (size_t width : {size_t{4}, size_t{1}, size_t{2}, size_t{3}, size_t{8}}) {
    for (size_t offset = 0; offset < 16; ++offset) {
      const size_t at = offset * 3 % (kSize - width);
      ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_FALSE, at, width, &source[next], 0, nullptr, nullptr),
                CL_SUCCESS);
      std::copy_n(&source[next], width, expected.begin() + static_cast<std::ptrdiff_t>(at));
      next += 8;
    }
  }
  const cl_uint last = 0x600DF00D;  // and a blocking one, which returns once it has landed
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffer, CL_TRUE, 60, 4, &last, 0, nullptr, nullptr), CL_SUCCESS);
  std::memcpy(&expected[60], &last, 4);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  EXPECT_EQ(read_all(queue(), buffer, kSize), expected);
}

// A small write whose source is page-locked memory that an earlier command of the queue fills
// (here the mapping of a buffer that a kernel writes late) takes what that command put there:
// it reads its source when the stream gets to it, not when it is enqueued.
TEST_F(CudaTransfers, SmallWriteFromMappedMemoryCarriesWhatTheStreamPutThere) {
  BuiltProgram program(*env, R"CL(
    kernel void late_value(global uint* out, uint x, uint steps, uint mul, uint inc) {
      for (uint k = 0; k < steps; ++k) x = x * mul + inc;
      out[0] = x;
    })CL");
  ASSERT_TRUE(program);
  cl_kernel late_value = program.kernel("late_value");
  ASSERT_NE(late_value, nullptr);
  constexpr cl_uint kSeed = 77, kSteps = 4u << 20;
  const cl_uint zero = 0;
  Mem source = make_buffer(context(), CL_MEM_COPY_HOST_PTR, 4, const_cast<cl_uint*>(&zero));
  Mem target = make_buffer(context(), CL_MEM_COPY_HOST_PTR, 4, const_cast<cl_uint*>(&zero));
  set_args(late_value, source.get(), kSeed, kSteps, kAffineMul, kAffineInc);
  const size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue(), late_value, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  cl_int status = CL_SUCCESS;
  auto* mapped = static_cast<cl_uint*>(
      clEnqueueMapBuffer(queue(), source, CL_FALSE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(queue(), target, CL_FALSE, 0, 4, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  cl_uint carried = 0;
  ASSERT_EQ(clEnqueueReadBuffer(queue(), target, CL_TRUE, 0, 4, &carried, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(carried, affine_steps(kSeed, kSteps, kAffineMul, kAffineInc));
  ASSERT_EQ(clEnqueueUnmapMemObject(queue(), source, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
}

}  // namespace

namespace {

// Blocking reads of up to 64 KiB land in a page-locked slot of the queue's stream first
// (backends/cuda/cuda_read_bounce.h), larger ones go the driver's or the staged way: every
// size around that limit, at odd offsets on both sides, carries its bytes and touches nothing
// around its destination.
TEST_F(CudaTransfers, BlockingReadsOfEverySizeAroundTheBounceLimitCarryTheirBytes) {
  constexpr size_t kLimit = 64u << 10;
  constexpr size_t kSize = (1u << 20) + (64u << 10);
  Mem buffer = make_buffer(context(), 0, kSize);
  auto data = position_pattern(kSize, 41);
  write_all(queue(), buffer, data);
  for (size_t size : {size_t{1}, size_t{3}, size_t{4}, size_t{4096}, kLimit - 1, kLimit, kLimit + 1,
                      size_t{(1u << 20) + 5}}) {
    const size_t offset = (size * 7) % 61;
    std::vector<uint8_t> window(size + 8, 0xCD);
    ASSERT_EQ(clEnqueueReadBuffer(queue(), buffer, CL_TRUE, offset, size, window.data() + 3, 0, nullptr, nullptr),
              CL_SUCCESS)
        << size;
    EXPECT_TRUE(std::equal(data.begin() + offset, data.begin() + offset + size, window.begin() + 3)) << size;
    EXPECT_TRUE(std::all_of(window.begin(), window.begin() + 3, [](uint8_t byte) { return byte == 0xCD; })) << size;
    EXPECT_TRUE(std::all_of(window.end() - 5, window.end(), [](uint8_t byte) { return byte == 0xCD; })) << size;
  }
}

// Threads reading with blocking reads on one queue at once, each through a slot of its own or,
// when none is free, the other way; each gets its own buffer's bytes.
TEST_F(CudaTransfers, BlockingReadsOfSeveralThreadsOnOneQueueEachGetTheirBytes) {
  constexpr int kThreads = 10, kReads = 200;
  constexpr size_t kSize = 4096;
  std::vector<Mem> buffers;
  std::vector<std::vector<uint8_t>> contents;
  for (int i = 0; i < kThreads; ++i) {
    buffers.push_back(make_buffer(context(), 0, kSize));
    contents.push_back(position_pattern(kSize, 100 + static_cast<uint32_t>(i)));
    write_all(queue(), buffers.back(), contents.back());
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int read = 0; read < kReads; ++read) {
        const size_t offset = static_cast<size_t>(read * 13 + i) % 1024, size = kSize - offset;
        std::vector<uint8_t> back(size, 0);
        ASSERT_EQ(clEnqueueReadBuffer(queue(), buffers[i], CL_TRUE, offset, size, back.data(), 0, nullptr, nullptr),
                  CL_SUCCESS);
        ASSERT_TRUE(std::equal(back.begin(), back.end(), contents[i].begin() + offset)) << i << " " << read;
      }
    });
  }
  for (auto& thread : threads) thread.join();
}

}  // namespace

// Maps of GPU buffers: page-locked regions kept across maps (backends/cuda/cuda_map_regions.h)
// must never show a mapping stale or another mapping's bytes. Overlapping maps in flight at
// once, maps ordered after kernels that write the buffer, unmaps ordered before the commands
// that follow them, CL_MEM_ALLOC_HOST_PTR buffers (whose maps are views into one region)
// and their sub-buffers, and mappings that grow and shrink.
#include <cstring>

#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

class CudaMaps : public GpuTest, public ::testing::WithParamInterface<cl_mem_flags> {
 protected:
  uint8_t* map(cl_mem buffer, cl_map_flags flags, size_t offset, size_t size) {
    cl_int status = CL_OUT_OF_RESOURCES;
    void* mapped = clEnqueueMapBuffer(queue(), buffer, CL_TRUE, flags, offset, size, 0, nullptr, nullptr, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return static_cast<uint8_t*>(mapped);
  }
  void unmap(cl_mem buffer, void* mapped) {
    ASSERT_EQ(clEnqueueUnmapMemObject(queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  }
};

constexpr char kKernels[] = R"CL(
kernel void stamp(global uint* data, uint value) { data[get_global_id(0)] = value + (uint)get_global_id(0); }
kernel void sum_pairs(global const uint* in, global uint* out) {
  size_t i = get_global_id(0);
  out[i] = in[2 * i] + in[2 * i + 1];
}
)CL";

TEST_P(CudaMaps, OverlappingReadMapsInFlightTogetherEachShowTheContents) {
  constexpr size_t kSize = 1 << 20;
  Mem buffer = make_buffer(context(), GetParam(), kSize);
  auto data = pattern(kSize, 3);
  write_all(queue(), buffer, data);
  uint8_t* whole = map(buffer, CL_MAP_READ, 0, kSize);
  uint8_t* middle = map(buffer, CL_MAP_READ, 4096, 8192);
  uint8_t* tail = map(buffer, CL_MAP_READ, kSize - 100, 100);
  ASSERT_TRUE(whole && middle && tail);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), whole));
  EXPECT_TRUE(std::equal(data.begin() + 4096, data.begin() + 4096 + 8192, middle));
  EXPECT_TRUE(std::equal(data.end() - 100, data.end(), tail));
  unmap(buffer, middle);
  unmap(buffer, whole);
  unmap(buffer, tail);
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
}

TEST_P(CudaMaps, MapsComeAfterTheKernelsThatWriteTheBuffer) {
  constexpr size_t kCount = 1 << 16;
  Mem buffer = make_buffer(context(), GetParam(), kCount * 4);
  BuiltProgram program(*env, kKernels);
  cl_kernel stamp = program.kernel("stamp");
  ASSERT_NE(stamp, nullptr);
  for (cl_uint round = 1; round <= 20; ++round) {
    cl_uint value = round * 1000003u;
    set_args(stamp, buffer.get(), value);
    size_t global = kCount;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue(), stamp, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    // The same region each round, so a kept region would show last round's bytes if the
    // map skipped its copy or ran before the kernel.
    size_t first = (round * 997) % (kCount / 2);
    auto* mapped = reinterpret_cast<cl_uint*>(map(buffer, CL_MAP_READ, first * 4, (kCount / 2) * 4));
    ASSERT_NE(mapped, nullptr);
    for (size_t i = 0; i < kCount / 2; ++i) {
      ASSERT_EQ(mapped[i], value + first + i) << "round " << round << " item " << first + i;
    }
    unmap(buffer, mapped);
  }
}

TEST_P(CudaMaps, UnmapComesBeforeTheCommandsThatFollowIt) {
  constexpr size_t kCount = 1 << 16;
  Mem in = make_buffer(context(), GetParam(), kCount * 2 * 4);
  Mem out = make_buffer(context(), 0, kCount * 4);
  BuiltProgram program(*env, kKernels);
  cl_kernel sum_pairs = program.kernel("sum_pairs");
  ASSERT_NE(sum_pairs, nullptr);
  set_args(sum_pairs, in.get(), out.get());
  for (cl_uint round = 0; round < 10; ++round) {
    auto* mapped = reinterpret_cast<cl_uint*>(map(in, CL_MAP_WRITE_INVALIDATE_REGION, 0, kCount * 2 * 4));
    ASSERT_NE(mapped, nullptr);
    for (size_t i = 0; i < kCount * 2; ++i) mapped[i] = static_cast<cl_uint>(i * 3 + round);
    unmap(in, mapped);  // not waited for: the kernel must still see every written byte
    size_t global = kCount;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue(), sum_pairs, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<cl_uint> sums(kCount);
    ASSERT_EQ(clEnqueueReadBuffer(queue(), out, CL_TRUE, 0, kCount * 4, sums.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(sums[i], (2 * i * 3 + round) + ((2 * i + 1) * 3 + round)) << "round " << round << " item " << i;
    }
  }
}

TEST_P(CudaMaps, MappingsThatGrowAndShrinkKeepEveryByte) {
  constexpr size_t kSize = 4 << 20;
  Mem buffer = make_buffer(context(), GetParam(), kSize);
  auto data = pattern(kSize, 11);
  write_all(queue(), buffer, data);
  for (size_t i = 0; i < 60; ++i) {
    size_t size = (i % 3 == 0) ? kSize / (1 + i % 7) : 4096 * (1 + i % 5) + i;
    size_t offset = (i * 65537) % (kSize - size + 1);
    uint8_t* mapped = map(buffer, CL_MAP_READ | CL_MAP_WRITE, offset, size);
    ASSERT_NE(mapped, nullptr);
    ASSERT_TRUE(std::equal(data.begin() + offset, data.begin() + offset + size, mapped)) << "map " << i;
    for (size_t b = 0; b < size; b += 4093) {
      mapped[b] = static_cast<uint8_t>(mapped[b] ^ (i + 1));
      data[offset + b] = mapped[b];
    }
    unmap(buffer, mapped);
  }
  EXPECT_EQ(read_all(queue(), buffer, kSize), data);
}

TEST_P(CudaMaps, SubBuffersMapTheirOwnRegionOfTheParent) {
  constexpr size_t kSize = 1 << 20;
  Mem parent = make_buffer(context(), GetParam(), kSize);
  auto data = pattern(kSize, 5);
  write_all(queue(), parent, data);
  const size_t align = base_align(gpu);
  Mem sub = make_sub_buffer(parent, 0, 4 * align, 64 * align);
  uint8_t* mapped = map(sub, CL_MAP_READ | CL_MAP_WRITE, align, align);
  ASSERT_NE(mapped, nullptr);
  EXPECT_TRUE(std::equal(data.begin() + 5 * align, data.begin() + 6 * align, mapped));
  std::memset(mapped, 0x5A, align);
  std::fill(data.begin() + 5 * align, data.begin() + 6 * align, 0x5A);
  unmap(sub, mapped);
  EXPECT_EQ(read_all(queue(), parent, kSize), data);
}

INSTANTIATE_TEST_SUITE_P(Flags, CudaMaps, ::testing::Values(cl_mem_flags{0}, cl_mem_flags{CL_MEM_ALLOC_HOST_PTR}),
                         [](const auto& info) { return info.param ? std::string("AllocHostPtr") : std::string("Device"); });

}  // namespace

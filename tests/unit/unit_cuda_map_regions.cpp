// Page-locked memory for maps of a GPU allocation (backends/cuda/cuda_map_regions.h), on the
// first real CUDA device: regions kept across maps, at most the largest one spare, views
// into the whole region for CL_MEM_ALLOC_HOST_PTR, and every byte freed at the end. Skipped
// where there is no CUDA driver or GPU (CI).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_map_regions.h"
#include "real_cuda_context.h"

namespace cucl::backend::cuda {
namespace {

class MapRegionsTest : public RealCudaContextTest {
 protected:
  // Whether the driver knows `pointer` as page-locked host memory.
  bool page_locked(void* pointer) const {
    unsigned int type = 0;
    return driver_->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                          reinterpret_cast<CUdeviceptr>(pointer)) == CUDA_SUCCESS;
  }
};

TEST_F(MapRegionsTest, AThousandMapsHoldNoMoreThanTheLargestMapping) {
  MapRegions regions(*context_, 0);
  size_t largest = 0;
  for (size_t i = 0; i < 1000; ++i) {
    size_t size = 4096 * (1 + (i * 7919) % 97);
    largest = std::max(largest, size);
    void* mapped = regions.acquire(0, size);
    ASSERT_TRUE(page_locked(mapped));
    std::memset(mapped, static_cast<int>(i), size);  // the whole size is usable
    regions.release(mapped);
    ASSERT_LE(regions.bytes_held(), largest) << "after map " << i;
  }
  EXPECT_EQ(regions.bytes_held(), largest);
}

TEST_F(MapRegionsTest, MapsInFlightEachGetTheirOwnRegionAndOnlyTheLargestIsKept) {
  MapRegions regions(*context_, 0);
  void* small = regions.acquire(0, 4096);
  void* large = regions.acquire(100, 1 << 20);
  void* middle = regions.acquire(0, 65536);
  EXPECT_NE(small, large);
  EXPECT_NE(large, middle);
  EXPECT_EQ(regions.bytes_held(), 4096u + (1u << 20) + 65536u);
  regions.release(large);
  regions.release(small);
  regions.release(middle);
  EXPECT_EQ(regions.bytes_held(), size_t{1} << 20);
  EXPECT_TRUE(page_locked(large));
  EXPECT_FALSE(page_locked(small));
  EXPECT_FALSE(page_locked(middle));
  // The kept region serves the next map that fits.
  EXPECT_EQ(regions.acquire(0, 200000), large);
}

TEST_F(MapRegionsTest, AllocHostPtrMapsAreViewsIntoOneWholeRegion) {
  constexpr size_t kSize = 8 << 20;
  MapRegions regions(*context_, kSize);
  EXPECT_EQ(regions.bytes_held(), kSize);
  auto* first = static_cast<char*>(regions.acquire(0, 16));
  auto* later = static_cast<char*>(regions.acquire(4096, kSize - 4096));
  EXPECT_EQ(later, first + 4096);
  EXPECT_TRUE(page_locked(later + kSize - 4097));
  regions.release(later);
  regions.release(first);
  EXPECT_EQ(regions.bytes_held(), kSize);
}

TEST_F(MapRegionsTest, EveryRegionIsFreedWithTheAllocation) {
  std::vector<void*> seen;
  {
    MapRegions regions(*context_, 0);
    seen.push_back(regions.acquire(0, 1 << 16));
    seen.push_back(regions.acquire(0, 1 << 18));
    regions.release(seen[1]);                    // kept spare
    seen.push_back(regions.acquire(0, 1 << 12));  // served by the spare
    for (void* pointer : seen) ASSERT_TRUE(page_locked(pointer));
  }  // one region still mapped, one spare: both go
  for (void* pointer : seen) EXPECT_FALSE(page_locked(pointer));
  {
    MapRegions whole(*context_, 1 << 20);
    seen.assign(1, whole.acquire(0, 1));
    ASSERT_TRUE(page_locked(seen[0]));
  }
  EXPECT_FALSE(page_locked(seen[0]));
}

}  // namespace
}  // namespace cucl::backend::cuda

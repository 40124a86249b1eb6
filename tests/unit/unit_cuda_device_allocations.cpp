// Device memory for buffers with released allocations kept for reuse
// (backends/cuda/cuda_device_allocations.h), on the first real CUDA device: reuse of exactly
// the released size, the bounds on what is kept, everything freed once no allocation is live,
// and kept memory freed for an allocation that finds the card full, after memory that released
// buffers still held has gone (the settle step). Skipped where there is no
// CUDA driver or GPU (CI).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_device_allocations.h"
#include "backends/cuda/cuda_driver.h"
#include "real_cuda_context.h"

namespace cucl::backend::cuda {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

class DeviceAllocationsTest : public RealCudaContextTest {
 protected:
  void SetUp() override {
    RealCudaContextTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_EQ(driver_->cuDeviceTotalMem(&card_bytes_, device_), CUDA_SUCCESS);
  }

  // Whether the driver still knows `address` as an allocation.
  bool allocated(CUdeviceptr address) const {
    unsigned int type = 0;
    return driver_->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address) == CUDA_SUCCESS;
  }

  CUdeviceptr allocate(DeviceAllocations& allocations, size_t size) {
    CUdeviceptr address = 0;
    EXPECT_EQ(allocations.allocate(&address, size), CUDA_SUCCESS) << size << " bytes";
    return address;
  }

  size_t card_bytes_ = 0;
};

TEST_F(DeviceAllocationsTest, TheLimitIsASixtyFourthOfTheCardAtMostOneGiB) {
  DeviceAllocations allocations(*driver_, card_bytes_);
  EXPECT_EQ(allocations.kept_limit(), std::min(card_bytes_ / 64, size_t{1} << 30));
  EXPECT_EQ(DeviceAllocations(*driver_, 0).kept_limit(), 0u);
}

TEST_F(DeviceAllocationsTest, AReleasedAllocationServesTheNextOfExactlyItsSize) {
  DeviceAllocations allocations(*driver_, card_bytes_);
  const CUdeviceptr anchor = allocate(allocations, 4096);  // keeps one allocation live
  const CUdeviceptr first = allocate(allocations, kMiB);
  allocations.release(first, kMiB);
  EXPECT_EQ(allocations.kept_bytes(), kMiB);
  EXPECT_TRUE(allocated(first));
  const CUdeviceptr other_size = allocate(allocations, kMiB + 256);
  EXPECT_NE(other_size, first);
  EXPECT_EQ(allocations.kept_bytes(), kMiB);
  EXPECT_EQ(allocate(allocations, kMiB), first);
  EXPECT_EQ(allocations.kept_bytes(), 0u);
  allocations.release(other_size, kMiB + 256);
  allocations.release(first, kMiB);
  allocations.release(anchor, 4096);
}

TEST_F(DeviceAllocationsTest, AtMostSixteenAreKeptTheOldestFreedFirst) {
  DeviceAllocations allocations(*driver_, card_bytes_);
  ASSERT_GE(allocations.kept_limit(), 20 * kMiB) << "a card of at least 1280 MiB";
  const CUdeviceptr anchor = allocate(allocations, 4096);
  std::vector<CUdeviceptr> released;
  for (int i = 0; i < 20; ++i) released.push_back(allocate(allocations, kMiB));
  for (CUdeviceptr address : released) allocations.release(address, kMiB);
  EXPECT_EQ(allocations.kept_bytes(), DeviceAllocations::kMaxKept * kMiB);
  for (size_t i = 0; i < released.size(); ++i) {
    EXPECT_EQ(allocated(released[i]), i >= released.size() - DeviceAllocations::kMaxKept) << "allocation " << i;
  }
  // The newest comes back first.
  EXPECT_EQ(allocate(allocations, kMiB), released.back());
  allocations.release(released.back(), kMiB);
  allocations.release(anchor, 4096);
}

TEST_F(DeviceAllocationsTest, KeptBytesStayWithinTheLimit) {
  DeviceAllocations allocations(*driver_, card_bytes_);
  const size_t limit = allocations.kept_limit();
  ASSERT_GE(limit, 8 * kMiB);
  const CUdeviceptr anchor = allocate(allocations, 4096);
  const size_t part = limit / 2 - kMiB;  // two fit, three do not
  std::vector<CUdeviceptr> parts;
  for (int i = 0; i < 3; ++i) parts.push_back(allocate(allocations, part));
  for (CUdeviceptr address : parts) allocations.release(address, part);
  EXPECT_EQ(allocations.kept_bytes(), 2 * part);
  EXPECT_FALSE(allocated(parts[0]));
  // One larger than the limit is freed at once.
  const CUdeviceptr huge = allocate(allocations, limit + kMiB);
  allocations.release(huge, limit + kMiB);
  EXPECT_FALSE(allocated(huge));
  EXPECT_EQ(allocations.kept_bytes(), 2 * part);
  allocations.free_kept();
  EXPECT_EQ(allocations.kept_bytes(), 0u);
  EXPECT_FALSE(allocated(parts[1]));
  EXPECT_FALSE(allocated(parts[2]));
  allocations.release(anchor, 4096);
}

TEST_F(DeviceAllocationsTest, NothingIsKeptOnceNoAllocationIsLive) {
  DeviceAllocations allocations(*driver_, card_bytes_);
  const CUdeviceptr first = allocate(allocations, kMiB);
  const CUdeviceptr second = allocate(allocations, 2 * kMiB);
  allocations.release(first, kMiB);
  EXPECT_TRUE(allocated(first));
  allocations.release(second, 2 * kMiB);
  EXPECT_EQ(allocations.kept_bytes(), 0u);
  EXPECT_FALSE(allocated(first));
  EXPECT_FALSE(allocated(second));
}

TEST_F(DeviceAllocationsTest, TheContextGivesKeptMemoryBackBeforeSayingWhatIsFree) {
  DeviceAllocations& allocations = context_->device_allocations();
  const CUdeviceptr anchor = allocate(allocations, 4096);
  const CUdeviceptr kept = allocate(allocations, 64 * kMiB);
  allocations.release(kept, 64 * kMiB);
  ASSERT_TRUE(allocated(kept));
  size_t free = 0, total = 0;
  ASSERT_EQ(context_->free_memory(&free, &total), CUDA_SUCCESS);
  EXPECT_EQ(allocations.kept_bytes(), 0u);
  EXPECT_FALSE(allocated(kept));
  allocations.release(anchor, 4096);
}

// Fills the card with allocations made directly (256 MiB, then 2 MiB pieces) until the driver
// refuses, and frees them at the end. This test runs alone (RUN_SERIAL in CMakeLists.txt).
class FullCard {
 public:
  explicit FullCard(const CudaDriver& driver) : driver_(driver) {
    for (size_t piece : {256 * kMiB, 2 * kMiB}) {
      CUdeviceptr address = 0;
      while (driver_.cuMemAlloc(&address, piece) == CUDA_SUCCESS) taken_.push_back(address);
    }
  }
  ~FullCard() {
    for (CUdeviceptr address : taken_) driver_.cuMemFree(address);
  }
  FullCard(const FullCard&) = delete;
  FullCard& operator=(const FullCard&) = delete;

 private:
  const CudaDriver& driver_;
  std::vector<CUdeviceptr> taken_;
};

TEST_F(DeviceAllocationsTest, AnAllocationThatFindsTheCardFullFreesWhatIsKeptAndSucceeds) {
  DeviceAllocations allocations(*driver_, card_bytes_);
  const size_t size = std::min<size_t>(allocations.kept_limit(), 512 * kMiB);
  ASSERT_GE(size, 64 * kMiB);
  const CUdeviceptr anchor = allocate(allocations, 4096);
  const CUdeviceptr kept = allocate(allocations, size);
  allocations.release(kept, size);
  ASSERT_EQ(allocations.kept_bytes(), size);
  CUdeviceptr address = 0;
  {
    FullCard full(*driver_);
    CUdeviceptr probe = 0;
    ASSERT_EQ(driver_->cuMemAlloc(&probe, size - 4 * kMiB), CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(allocations.allocate(&address, size - 4 * kMiB), CUDA_SUCCESS);
    EXPECT_EQ(allocations.kept_bytes(), 0u);
    EXPECT_TRUE(allocated(address));
    // Nothing kept and still no room: the driver's answer.
    CUdeviceptr none = 0;
    EXPECT_EQ(allocations.allocate(&none, size), CUDA_ERROR_OUT_OF_MEMORY);
  }
  allocations.release(address, size - 4 * kMiB);
  allocations.release(anchor, 4096);
}

// Memory a released buffer's last command still holds (its stream's thread has not finished it,
// cuda_finishing_threads.h) goes before an allocation gives up: here the settle step frees it.
TEST_F(DeviceAllocationsTest, AnAllocationThatFindsTheCardFullSettlesReleasesFirstAndTriesAgain) {
  CUdeviceptr held = 0;
  int settled = 0;
  DeviceAllocations allocations(*driver_, card_bytes_, [&] {
    ++settled;
    if (held) driver_->cuMemFree(held);
    held = 0;
  });
  const size_t size = 256 * kMiB;
  ASSERT_EQ(driver_->cuMemAlloc(&held, size), CUDA_SUCCESS);
  CUdeviceptr address = 0;
  {
    FullCard full(*driver_);
    EXPECT_EQ(allocations.allocate(&address, size - 4 * kMiB), CUDA_SUCCESS);
    EXPECT_EQ(settled, 1);
    EXPECT_EQ(held, 0u);
    EXPECT_TRUE(allocated(address));
    // Nothing left to let go: the driver's answer, after one more settle step.
    CUdeviceptr none = 0;
    EXPECT_EQ(allocations.allocate(&none, size), CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(settled, 2);
  }
  allocations.release(address, size - 4 * kMiB);
}

}  // namespace
}  // namespace cucl::backend::cuda

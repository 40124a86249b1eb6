// Registrations of application memory for CL_MEM_USE_HOST_PTR (backends/cuda/cuda_host_registry.h),
// on the first real CUDA device: shared per page span, refused on a partial overlap, and settled
// first when new memory overlaps a registration, which then may be gone (a released buffer's that
// an unfinished command still held). Skipped where there is no CUDA driver or GPU (CI).
#include <sys/mman.h>
#include <unistd.h>

#include <functional>
#include <memory>

#include "real_cuda_context.h"

namespace cucl::backend::cuda {
namespace {

class HostRegistryTest : public RealCudaContextTest {
 protected:
  void SetUp() override {
    RealCudaContextTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    memory_ = static_cast<char*>(mmap(nullptr, 4 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(memory_, MAP_FAILED);
    registry_ = std::make_unique<HostRegistry>(*driver_, [this] {
      ++settles_;
      if (on_settle_) on_settle_();
    });
  }
  void TearDown() override {
    registry_.reset();
    if (memory_ && memory_ != MAP_FAILED) munmap(memory_, 4 * page_);
  }

  // Whether the driver knows `pointer` as registered host memory.
  bool registered(const void* pointer) const {
    CUdeviceptr mapped = 0;
    return driver_->cuMemHostGetDevicePointer(&mapped, const_cast<void*>(pointer), 0) == CUDA_SUCCESS;
  }

  size_t page_ = 0;
  char* memory_ = nullptr;
  int settles_ = 0;
  std::function<void()> on_settle_;
  std::unique_ptr<HostRegistry> registry_;
};

TEST_F(HostRegistryTest, SettlesOnlyWhenTheMemoryOverlapsARegistration) {
  ASSERT_TRUE(registry_->acquire(memory_, page_));
  EXPECT_EQ(settles_, 0);
  EXPECT_TRUE(registered(memory_));
  ASSERT_TRUE(registry_->acquire(memory_ + 2 * page_, page_));  // a page apart
  EXPECT_EQ(settles_, 0);
  ASSERT_TRUE(registry_->acquire(memory_ + 16, 64));  // inside the first page: shared
  EXPECT_EQ(settles_, 1);
  registry_->release(memory_ + 16, 64);
  registry_->release(memory_, page_);
  EXPECT_FALSE(registered(memory_));
  registry_->release(memory_ + 2 * page_, page_);
  EXPECT_FALSE(registered(memory_ + 2 * page_));
}

TEST_F(HostRegistryTest, ARegistrationLetGoWhileSettlingIsNotShared) {
  ASSERT_TRUE(registry_->acquire(memory_, page_));
  // Settling finishes the command that held the old buffer: its registration goes.
  on_settle_ = [this] { registry_->release(memory_, page_); };
  ASSERT_TRUE(registry_->acquire(memory_, page_));
  EXPECT_EQ(settles_, 1);
  on_settle_ = nullptr;
  // The new registration is the only one: one release lets the pages go.
  registry_->release(memory_, page_);
  EXPECT_FALSE(registered(memory_));
  EXPECT_EQ(registry_->coverage(memory_, page_), HostRegistry::Coverage::None);
}

TEST_F(HostRegistryTest, APartialOverlapIsRefusedUnlessSettlingLetsItGo) {
  ASSERT_TRUE(registry_->acquire(memory_ + page_, page_));
  EXPECT_FALSE(registry_->acquire(memory_, 2 * page_));  // reaches into the registered page
  EXPECT_EQ(settles_, 1);
  EXPECT_EQ(registry_->coverage(memory_, 2 * page_), HostRegistry::Coverage::Partial);
  on_settle_ = [this] { registry_->release(memory_ + page_, page_); };
  ASSERT_TRUE(registry_->acquire(memory_, 2 * page_));
  EXPECT_EQ(settles_, 2);
  EXPECT_EQ(registry_->coverage(memory_, 2 * page_), HostRegistry::Coverage::Whole);
  on_settle_ = nullptr;
  registry_->release(memory_, 2 * page_);
  EXPECT_FALSE(registered(memory_ + page_));
}

}  // namespace
}  // namespace cucl::backend::cuda

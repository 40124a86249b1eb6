// The host device's pool of released allocations (backends/host/host_memory_pool.h): blocks
// come back for requests of about their size, small ones are left to malloc, and what is
// kept stays within the byte and block limits, the oldest going first.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "backends/host/host_memory_pool.h"

namespace cucl::backend::host {
namespace {

constexpr size_t kAlignment = 128;
constexpr size_t kMiB = size_t{1} << 20;

TEST(HostMemoryPool, AReleasedBlockComesBackForItsSize) {
  HostMemoryPool pool(kAlignment, 64 * kMiB, 8);
  size_t size = 4 * kMiB;
  void* first = pool.take(size);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(size, 4 * kMiB);
  pool.give_back(first, size);
  EXPECT_EQ(pool.kept_blocks(), 1u);
  EXPECT_EQ(pool.kept_bytes(), 4 * kMiB);
  size_t again = 4 * kMiB;
  void* second = pool.take(again);
  EXPECT_EQ(second, first);
  EXPECT_EQ(again, 4 * kMiB);
  EXPECT_EQ(pool.kept_blocks(), 0u);
  pool.give_back(second, again);
}

TEST(HostMemoryPool, BlocksAreAlignedAndSizesRoundedToTheAlignment) {
  HostMemoryPool pool(kAlignment, 64 * kMiB, 8);
  for (size_t request : {size_t{1}, size_t{1000}, kMiB + 1, 3 * kMiB + 17}) {
    size_t size = request;
    void* block = pool.take(size);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % kAlignment, 0u);
    EXPECT_EQ(size % kAlignment, 0u);
    EXPECT_GE(size, request);
    EXPECT_LT(size - request, kAlignment);
    pool.give_back(block, size);
  }
}

TEST(HostMemoryPool, SmallBlocksAreLeftToMalloc) {
  HostMemoryPool pool(kAlignment, 64 * kMiB, 8);
  size_t size = HostMemoryPool::kSmallest - kAlignment;
  void* block = pool.take(size);
  ASSERT_NE(block, nullptr);
  pool.give_back(block, size);
  EXPECT_EQ(pool.kept_blocks(), 0u);
  EXPECT_EQ(pool.kept_bytes(), 0u);
}

// A block serves requests of 4/5 of its size or more (the block's size comes back with the
// request): 7 of 8 MiB take it; 6 and 4 of 8 MiB do not, and the block stays kept.
TEST(HostMemoryPool, ABlockServesOnlyRequestsCloseToItsSize) {
  HostMemoryPool pool(kAlignment, 64 * kMiB, 8);
  size_t size = 8 * kMiB;
  void* block = pool.take(size);
  ASSERT_NE(block, nullptr);
  pool.give_back(block, size);

  std::vector<std::pair<void*, size_t>> others;
  for (size_t request : {4 * kMiB, 6 * kMiB}) {
    size_t smaller = request;
    void* other = pool.take(smaller);
    ASSERT_NE(other, nullptr);
    EXPECT_NE(other, block);
    EXPECT_EQ(smaller, request);
    EXPECT_EQ(pool.kept_blocks(), 1u);
    others.emplace_back(other, smaller);
  }

  size_t most = 7 * kMiB;
  void* same = pool.take(most);
  EXPECT_EQ(same, block);
  EXPECT_EQ(most, 8 * kMiB) << "the block's own size, for give_back";
  pool.give_back(same, most);
  for (auto [other, other_size] : others) pool.give_back(other, other_size);
}

// Of several kept blocks that fit, the smallest is taken.
TEST(HostMemoryPool, TheSmallestFittingBlockIsTaken) {
  HostMemoryPool pool(kAlignment, 64 * kMiB, 8);
  size_t large_size = 5 * kMiB, small_size = 4 * kMiB;
  void* large = pool.take(large_size);
  void* small = pool.take(small_size);
  ASSERT_NE(large, nullptr);
  ASSERT_NE(small, nullptr);
  pool.give_back(large, large_size);
  pool.give_back(small, small_size);
  size_t size = 4 * kMiB;
  void* taken = pool.take(size);
  EXPECT_EQ(taken, small);
  pool.give_back(taken, size);
}

TEST(HostMemoryPool, KeptBytesStayWithinTheLimitTheOldestGoingFirst) {
  HostMemoryPool pool(kAlignment, 8 * kMiB, 8);
  std::vector<void*> blocks;
  for (int i = 0; i < 3; ++i) {
    size_t size = 4 * kMiB;
    blocks.push_back(pool.take(size));
    ASSERT_NE(blocks.back(), nullptr);
  }
  for (void* block : blocks) pool.give_back(block, 4 * kMiB);
  EXPECT_EQ(pool.kept_bytes(), 8 * kMiB);
  EXPECT_EQ(pool.kept_blocks(), 2u);
  // The first block given back was freed; the two later ones are what comes back.
  std::vector<void*> again;
  for (int i = 0; i < 2; ++i) {
    size_t size = 4 * kMiB;
    again.push_back(pool.take(size));
  }
  EXPECT_TRUE((again[0] == blocks[1] && again[1] == blocks[2]) || (again[0] == blocks[2] && again[1] == blocks[1]));
  for (void* block : again) pool.give_back(block, 4 * kMiB);

  size_t huge = 16 * kMiB;  // over the whole limit: freed at once, nothing else evicted
  void* block = pool.take(huge);
  ASSERT_NE(block, nullptr);
  pool.give_back(block, huge);
  EXPECT_EQ(pool.kept_bytes(), 8 * kMiB);
  EXPECT_EQ(pool.kept_blocks(), 2u);
}

TEST(HostMemoryPool, KeptBlocksStayWithinTheCount) {
  HostMemoryPool pool(kAlignment, 1024 * kMiB, 3);
  std::vector<void*> blocks;
  for (int i = 0; i < 5; ++i) {
    size_t size = kMiB;
    blocks.push_back(pool.take(size));
    ASSERT_NE(blocks.back(), nullptr);
  }
  for (void* block : blocks) pool.give_back(block, kMiB);
  EXPECT_EQ(pool.kept_blocks(), 3u);
  EXPECT_EQ(pool.kept_bytes(), 3 * kMiB);
}

TEST(HostMemoryPool, APoolThatKeepsNothingFreesEveryBlock) {
  HostMemoryPool pool(kAlignment, 64 * kMiB, 0);
  size_t size = 4 * kMiB;
  void* block = pool.take(size);
  ASSERT_NE(block, nullptr);
  pool.give_back(block, size);
  EXPECT_EQ(pool.kept_blocks(), 0u);
}

}  // namespace
}  // namespace cucl::backend::host

// base/inline_vector.h: values kept in place up to N, on the heap past it, through copies,
// moves and growth.
#include <gtest/gtest.h>

#include <cstdint>

#include "base/inline_vector.h"

namespace {

using Small = cucl::InlineVector<uint32_t, 4>;

Small counted(uint32_t count) {
  Small values;
  for (uint32_t i = 0; i < count; ++i) values.push_back(i * 7 + 1);
  return values;
}

void expect_counted(const Small& values, uint32_t count) {
  ASSERT_EQ(values.size(), count);
  for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(values[i], i * 7 + 1) << i;
}

TEST(InlineVector, KeepsValuesInPlaceAndPastItsInlineCapacity) {
  for (uint32_t count : {0u, 1u, 4u, 5u, 9u, 100u}) expect_counted(counted(count), count);
}

TEST(InlineVector, CopiesAreIndependent) {
  for (uint32_t count : {3u, 4u, 17u}) {
    Small original = counted(count);
    Small copy = original;
    copy[0] = 999;
    copy.push_back(5);
    expect_counted(original, count);
    EXPECT_EQ(copy.size(), count + 1);
    Small assigned = counted(40);
    assigned = original;
    expect_counted(assigned, count);
  }
}

TEST(InlineVector, MovesLeaveTheSourceEmptyAndUsable) {
  for (uint32_t count : {2u, 4u, 12u}) {
    Small source = counted(count);
    const uint32_t* heap = count > 4 ? source.data() : nullptr;
    Small moved = std::move(source);
    expect_counted(moved, count);
    if (heap) {
      EXPECT_EQ(moved.data(), heap) << "a heap block is handed over, not copied";
    }
    EXPECT_TRUE(source.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    source.push_back(1);
    EXPECT_EQ(source.size(), 1u);
    Small target = counted(30);
    target = std::move(moved);
    expect_counted(target, count);
  }
}

TEST(InlineVector, ResizeZeroesNewValuesAndKeepsOldOnes) {
  Small values = counted(3);
  values.resize(10);
  ASSERT_EQ(values.size(), 10u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(values[i], i * 7 + 1);
  for (uint32_t i = 3; i < 10; ++i) EXPECT_EQ(values[i], 0u);
  values.resize(2);
  expect_counted(values, 2);
  values.clear();
  EXPECT_TRUE(values.empty());
}

}  // namespace

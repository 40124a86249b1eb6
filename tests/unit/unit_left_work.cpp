// The list of work a CUDA stream's completion thread leaves for its submitters to finish
// (backends/cuda/cuda_left_work.h): handed over a chain at a time by one thread, taken whole
// by any thread, oldest first, every work exactly once, and counted until it is finished.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "backends/cuda/cuda_left_work.h"

namespace cucl::backend::cuda {
namespace {

// Work that only counts how often it was finished.
class CountedWork final : public Work {
 public:
  explicit CountedWork(size_t id) : id(id) {}
  const Operation& operation() const override { return operation_; }
  void started() override {}
  void finished(cl_int) override { finishes.fetch_add(1, std::memory_order_relaxed); }

  const size_t id;
  std::atomic<int> finishes{0};

 private:
  Operation operation_;
};

std::vector<size_t> ids_of(const LeftWork::Chain& chain) {
  std::vector<size_t> ids;
  chain.for_each([&](Work& work) { ids.push_back(static_cast<CountedWork&>(work).id); });
  return ids;
}

TEST(LeftWork, TakesNothingWhenNothingWasHandedOver) {
  LeftWork left;
  LeftWork::Handover handover;
  left.hand_over(handover);  // an empty hand-over publishes nothing
  EXPECT_TRUE(left.empty());
  const LeftWork::Chain taken = left.take_all();
  EXPECT_TRUE(taken.empty());
  EXPECT_EQ(taken.size(), 0u);
  EXPECT_TRUE(left.all_finished());
}

TEST(LeftWork, GivesEverythingHandedOverOldestFirstAndCountsItUntilFinished) {
  LeftWork left;
  std::vector<std::unique_ptr<CountedWork>> works;
  for (size_t i = 0; i < 5; ++i) works.push_back(std::make_unique<CountedWork>(i));
  LeftWork::Handover first;
  left.leave(first, *works[0]);
  left.leave(first, *works[1]);
  EXPECT_FALSE(left.all_finished());  // outstanding as soon as it is left, before the hand-over
  EXPECT_TRUE(left.empty());
  left.hand_over(first);
  EXPECT_TRUE(first.empty());
  LeftWork::Handover second;
  for (size_t i = 2; i < 5; ++i) left.leave(second, *works[i]);
  left.hand_over(second);
  EXPECT_FALSE(left.empty());

  const LeftWork::Chain taken = left.take_all();
  EXPECT_EQ(ids_of(taken), (std::vector<size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(taken.size(), 5u);
  EXPECT_TRUE(left.empty());
  EXPECT_TRUE(left.take_all().empty());  // taken once only
  left.count_finished(4);
  EXPECT_FALSE(left.all_finished());
  left.count_finished(1);
  EXPECT_TRUE(left.all_finished());
}

// One thread leaves work in chains of varying length while three take and finish it: every
// work is finished exactly once, and what one take gives is oldest first.
TEST(LeftWork, ThreadsTakingWhileItIsHandedOverFinishEveryWorkOnce) {
  constexpr size_t kWorks = 200000;
  LeftWork left;
  std::vector<std::unique_ptr<CountedWork>> works;
  works.reserve(kWorks);
  for (size_t i = 0; i < kWorks; ++i) works.push_back(std::make_unique<CountedWork>(i));
  std::atomic<bool> done_leaving{false};
  std::atomic<size_t> out_of_order{0};
  const auto take_and_finish = [&] {
    const LeftWork::Chain taken = left.take_all();
    size_t previous = 0;
    bool first = true;
    taken.for_each([&](Work& work) {
      const size_t id = static_cast<CountedWork&>(work).id;
      if (!first && id <= previous) out_of_order.fetch_add(1, std::memory_order_relaxed);
      first = false;
      previous = id;
      work.finished(CL_SUCCESS);
    });
    left.count_finished(taken.size());
  };
  std::vector<std::thread> takers;
  for (int t = 0; t < 3; ++t) {
    takers.emplace_back([&] {
      while (!done_leaving.load(std::memory_order_acquire)) take_and_finish();
    });
  }
  std::thread leaver([&] {
    size_t next = 0;
    for (size_t length = 1; next < kWorks; length = length % 7 + 1) {
      LeftWork::Handover handover;
      for (size_t i = 0; i < length && next < kWorks; ++i) left.leave(handover, *works[next++]);
      left.hand_over(handover);
    }
    done_leaving.store(true, std::memory_order_release);
  });
  leaver.join();
  for (auto& taker : takers) taker.join();
  take_and_finish();  // what the takers left

  EXPECT_TRUE(left.empty());
  EXPECT_TRUE(left.all_finished());
  EXPECT_EQ(out_of_order.load(), 0u);
  size_t not_once = 0;
  for (const auto& work : works) not_once += work->finishes.load() != 1;
  EXPECT_EQ(not_once, 0u);
}

}  // namespace
}  // namespace cucl::backend::cuda

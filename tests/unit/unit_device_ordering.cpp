// Dependencies that the device orders (platform/command.cpp with backend::Stream::mark and
// Work::device_waits), tested on the CPU with a fake GPU device (fake_gpu.h).
#include "fake_gpu.h"

// Objects point their handles at the ICD's dispatch table (icd/dispatch.cpp); this test
// has no entry points, and no handle reaches an application.
const cucl::DispatchTable cucl::kDispatchTable{};

using namespace fake_gpu;

namespace {

using DeviceOrdering = FakeGpuTest;

TEST_F(DeviceOrdering, ADependentGoesToItsStreamBeforeItsDependencyRuns) {
  auto [first, first_stream] = queue();
  auto [second, second_stream] = queue();
  first_stream->pause();
  Ref<Event> a = command(*first, 1);
  Ref<Event> b = command(*second, 2, {a});
  // Handed over with a point of the first stream, not held back on the host.
  EXPECT_EQ(second_stream->submitted(), 1u);
  EXPECT_EQ(second_stream->points_carried(), 1u);
  EXPECT_GT(b->status(), CL_COMPLETE);
  first_stream->resume();
  EXPECT_EQ(b->wait(), CL_COMPLETE);
  EXPECT_EQ(a->status(), CL_COMPLETE);
  EXPECT_EQ(log.ids(), (std::vector<int>{1, 2}));
}

TEST_F(DeviceOrdering, ADependencyNotYetSubmittedHoldsTheDependentBack) {
  auto [first, first_stream] = queue();
  auto [second, second_stream] = queue();
  auto gate = make<Event>(context);
  Ref<Event> a = command(*first, 1, {gate});
  Ref<Event> b = command(*second, 2, {a});
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(second_stream->submitted(), 0u);
  first_stream->pause();  // else the first command may end before it is seen handed over
  gate->set_status(CL_COMPLETE);
  EXPECT_EQ(second_stream->submitted(), 1u);
  EXPECT_EQ(second_stream->points_carried(), 1u);
  first_stream->resume();
  EXPECT_EQ(b->wait(), CL_COMPLETE);
  EXPECT_EQ(log.ids(), (std::vector<int>{1, 2}));
}

TEST_F(DeviceOrdering, TheDependentsEventStaysOpenUntilItsDependencyIsSeenToEnd) {
  auto [first, first_stream] = queue();
  auto [second, second_stream] = queue();
  first_stream->hold_reports();
  Ref<Event> a = command(*first, 1);
  Ref<Event> b = command(*second, 2, {a});
  ASSERT_TRUE(second_stream->wait_ran(1));
  std::this_thread::sleep_for(20ms);
  EXPECT_GT(a->status(), CL_COMPLETE);
  EXPECT_GT(b->status(), CL_COMPLETE) << "complete before the command it waited for";
  first_stream->release_reports();
  EXPECT_EQ(b->wait(), CL_COMPLETE);
  EXPECT_EQ(a->status(), CL_COMPLETE);
}

TEST_F(DeviceOrdering, AWaitListCommandThatFailsAfterTheDependentWasSubmittedFailsIt) {
  auto [first, first_stream] = queue();
  auto [second, second_stream] = queue();
  first_stream->pause();
  first_stream->fail_next(CL_OUT_OF_RESOURCES);
  Ref<Event> a = command(*first, 1);
  Ref<Event> b = command(*second, 2, {a});
  EXPECT_EQ(second_stream->submitted(), 1u);
  first_stream->resume();
  EXPECT_EQ(b->wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(a->status(), CL_OUT_OF_RESOURCES);
  // The next command of the dependent's queue is not failed by it.
  EXPECT_EQ(command(*second, 3)->wait(), CL_COMPLETE);
}

TEST_F(DeviceOrdering, AFailedCommandDoesNotFailTheMarkerThatFollowsIt) {
  auto [queue_ooo, stream] = queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  stream->pause();
  stream->fail_next(CL_OUT_OF_RESOURCES);
  Ref<Event> a = command(*queue_ooo, 1);
  Ref<Event> marker = command(*queue_ooo, 2, {}, Ordering::Marker);
  EXPECT_EQ(stream->submitted(), 2u) << "within one stream, order needs no wait on the host";
  EXPECT_EQ(stream->points_carried(), 0u);
  stream->resume();
  EXPECT_EQ(marker->wait(), CL_COMPLETE);
  EXPECT_EQ(a->status(), CL_OUT_OF_RESOURCES);
}

// Every command of a long chain over two queues ends before its first link is seen to end:
// they all complete once it is, one after another, without a stack frame per link.
TEST_F(DeviceOrdering, ALongChainCompletesWithoutRecursion) {
  constexpr int kLinks = 20000;
  auto [root_queue, root_stream] = queue();
  auto [even, even_stream] = queue();
  auto [odd, odd_stream] = queue();
  root_stream->hold_reports();
  Ref<Event> root = command(*root_queue, 0);
  Ref<Event> last = root;
  for (int link = 1; link <= kLinks; ++link) last = command(link % 2 ? *odd : *even, link, {last});
  ASSERT_TRUE(odd_stream->wait_ran(kLinks / 2, 60s));
  ASSERT_TRUE(even_stream->wait_ran(kLinks / 2, 60s));
  EXPECT_GT(last->status(), CL_COMPLETE);
  root_stream->release_reports();
  EXPECT_EQ(last->wait(), CL_COMPLETE);
  const std::vector<int> ids = log.ids();
  ASSERT_EQ(ids.size(), size_t{kLinks + 1});
  for (int link = 0; link <= kLinks; ++link) ASSERT_EQ(ids[link], link);
}

}  // namespace

// Profiling times that a stream reports from the device (Work::timed, Event::set_device_times)
// and the queue pipelining that relies on them (Stream::times_work), with a fake GPU device
// (fake_gpu.h).
#include "base/clock.h"
#include "fake_gpu.h"

// Objects point their handles at the ICD's dispatch table (icd/dispatch.cpp); this test
// has no entry points, and no handle reaches an application.
const cucl::DispatchTable cucl::kDispatchTable{};

using namespace fake_gpu;

namespace {

enum Stamp { kQueued, kSubmit, kStart, kEnd, kComplete };

class TimesTest : public FakeGpuTest {
 protected:
  using FakeGpuTest::FakeGpuTest;

  // Two commands enqueued on a new queue while its stream is paused; `handed_over` counts
  // those the stream had taken before it resumed. Both have ended on return.
  struct PausedPair {
    size_t handed_over;
    Ref<Event> first, second;
  };
  PausedPair two_commands_while_paused(cl_command_queue_properties properties, int first_id) {
    auto [target, stream] = queue(properties);
    stream->pause();
    PausedPair pair{0, command(*target, first_id), command(*target, first_id + 1)};
    pair.handed_over = stream->submitted();
    stream->resume();
    EXPECT_EQ(pair.second->wait(), CL_COMPLETE);
    return pair;
  }
};

class DeviceTimes : public TimesTest {
 protected:
  DeviceTimes() : TimesTest(/*times_work=*/true) {}
};

class HostTimes : public TimesTest {};

TEST_F(DeviceTimes, ReportedTimesBecomeStartAndEnd) {
  auto [profiled, stream] = queue(CL_QUEUE_PROFILING_ENABLE);
  std::vector<std::pair<uint64_t, uint64_t>> reported;
  stream->report_times([&] {
    const uint64_t start = now_ns() - 2000;  // it began before it was seen to
    reported.emplace_back(start, start + 1000);
    return reported.back();
  });
  Ref<Event> event = command(*profiled, 1);
  ASSERT_EQ(event->wait(), CL_COMPLETE);
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(event->timestamp(kStart), std::max<uint64_t>(reported[0].first, event->timestamp(kSubmit)));
  EXPECT_EQ(event->timestamp(kEnd), std::max<uint64_t>(reported[0].second, event->timestamp(kStart)));
  EXPECT_LE(event->timestamp(kEnd), event->timestamp(kComplete));
}

TEST_F(DeviceTimes, TimesOutsideSubmitToCompleteAreKeptInside) {
  auto [profiled, stream] = queue(CL_QUEUE_PROFILING_ENABLE);
  stream->report_times([] { return std::pair<uint64_t, uint64_t>{1, 2}; });  // long before SUBMIT
  Ref<Event> early = command(*profiled, 1);
  ASSERT_EQ(early->wait(), CL_COMPLETE);
  EXPECT_EQ(early->timestamp(kStart), early->timestamp(kSubmit));
  EXPECT_EQ(early->timestamp(kEnd), early->timestamp(kStart));

  const uint64_t hour = 3600'000'000'000;
  stream->report_times([hour] {
    const uint64_t now = now_ns();
    return std::pair<uint64_t, uint64_t>{now + hour, now + 2 * hour};  // after COMPLETE
  });
  Ref<Event> late = command(*profiled, 2);
  ASSERT_EQ(late->wait(), CL_COMPLETE);
  EXPECT_EQ(late->timestamp(kStart), late->timestamp(kComplete));
  EXPECT_EQ(late->timestamp(kEnd), late->timestamp(kComplete));
  EXPECT_LE(late->timestamp(kSubmit), late->timestamp(kStart));
}

TEST_F(DeviceTimes, AProfiledInOrderQueueHandsEachCommandOverAtOnce) {
  EXPECT_EQ(two_commands_while_paused(CL_QUEUE_PROFILING_ENABLE, 1).handed_over, 2u);
  EXPECT_EQ(log.ids(), (std::vector<int>{1, 2}));
}

// Without device times a command's START would count its wait behind the one before, so a
// profiled in-order queue hands it over only once that one has ended.
TEST_F(HostTimes, AProfiledInOrderQueueWaitsForEachCommandToEnd) {
  PausedPair profiled = two_commands_while_paused(CL_QUEUE_PROFILING_ENABLE, 1);
  EXPECT_EQ(profiled.handed_over, 1u);
  EXPECT_LE(profiled.first->timestamp(kEnd), profiled.second->timestamp(kStart));
  // An unprofiled queue on the same stream kind is pipelined.
  EXPECT_EQ(two_commands_while_paused(0, 3).handed_over, 2u);
}

}  // namespace

// Direct commands (platform/queue/direct_command.h): in a pipelined queue a command that
// nothing names goes to the stream as it is enqueued, without an event, and clFinish still
// waits for it. Tested on the CPU with a fake GPU device (fake_gpu.h).
#include <atomic>
#include <future>
#include <memory>
#include <thread>

#include "fake_gpu.h"
#include "platform/queue/enqueue.h"

// Objects point their handles at the ICD's dispatch table (icd/dispatch.cpp); this test
// has no entry points, and no handle reaches an application.
const cucl::DispatchTable cucl::kDispatchTable{};

using namespace fake_gpu;

namespace {

class DirectCommands : public FakeGpuTest {
 protected:
  // A command that logs `id` when it runs and calls `on_finish` with its final status.
  CommandSpec logging(int id, std::function<void(cl_int)> on_finish = {}) {
    CommandSpec spec;
    spec.type = CL_COMMAND_NATIVE_KERNEL;
    spec.operation = backend::op::HostFunction{[this, id] { log.add(id); }};
    spec.on_finish = std::move(on_finish);
    return spec;
  }
  // Enqueued as clEnqueue* does when the application passes no wait list and asks for no event.
  Ref<Event> unnamed(Queue& queue, int id, std::function<void(cl_int)> on_finish = {}) {
    return submit(queue, logging(id, std::move(on_finish)), 0, nullptr, nullptr);
  }
};

TEST_F(DirectCommands, ACommandNothingNamesGoesToTheStreamWithoutAnEvent) {
  auto [in_order, stream] = queue();
  stream->pause();
  EXPECT_EQ(unnamed(*in_order, 1), nullptr);
  EXPECT_EQ(stream->submitted(), 1u) << "handed over as it was enqueued, before it ran";
  stream->resume();
  in_order->finish();
  EXPECT_EQ(log.ids(), (std::vector<int>{1}));
}

TEST_F(DirectCommands, FinishWaitsForEveryDirectCommand) {
  auto [in_order, stream] = queue();
  stream->pause();
  for (int id = 1; id <= 5; ++id) unnamed(*in_order, id);
  auto finished = std::async(std::launch::async, [queue = in_order] { queue->finish(); });
  EXPECT_EQ(finished.wait_for(50ms), std::future_status::timeout) << "finish returned before the commands ran";
  stream->resume();
  finished.get();
  EXPECT_EQ(log.ids(), (std::vector<int>{1, 2, 3, 4, 5}));
}

TEST_F(DirectCommands, FinishWaitsForReportsSeenLate) {
  auto [in_order, stream] = queue();
  stream->hold_reports();
  unnamed(*in_order, 1);
  ASSERT_TRUE(stream->wait_ran(1));
  auto finished = std::async(std::launch::async, [queue = in_order] { queue->finish(); });
  EXPECT_EQ(finished.wait_for(50ms), std::future_status::timeout) << "ran, but its end was not reported yet";
  stream->release_reports();
  finished.get();
}

TEST_F(DirectCommands, ACommandAfterOneStillWaitingForItsWaitListKeepsTheOrder) {
  auto [in_order, stream] = queue();
  auto gate = make<Event>(context);
  Ref<Event> first = command(*in_order, 1, {gate});
  // Until the waiting command is submitted, the ones after it follow its submission.
  EXPECT_NE(unnamed(*in_order, 2), nullptr) << "went around the command that waits";
  EXPECT_NE(unnamed(*in_order, 3), nullptr) << "went around the command that waits";
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(stream->submitted(), 0u);
  gate->set_status(CL_COMPLETE);
  EXPECT_EQ(stream->submitted(), 3u);
  EXPECT_EQ(unnamed(*in_order, 4), nullptr) << "nothing waits any more";
  in_order->finish();
  EXPECT_EQ(log.ids(), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(first->status(), CL_COMPLETE);
}

TEST_F(DirectCommands, DirectAndEventCommandsRunAndEndInEnqueueOrder) {
  auto [in_order, stream] = queue();
  stream->pause();
  std::vector<Ref<Event>> named;
  std::vector<int> expected;
  for (int id = 0; id < 40; ++id) {
    if (id % 3 == 0) {
      named.push_back(command(*in_order, id));
    } else {
      EXPECT_EQ(unnamed(*in_order, id), nullptr);
    }
    expected.push_back(id);
  }
  stream->resume();
  EXPECT_EQ(named.back()->wait(), CL_COMPLETE);
  in_order->finish();
  EXPECT_EQ(log.ids(), expected);
}

TEST_F(DirectCommands, OnFinishHearsTheStatusAndWhatTheCommandHeldIsReleased) {
  auto [in_order, stream] = queue();
  auto held = std::make_shared<int>(0);
  std::atomic<cl_int> heard_ok{1}, heard_failed{1};
  unnamed(*in_order, 1, [held, &heard_ok](cl_int status) { heard_ok = status; });
  in_order->finish();
  stream->fail_next(CL_OUT_OF_RESOURCES);  // the next to run is the second
  unnamed(*in_order, 2, [held, &heard_failed](cl_int status) { heard_failed = status; });
  in_order->finish();
  EXPECT_EQ(heard_ok.load(), CL_SUCCESS);
  EXPECT_EQ(heard_failed.load(), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(held.use_count(), 1) << "a finished command still holds what its spec held";
  // A failed command does not fail the next one.
  EXPECT_EQ(command(*in_order, 3)->wait(), CL_COMPLETE);
}

TEST_F(DirectCommands, ACommandTheStreamRefusesHearsTheFailureAndFinishDoesNotWaitForIt) {
  auto [in_order, stream] = queue();
  std::atomic<cl_int> heard{1};
  stream->refuse_next();
  EXPECT_EQ(unnamed(*in_order, 1, [&heard](cl_int status) { heard = status; }), nullptr);
  EXPECT_EQ(heard.load(), CL_OUT_OF_RESOURCES);
  unnamed(*in_order, 2);
  in_order->finish();
  EXPECT_EQ(log.ids(), (std::vector<int>{2}));
}

TEST_F(DirectCommands, OnlyPipelinedQueuesTakeThem) {
  auto [out_of_order, stream] = queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_FALSE(out_of_order->pipelined());
  EXPECT_NE(unnamed(*out_of_order, 1), nullptr);
  out_of_order->finish();
  EXPECT_EQ(log.ids(), (std::vector<int>{1}));
}

TEST_F(DirectCommands, CommandsOfSeveralThreadsAllRunBeforeFinishReturns) {
  auto [in_order, stream] = queue();
  constexpr int kThreads = 4, kEach = 500;
  std::atomic<int> ended{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, queue = in_order, t] {
      for (int i = 0; i < kEach; ++i) {
        if (i % 50 == 49) {
          command(*queue, t * kEach + i);
          ended.fetch_add(1);
        } else {
          unnamed(*queue, t * kEach + i, [&ended](cl_int) { ended.fetch_add(1); });
        }
      }
      queue->finish();
    });
  }
  for (auto& thread : threads) thread.join();
  in_order->finish();
  EXPECT_EQ(ended.load(), kThreads * kEach);
  EXPECT_EQ(log.ids().size(), static_cast<size_t>(kThreads * kEach));
}

TEST_F(DirectCommands, AQueueReleasedWithDirectCommandsInFlightLivesUntilTheyEnd) {
  auto released = make<Queue>(context, device.get(), 0, std::vector<cl_queue_properties>{});
  FakeGpuStream* stream = gpu->streams.back();
  stream->pause();
  std::promise<void> last;
  for (int id = 1; id <= 3; ++id) unnamed(*released, id);
  unnamed(*released, 4, [&last](cl_int) { last.set_value(); });
  released = nullptr;  // the commands hold the queue (and its stream) now
  stream->resume();
  EXPECT_EQ(last.get_future().wait_for(10s), std::future_status::ready);
  EXPECT_EQ(log.ids(), (std::vector<int>{1, 2, 3, 4}));
}

}  // namespace

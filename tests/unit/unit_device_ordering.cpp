// Dependencies that the device orders (platform/command.cpp with backend::Stream::mark and
// Work::device_waits), tested on the CPU with a fake device whose streams behave as a GPU's:
// each runs its work in submission order on its own thread, and before work that carries
// points of other streams it waits until those streams have run their work up to the point.
// A stream can hold back its reports (Work::finished), as a completion seen late.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "platform/context.h"
#include "platform/device.h"
#include "platform/event.h"
#include "platform/handle.h"
#include "platform/queue.h"
#include "platform/registry.h"

// Objects point their handles at the ICD's dispatch table (icd/dispatch.cpp); this test
// has no entry points, and no handle reaches an application.
const cl_icd_dispatch cucl::kDispatchTable{};

using namespace cucl;
using namespace std::chrono_literals;

namespace {

class FakeGpuStream;

// A point of a fake stream: its work up to `count` submitted commands.
struct FakePoint final : backend::StreamPoint {
  FakePoint(FakeGpuStream& stream, size_t count) : stream(stream), count(count) {}
  FakeGpuStream& stream;
  size_t count;
};

class FakeGpuStream final : public backend::Stream {
 public:
  explicit FakeGpuStream(const void* device) : device_(device), thread_([this] { run(); }) {}
  ~FakeGpuStream() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  void submit(backend::Work& work) override {
    std::lock_guard lock(mutex_);
    queue_.push_back(&work);
    ++submitted_;
    points_carried_ += work.device_waits().size();
    changed_.notify_all();
  }
  bool runs_in_submission_order() const override { return true; }
  bool can_follow_on_device(const Stream& earlier, const backend::Operation&) const override {
    const auto* other = dynamic_cast<const FakeGpuStream*>(&earlier);
    return other && other->device_ == device_;
  }
  bool mark(const Stream& follower, std::shared_ptr<backend::StreamPoint>& point) override {
    if (&follower == this) return true;
    std::lock_guard lock(mutex_);
    point = std::make_shared<FakePoint>(*this, submitted_);
    return true;
  }

  // Work waits to run until resume().
  void pause() { set([this] { paused_ = true; }); }
  void resume() { set([this] { paused_ = false; }); }
  // Work runs, but finished() is called only by release_reports(), in order.
  void hold_reports() { set([this] { holding_ = true; }); }
  void release_reports() {
    std::vector<std::pair<backend::Work*, cl_int>> held;
    {
      std::lock_guard lock(mutex_);
      holding_ = false;
      held.swap(held_);
    }
    for (auto [work, status] : held) work->finished(status);
  }
  // The next work to run ends with this status.
  void fail_next(cl_int status) { set([&] { fail_next_ = status; }); }

  size_t submitted() {
    std::lock_guard lock(mutex_);
    return submitted_;
  }
  size_t points_carried() {
    std::lock_guard lock(mutex_);
    return points_carried_;
  }
  // Waits until `count` commands have run.
  bool wait_ran(size_t count, std::chrono::milliseconds limit = 10s) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return ran_ >= count; });
  }

 private:
  template <class Change>
  void set(Change change) {
    {
      std::lock_guard lock(mutex_);
      change();
    }
    changed_.notify_all();
  }

  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || (!paused_ && !queue_.empty()); });
      if (queue_.empty()) return;
      backend::Work* work = queue_.front();
      queue_.pop_front();
      const cl_int status = std::exchange(fail_next_, CL_SUCCESS);
      lock.unlock();
      for (const auto& point : work->device_waits()) {
        const auto& fake = static_cast<const FakePoint&>(*point);
        fake.stream.wait_ran(fake.count, 1h);
      }
      work->started();
      if (const auto* function = std::get_if<backend::op::HostFunction>(&work->operation())) function->run();
      lock.lock();
      ++ran_;
      changed_.notify_all();
      if (holding_) {
        held_.emplace_back(work, status);
        continue;
      }
      lock.unlock();
      work->finished(status);
      lock.lock();
    }
  }

  const void* device_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<backend::Work*> queue_;
  std::vector<std::pair<backend::Work*, cl_int>> held_;
  size_t submitted_ = 0, ran_ = 0, points_carried_ = 0;
  cl_int fail_next_ = CL_SUCCESS;
  bool paused_ = false, holding_ = false, stopping_ = false;
  std::thread thread_;
};

class FakeGpu final : public backend::Device {
 public:
  const backend::DeviceDescription& description() const override { return description_; }
  std::unique_ptr<backend::Memory> allocate(size_t, void*) override { return nullptr; }
  std::unique_ptr<backend::Stream> create_stream() override {
    auto stream = std::make_unique<FakeGpuStream>(this);
    streams.push_back(stream.get());
    return stream;
  }
  uint64_t device_timer_ns() const override { return 0; }
  backend::CodegenResult generate_code(std::string_view, const backend::CodegenOptions&) override { return {}; }
  std::unique_ptr<backend::LoadedProgram> load_program(std::string_view, std::string& error) override {
    error = "no compiler";
    return nullptr;
  }

  std::vector<FakeGpuStream*> streams;  // in creation order, owned by their queues

 private:
  backend::DeviceDescription description_;
};

// Records the order in which the fake device ran the commands.
class RunLog {
 public:
  void add(int id) {
    std::lock_guard lock(mutex_);
    ids_.push_back(id);
  }
  std::vector<int> ids() {
    std::lock_guard lock(mutex_);
    return ids_;
  }

 private:
  std::mutex mutex_;
  std::vector<int> ids_;
};

class DeviceOrdering : public ::testing::Test {
 protected:
  DeviceOrdering() {
    auto backend = std::make_unique<FakeGpu>();
    gpu = backend.get();
    device = make<Device>(std::move(backend));
    context = make<Context>(std::vector<Device*>{device.get()}, std::vector<cl_context_properties>{}, nullptr,
                            nullptr);
    // Queues and user events pin their context's handle: it has one, in a registry of the
    // test's own (the platform's is not needed).
    context->publish(registry);
  }
  ~DeviceOrdering() override {
    for (auto& queue : queues) queue->finish();
    queues.clear();
    context->drop();  // the registry listing's hold; the handle is never released
  }

  // A queue and its fake stream.
  std::pair<Queue*, FakeGpuStream*> queue(cl_command_queue_properties properties = 0) {
    queues.push_back(make<Queue>(context, device.get(), properties, std::vector<cl_queue_properties>{}));
    return {queues.back().get(), gpu->streams.back()};
  }
  // A command that logs `id` when the device runs it.
  Ref<Event> command(Queue& queue, int id, std::vector<Ref<Event>> wait = {}, Ordering ordering = Ordering::Normal) {
    CommandSpec spec;
    spec.type = CL_COMMAND_NATIVE_KERNEL;
    spec.operation = backend::op::HostFunction{[this, id] { log.add(id); }};
    return queue.enqueue(std::move(spec), wait, ordering);
  }

  Registry registry;
  FakeGpu* gpu = nullptr;
  Ref<Device> device;
  Ref<Context> context;
  std::vector<Ref<Queue>> queues;
  RunLog log;
};

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
  gate->set_status(CL_COMPLETE);
  EXPECT_EQ(b->wait(), CL_COMPLETE);
  EXPECT_EQ(log.ids(), (std::vector<int>{1, 2}));
  EXPECT_EQ(second_stream->points_carried(), 1u);
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

// A fake GPU device for tests of platform/ on the CPU: its streams behave as a GPU's. Each
// runs its work in submission order on its own thread, and before work that carries points
// of other streams (Work::device_waits) it waits until those streams have run their work up
// to the point. A stream can pause, hold back its reports (Work::finished) as a completion
// seen late, fail or refuse work, and report device times. FakeGpuTest gives a context on it with
// queues and commands that log their run. A test program defines cucl::kDispatchTable.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <utility>
#include <vector>

#include "platform/objects/context.h"
#include "platform/objects/device.h"
#include "platform/queue/event.h"
#include "platform/objects/handle.h"
#include "platform/queue/queue.h"
#include "platform/objects/object.h"

namespace fake_gpu {

using namespace cucl;
using namespace std::chrono_literals;

// What a fake stream's thread works on; shared with the thread, so that the stream may be
// destroyed on that thread (the last finished() can release its queue).
struct FakeStreamState {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<backend::Work*> queue;
  std::vector<std::pair<backend::Work*, cl_int>> held;
  size_t submitted = 0, ran = 0, points_carried = 0;
  cl_int fail_next = CL_SUCCESS;
  std::function<std::pair<uint64_t, uint64_t>()> times;
  bool paused = false, holding = false, stopping = false;

  // Waits until `count` commands have run.
  bool wait_ran(size_t count, std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, limit, [&] { return ran >= count; });
  }
};

// A point of a fake stream: its work up to `count` submitted commands.
struct FakePoint final : backend::StreamPoint {
  FakePoint(std::shared_ptr<FakeStreamState> stream, size_t count) : stream(std::move(stream)), count(count) {}
  std::shared_ptr<FakeStreamState> stream;
  size_t count;
};

class FakeGpuStream final : public backend::Stream {
 public:
  FakeGpuStream(const void* device, bool times_work)
      : device_(device), times_work_(times_work), state_(std::make_shared<FakeStreamState>()),
        thread_(run, state_) {}
  ~FakeGpuStream() override {
    set([](FakeStreamState& state) { state.stopping = true; });
    if (thread_.get_id() == std::this_thread::get_id()) {
      thread_.detach();  // run() ends once it looks again; the state outlives this
    } else {
      thread_.join();
    }
  }

  void submit(backend::Work& work) override {
    if (std::exchange(refuse_next_, false)) throw std::bad_alloc();
    set([&](FakeStreamState& state) {
      state.queue.push_back(&work);
      ++state.submitted;
      state.points_carried += work.device_waits().size();
    });
  }
  bool runs_in_submission_order() const override { return true; }
  bool times_work() const override { return times_work_; }
  bool can_follow_on_device(const Stream& earlier, const backend::Operation&) const override {
    const auto* other = dynamic_cast<const FakeGpuStream*>(&earlier);
    return other && other->device_ == device_;
  }
  bool mark(const Stream& follower, std::shared_ptr<backend::StreamPoint>& point) override {
    if (&follower == this) return true;
    std::lock_guard lock(state_->mutex);
    point = std::make_shared<FakePoint>(state_, state_->submitted);
    return true;
  }

  // Work waits to run until resume().
  void pause() { set([](FakeStreamState& state) { state.paused = true; }); }
  void resume() { set([](FakeStreamState& state) { state.paused = false; }); }
  // Work runs, but finished() is called only by release_reports(), in order.
  void hold_reports() { set([](FakeStreamState& state) { state.holding = true; }); }
  void release_reports() {
    std::vector<std::pair<backend::Work*, cl_int>> held;
    set([&](FakeStreamState& state) {
      state.holding = false;
      held.swap(state.held);
    });
    for (auto [work, status] : held) work->finished(status);
  }
  // Timed work is reported to have run when `times` says (start, end; host clock, ns), asked
  // once it has run.
  void report_times(std::function<std::pair<uint64_t, uint64_t>()> times) {
    set([&](FakeStreamState& state) { state.times = std::move(times); });
  }
  // The next submit() throws, as a stream that cannot take the work does.
  void refuse_next() { refuse_next_ = true; }
  // The next work to run ends with this status.
  void fail_next(cl_int status) { set([&](FakeStreamState& state) { state.fail_next = status; }); }

  size_t submitted() { return read([](FakeStreamState& state) { return state.submitted; }); }
  size_t points_carried() { return read([](FakeStreamState& state) { return state.points_carried; }); }
  bool wait_ran(size_t count, std::chrono::milliseconds limit = 10s) { return state_->wait_ran(count, limit); }

 private:
  template <class Change>
  void set(Change change) {
    {
      std::lock_guard lock(state_->mutex);
      change(*state_);
    }
    state_->changed.notify_all();
  }
  template <class Read>
  size_t read(Read value) {
    std::lock_guard lock(state_->mutex);
    return value(*state_);
  }

  static void run(std::shared_ptr<FakeStreamState> state) {
    std::unique_lock lock(state->mutex);
    for (;;) {
      state->changed.wait(lock, [&] { return state->stopping || (!state->paused && !state->queue.empty()); });
      if (state->queue.empty()) return;
      backend::Work* work = state->queue.front();
      state->queue.pop_front();
      const cl_int status = std::exchange(state->fail_next, CL_SUCCESS);
      lock.unlock();
      for (const auto& point : work->device_waits()) {
        const auto& fake = static_cast<const FakePoint&>(*point);
        fake.stream->wait_ran(fake.count, 1h);
      }
      work->started();
      if (const auto* function = std::get_if<backend::op::HostFunction>(&work->operation())) function->run();
      lock.lock();
      if (work->wants_times() && state->times) {
        auto [start, end] = state->times();
        work->timed(start, end);
      }
      ++state->ran;
      state->changed.notify_all();
      if (state->holding) {
        state->held.emplace_back(work, status);
        continue;
      }
      lock.unlock();
      work->finished(status);  // may destroy the stream (its queue's last hold)
      lock.lock();
    }
  }

  const void* device_;
  const bool times_work_;
  bool refuse_next_ = false;  // set and read by the test's thread
  std::shared_ptr<FakeStreamState> state_;
  std::thread thread_;
};

class FakeGpu final : public backend::Device {
 public:
  explicit FakeGpu(bool times_work) : times_work_(times_work) {}
  const backend::DeviceDescription& description() const override { return description_; }
  std::unique_ptr<backend::Memory> allocate(size_t, void*, bool) override { return nullptr; }
  std::unique_ptr<backend::Stream> create_stream() override {
    auto stream = std::make_unique<FakeGpuStream>(this, times_work_);
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
  bool times_work_;
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

class FakeGpuTest : public ::testing::Test {
 protected:
  explicit FakeGpuTest(bool times_work = false) {
    auto backend = std::make_unique<FakeGpu>(times_work);
    gpu = backend.get();
    device = make<Device>(std::move(backend));
    context = make<Context>(std::vector<Device*>{device.get()}, std::vector<cl_context_properties>{}, nullptr,
                            nullptr);
    // Queues and user events pin their context's handle: it has one, in a registry of the
    // test's own (the platform's is not needed).
    context->publish(registry);
  }
  ~FakeGpuTest() override {
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

}  // namespace fake_gpu

// Which device holds the current copy of a buffer's bytes (platform/validity_map.h), and
// the transfers that bring them to another device (platform/memory_coherence.h,
// platform/device_transfer.h), with fake devices: "host" ones whose map pointer is their
// memory, and "GPU" ones whose memory the host reaches only through staging.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "platform/memory/device_transfer.h"
#include "platform/memory/memory_coherence.h"
#include "platform/memory/validity_map.h"

using namespace cucl;

namespace {

constexpr ValidityMap::Holders bit(unsigned device) { return ValidityMap::Holders{1} << device; }

TEST(ValidityMap, StartsWithEveryDeviceHoldingEverything) {
  ValidityMap map(100, bit(0) | bit(1));
  EXPECT_EQ(map.holders_at(0), bit(0) | bit(1));
  EXPECT_EQ(map.holders_at(99), bit(0) | bit(1));
  EXPECT_TRUE(map.missing(0, 100, 0).empty());
  EXPECT_EQ(map.segment_count(), 1u);
}

TEST(ValidityMap, AWriteLeavesOnlyItsDeviceHoldingItsRange) {
  ValidityMap map(100, bit(0) | bit(1));
  map.set_only(10, 20, 1);
  EXPECT_EQ(map.holders_at(9), bit(0) | bit(1));
  EXPECT_EQ(map.holders_at(10), bit(1));
  EXPECT_EQ(map.holders_at(19), bit(1));
  EXPECT_EQ(map.holders_at(20), bit(0) | bit(1));
  EXPECT_EQ(map.segment_count(), 3u);
  auto missing = map.missing(0, 100, 0);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].begin, 10u);
  EXPECT_EQ(missing[0].end, 20u);
  EXPECT_EQ(missing[0].holders, bit(1));
  EXPECT_TRUE(map.missing(0, 100, 1).empty());
}

TEST(ValidityMap, MissingIsClippedToTheAskedRange) {
  ValidityMap map(100, bit(0) | bit(1));
  map.set_only(10, 50, 1);
  auto missing = map.missing(20, 30, 0);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].begin, 20u);
  EXPECT_EQ(missing[0].end, 30u);
  EXPECT_TRUE(map.missing(50, 100, 0).empty());
  EXPECT_TRUE(map.missing(5, 5, 0).empty());
}

TEST(ValidityMap, PiecesKeepTheirOwnHolders) {
  ValidityMap map(100, bit(0) | bit(1) | bit(2));
  map.set_only(0, 40, 0);
  map.set_only(40, 100, 1);
  auto missing = map.missing(0, 100, 2);
  ASSERT_EQ(missing.size(), 2u);
  EXPECT_EQ(missing[0].holders, bit(0));
  EXPECT_EQ(missing[0].end, 40u);
  EXPECT_EQ(missing[1].holders, bit(1));
  EXPECT_EQ(missing[1].begin, 40u);
}

TEST(ValidityMap, SegmentsThatAgreeMergeAgain) {
  ValidityMap map(100, bit(0) | bit(1));
  map.set_only(10, 20, 1);
  map.set_only(30, 40, 1);
  EXPECT_EQ(map.segment_count(), 5u);
  map.add(10, 20, 0);
  map.add(30, 40, 0);
  EXPECT_EQ(map.segment_count(), 1u);
  map.set_only(0, 100, 0);
  EXPECT_EQ(map.segment_count(), 1u);
  EXPECT_EQ(map.holders_at(50), bit(0));
}

TEST(ValidityMap, RangesPastTheEndAreClipped) {
  ValidityMap map(100, bit(0) | bit(1));
  map.set_only(90, 200, 1);
  EXPECT_EQ(map.holders_at(99), bit(1));
  auto missing = map.missing(0, 500, 0);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].end, 100u);
}

// A device allocation: `host` memory maps as itself; other memory hands out staging.
class FakeMemory final : public backend::Memory {
 public:
  FakeMemory(size_t size, bool host) : bytes(size), host(host) {}
  void* map_pointer(size_t offset, size_t size) override {
    if (host) return bytes.data() + offset;
    std::lock_guard lock(mutex);
    staging.push_back(std::make_unique<char[]>(size));
    ++staging_made;
    return staging.back().get();
  }
  void unmap_pointer(void* mapped) override {
    std::lock_guard lock(mutex);
    std::erase_if(staging, [&](const auto& block) { return block.get() == mapped; });
  }
  void write_now(size_t offset, const void* src, size_t size) override { std::memcpy(bytes.data() + offset, src, size); }
  uint64_t kernel_address(size_t offset) const override { return reinterpret_cast<uintptr_t>(bytes.data() + offset); }

  std::vector<char> bytes;
  bool host;
  std::mutex mutex;
  std::vector<std::unique_ptr<char[]>> staging;
  int staging_made = 0;
};

char* address(const backend::Location& location) {
  return static_cast<FakeMemory*>(location.memory)->bytes.data() + location.offset;
}

// Runs work on its own thread, in order; can be paused, made to fail work, or to refuse it.
class FakeStream final : public backend::Stream {
 public:
  FakeStream() : thread_([this] { run(); }) {}
  ~FakeStream() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      paused_ = false;
    }
    wake_.notify_all();
    thread_.join();
  }
  void submit(backend::Work& work) override {
    if (refuse) throw std::bad_alloc();
    std::lock_guard lock(mutex_);
    queue_.push_back(&work);
    ++submitted;
    waits_seen.push_back(work.device_waits().size());
    wake_.notify_all();
  }
  // A stream whose work others can follow on the device (a GPU's): mark() hands out points.
  bool can_follow_on_device(const Stream&, const backend::Operation&) const override { return true; }
  bool mark(const Stream&, std::shared_ptr<backend::StreamPoint>& point) override {
    point = std::make_shared<backend::StreamPoint>();
    return true;
  }
  void pause(bool paused) {
    {
      std::lock_guard lock(mutex_);
      paused_ = paused;
    }
    wake_.notify_all();
  }

  std::atomic<int> submitted{0};
  std::vector<size_t> waits_seen;  // each submitted work's device_waits(), under mutex_ (read once idle)
  std::atomic<bool> refuse{false};
  std::atomic<cl_int> status{CL_SUCCESS};

 private:
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || (!paused_ && !queue_.empty()); });
      if (queue_.empty()) return;
      backend::Work* work = queue_.front();
      queue_.pop_front();
      lock.unlock();
      work->started();
      cl_int result = status.load();
      if (result >= 0) execute(work->operation());
      work->finished(result);
      lock.lock();
    }
  }
  static void execute(const backend::Operation& operation) {
    if (const auto* map = std::get_if<backend::op::Map>(&operation)) {
      if (map->needs_read && map->mapped != address(map->src)) std::memcpy(map->mapped, address(map->src), map->size);
    } else if (const auto* unmap = std::get_if<backend::op::Unmap>(&operation)) {
      if (unmap->needs_write && unmap->mapped != address(unmap->dst)) {
        std::memcpy(address(unmap->dst), unmap->mapped, unmap->size);
      }
    } else if (const auto* copy = std::get_if<backend::op::Copy>(&operation)) {
      std::memcpy(address(copy->dst), address(copy->src), copy->size);
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<backend::Work*> queue_;
  bool paused_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

class FakeStorage final : public CoherentStorage {
 public:
  FakeStorage(size_t size, std::vector<bool> host_devices) {
    for (bool host : host_devices) {
      memories.push_back(std::make_unique<FakeMemory>(size, host));
      streams.push_back(std::make_unique<FakeStream>());
    }
  }
  unsigned device_count() const override { return static_cast<unsigned>(memories.size()); }
  backend::Memory& memory_on(unsigned device) override { return *memories[device]; }
  backend::Stream& transfer_stream(unsigned device) override { return *streams[device]; }
  bool host_memory(unsigned device) const override { return memories[device]->host; }
  bool direct_copy(unsigned source, unsigned destination) override {
    return peers.contains({source, destination});
  }

  std::set<std::pair<unsigned, unsigned>> peers;  // (source, destination) pairs copied directly
  std::vector<std::unique_ptr<FakeMemory>> memories;
  std::vector<std::unique_ptr<FakeStream>> streams;  // destroyed first: their threads end
};

// A command's stand-in: remembers what memory_ready() said.
class Waiter final : public MemoryWaiter {
 public:
  void memory_ready(cl_int status) override {
    std::lock_guard lock(mutex_);
    statuses_.push_back(status);
    done_.notify_all();
  }
  // Waits for the n-th call (1-based) and returns its status.
  cl_int wait_for(size_t n) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return statuses_.size() >= n; });
    return statuses_[n - 1];
  }
  size_t calls() {
    std::lock_guard lock(mutex_);
    return statuses_.size();
  }
  bool transfer_waits(const backend::Stream& first_step,
                      std::vector<std::shared_ptr<backend::StreamPoint>>& waits) override {
    first_steps.push_back(&first_step);
    waits = points;
    return !refuse_waits;
  }

  std::vector<std::shared_ptr<backend::StreamPoint>> points;  // what its transfers first wait for
  bool refuse_waits = false;                                  // as a command whose stream cannot mark its work
  std::vector<const backend::Stream*> first_steps;            // the streams transfer_waits() was asked for

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  std::vector<cl_int> statuses_;
};

// A command's stand-in whose stream can follow the transfer streams on the device.
class Follower final : public MemoryWaiter {
 public:
  explicit Follower(const backend::Stream& stream) : stream_(stream) {}
  const backend::Stream* follower_of(const backend::Stream&) const override { return &stream_; }
  void follow(std::shared_ptr<backend::StreamPoint> point) override {
    std::lock_guard lock(mutex_);
    points.push_back(std::move(point));
  }
  void memory_ready(cl_int status) override { record(ready, status); }
  void memory_settled(cl_int status) override { record(settled, status); }
  // Waits for the n-th call (1-based) of `calls` and returns its status.
  cl_int wait_for(std::vector<cl_int>& calls, size_t n) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return calls.size() >= n; });
    return calls[n - 1];
  }
  size_t count(const std::vector<cl_int>& calls) {
    std::lock_guard lock(mutex_);
    return calls.size();
  }

  std::vector<std::shared_ptr<backend::StreamPoint>> points;
  std::vector<cl_int> ready, settled;

 private:
  void record(std::vector<cl_int>& calls, cl_int status) {
    std::lock_guard lock(mutex_);
    calls.push_back(status);
    done_.notify_all();
  }
  const backend::Stream& stream_;
  std::mutex mutex_;
  std::condition_variable done_;
};

// Acquires as a command that can follow does, where a new transfer must start: acquire()
// says false, then the waiter goes on once the last step is submitted (memory_ready), while
// the transfer may still run. A failure, without waiting for a call that would not come.
::testing::AssertionResult start_following(MemoryCoherence& coherence, Follower& follower, unsigned device,
                                           Access access, size_t end) {
  if (coherence.acquire(device, 0, end, access, follower)) {
    return ::testing::AssertionFailure() << "took bytes on their way to device " << device
                                         << " without a transfer of its own";
  }
  const cl_int status = follower.wait_for(follower.ready, 1);
  if (status != CL_SUCCESS) return ::testing::AssertionFailure() << "memory_ready said " << status;
  return ::testing::AssertionSuccess();
}

// Acquires as a command does: again after each transfer, until ready or failed.
cl_int acquire(MemoryCoherence& coherence, unsigned device, size_t begin, size_t end, Access access) {
  Waiter waiter;
  for (size_t calls = 1;; ++calls) {
    if (coherence.acquire(device, begin, end, access, waiter)) return CL_SUCCESS;
    cl_int status = waiter.wait_for(calls);
    if (status < 0) return status;
  }
}

void fill(FakeMemory& memory, size_t begin, size_t end, char value) {
  std::memset(memory.bytes.data() + begin, value, end - begin);
}

bool holds(FakeMemory& memory, size_t begin, size_t end, char value) {
  for (size_t i = begin; i < end; ++i) {
    if (memory.bytes[i] != value) return false;
  }
  return true;
}

class Coherence : public ::testing::Test {
 protected:
  static constexpr size_t kSize = 4096;
  // Device 0 has host memory (like the host device), 1 and 2 do not (like GPUs).
  FakeStorage storage{kSize, {true, false, false}};
  MemoryCoherence coherence{storage, kSize};
  FakeMemory& host = *storage.memories[0];
  FakeMemory& gpu = *storage.memories[1];
  FakeMemory& gpu2 = *storage.memories[2];

  // GPU 1 alone holds the bytes (the two GPUs are peers) and copies into GPU 2 are held
  // back on its stream until it is resumed.
  void gpu1_holds_and_copies_to_gpu2_wait() {
    storage.peers = {{1, 2}};
    ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
    storage.streams[2]->pause(true);
  }
};

TEST_F(Coherence, ReadsBeforeAnyWriteCopyNothing) {
  Waiter waiter;
  EXPECT_TRUE(coherence.acquire(1, 0, kSize, Access::Read, waiter));
  EXPECT_TRUE(coherence.acquire(0, 0, kSize, Access::Read, waiter));
  EXPECT_EQ(coherence.holders_at(0), bit(0) | bit(1) | bit(2));
  for (auto& stream : storage.streams) EXPECT_EQ(stream->submitted, 0);
}

TEST_F(Coherence, HostMemoryWriteReachesAGpuThroughItsOwnPointer) {
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::ReadWrite), CL_SUCCESS);
  fill(host, 0, kSize, 7);
  EXPECT_EQ(coherence.holders_at(0), bit(0));
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu, 0, kSize, 7));
  EXPECT_EQ(coherence.holders_at(0), bit(0) | bit(1));
  EXPECT_EQ(storage.streams[0]->submitted, 0);  // a map of host memory would copy nothing
  EXPECT_EQ(storage.streams[1]->submitted, 1);  // the unmap into the GPU
  EXPECT_EQ(gpu.staging_made, 0);
  EXPECT_TRUE(gpu.staging.empty());
}

TEST_F(Coherence, GpuWriteReachesTheHostAndAnotherGpu) {
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  fill(gpu, 0, kSize, 9);
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(host, 0, kSize, 9));
  EXPECT_EQ(storage.streams[1]->submitted, 1);  // the map into the host memory
  EXPECT_EQ(storage.streams[0]->submitted, 0);
  // Two devices hold it now; a third takes it from the one with host memory.
  ASSERT_EQ(acquire(coherence, 2, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu2, 0, kSize, 9));
  EXPECT_EQ(gpu.staging_made, 0);
  EXPECT_EQ(gpu2.staging_made, 0);
}

TEST_F(Coherence, GpuToGpuGoesThroughTheDestinationsStaging) {
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  fill(gpu, 0, kSize, 3);
  ASSERT_EQ(acquire(coherence, 2, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu2, 0, kSize, 3));
  EXPECT_EQ(gpu2.staging_made, 1);
  EXPECT_TRUE(gpu2.staging.empty());  // given back
  EXPECT_EQ(storage.streams[1]->submitted, 1);
  EXPECT_EQ(storage.streams[2]->submitted, 1);
  EXPECT_FALSE(holds(host, 0, kSize, 3));  // the host device was not involved
}

TEST_F(Coherence, GpusThatReachEachOtherCopyInOneStepWithoutStaging) {
  storage.peers = {{1, 2}, {2, 1}};
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  fill(gpu, 0, kSize, 5);
  ASSERT_EQ(acquire(coherence, 2, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu2, 0, kSize, 5));
  EXPECT_EQ(storage.streams[1]->submitted, 0);
  EXPECT_EQ(storage.streams[2]->submitted, 1);  // one copy, on the destination's stream
  EXPECT_EQ(gpu.staging_made + gpu2.staging_made, 0);
  EXPECT_EQ(coherence.holders_at(0), bit(1) | bit(2));
}

TEST_F(Coherence, APeerHolderIsPreferredToHostMemory) {
  storage.peers = {{1, 2}};
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  fill(gpu, 0, kSize, 6);
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Read), CL_SUCCESS);  // host and GPU 1 hold it now
  fill(host, 0, kSize, 0);  // so a copy from the host would be seen
  ASSERT_EQ(acquire(coherence, 2, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu2, 0, kSize, 6));
  EXPECT_EQ(storage.streams[2]->submitted, 1);
}

TEST(CoherenceBetweenGpus, APeerCopyIsNotChunked) {
  constexpr size_t kBig = DeviceTransfer::kStagingLimit + 4096;
  FakeStorage gpus{kBig, {false, false}};
  gpus.peers = {{0, 1}};
  MemoryCoherence big{gpus, kBig};
  ASSERT_EQ(acquire(big, 0, 0, kBig, Access::Overwrite), CL_SUCCESS);
  fill(*gpus.memories[0], 0, kBig, 4);
  ASSERT_EQ(acquire(big, 1, 0, kBig, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(*gpus.memories[1], 0, kBig, 4));
  EXPECT_EQ(gpus.streams[1]->submitted, 1);
  EXPECT_EQ(gpus.streams[0]->submitted, 0);
}

// A command that follows other streams' work on the device hands its points to the
// transfer: the first step waits for them (the bytes may still be being written there);
// later steps come after the first anyway.
TEST_F(Coherence, OnlyTheFirstStepWaitsForThePointsTheCommandFollows) {
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  const std::vector<std::shared_ptr<backend::StreamPoint>> points{std::make_shared<backend::StreamPoint>(),
                                                                  std::make_shared<backend::StreamPoint>()};
  Waiter waiter;
  waiter.points = points;
  ASSERT_FALSE(coherence.acquire(2, 0, kSize, Access::Read, waiter));
  ASSERT_EQ(waiter.wait_for(1), CL_SUCCESS);
  ASSERT_TRUE(coherence.acquire(2, 0, kSize, Access::Read, waiter));
  EXPECT_EQ(waiter.first_steps, std::vector<const backend::Stream*>{storage.streams[1].get()});
  EXPECT_EQ(storage.streams[1]->waits_seen, std::vector<size_t>{2});  // the map from GPU 1
  EXPECT_EQ(storage.streams[2]->waits_seen, std::vector<size_t>{0});  // the unmap into GPU 2
}

// A waiter whose own earlier work cannot be marked gets no transfer yet (and is not kept:
// it resumes itself once that work has ended); asked again, it does.
TEST_F(Coherence, NoTransferStartsBeforeTheWaiterCanSayWhatItWaitsFor) {
  storage.peers = {{1, 2}};
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  Waiter waiter;
  waiter.refuse_waits = true;
  EXPECT_FALSE(coherence.acquire(2, 0, kSize, Access::Read, waiter));
  EXPECT_EQ(storage.streams[2]->submitted, 0);
  EXPECT_EQ(waiter.first_steps, std::vector<const backend::Stream*>{storage.streams[2].get()});  // a direct copy
  waiter.refuse_waits = false;
  EXPECT_FALSE(coherence.acquire(2, 0, kSize, Access::Read, waiter));
  ASSERT_EQ(waiter.wait_for(1), CL_SUCCESS);
  EXPECT_EQ(waiter.calls(), 1u);
  EXPECT_EQ(coherence.holders_at(0), bit(1) | bit(2));
}

// A command whose stream can follow the transfer's goes on once the last step is on its
// stream, not when it ends: the bytes on their way count as present for it, and it hears
// the transfer's end (settled) later.
TEST_F(Coherence, AFollowerGoesOnOnceTheLastStepIsSubmittedAndHearsItsEndLater) {
  ASSERT_NO_FATAL_FAILURE(gpu1_holds_and_copies_to_gpu2_wait());
  fill(gpu, 0, kSize, 7);
  FakeStream command_stream;
  Follower follower(command_stream);
  EXPECT_TRUE(start_following(coherence, follower, 2, Access::Read, kSize));
  EXPECT_EQ(follower.points.size(), 1u);
  EXPECT_TRUE(coherence.acquire(2, 0, kSize, Access::Read, follower));  // on its way: present
  EXPECT_EQ(follower.count(follower.settled), 0u);                       // not yet ended
  // Another command that can follow joins the same transfer at once.
  Follower second(command_stream);
  EXPECT_TRUE(coherence.acquire(2, 0, kSize / 2, Access::Read, second));
  EXPECT_EQ(second.points.size(), 1u);
  EXPECT_EQ(storage.streams[2]->submitted, 1);  // one copy for both
  EXPECT_EQ(coherence.holders_at(0), bit(1));   // the copy has not landed
  storage.streams[2]->pause(false);
  EXPECT_EQ(follower.wait_for(follower.settled, 1), CL_SUCCESS);
  EXPECT_EQ(second.wait_for(second.settled, 1), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu2, 0, kSize, 7));
  EXPECT_EQ(coherence.holders_at(0), bit(1) | bit(2));
  EXPECT_EQ(follower.count(follower.ready), 1u);
}

// A command that cannot follow on the device (the host device's) and comes while a
// followed transfer is in flight waits for its end as before.
TEST_F(Coherence, AWaiterThatCannotFollowWaitsForTheEndOfAFollowedTransfer) {
  ASSERT_NO_FATAL_FAILURE(gpu1_holds_and_copies_to_gpu2_wait());
  fill(gpu, 0, kSize, 4);
  FakeStream command_stream;
  Follower follower(command_stream);
  EXPECT_TRUE(start_following(coherence, follower, 2, Access::Read, kSize));
  Waiter waiter;
  EXPECT_FALSE(coherence.acquire(2, 0, kSize, Access::Read, waiter));
  EXPECT_EQ(waiter.calls(), 0u);
  storage.streams[2]->pause(false);
  EXPECT_EQ(waiter.wait_for(1), CL_SUCCESS);
  EXPECT_TRUE(coherence.acquire(2, 0, kSize, Access::Read, waiter));
  EXPECT_TRUE(holds(gpu2, 0, kSize, 4));
  EXPECT_EQ(follower.wait_for(follower.settled, 1), CL_SUCCESS);
  EXPECT_EQ(storage.streams[2]->submitted, 1);
}

// A write elsewhere while a followed transfer is in flight makes it stale: it adds no holder
// when it ends, and its follower still hears that end.
TEST_F(Coherence, AFollowedTransferMadeStaleAddsNoHolderButSettles) {
  ASSERT_NO_FATAL_FAILURE(gpu1_holds_and_copies_to_gpu2_wait());
  FakeStream command_stream;
  Follower follower(command_stream);
  EXPECT_TRUE(start_following(coherence, follower, 2, Access::Read, kSize));
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Overwrite), CL_SUCCESS);
  storage.streams[2]->pause(false);
  EXPECT_EQ(follower.wait_for(follower.settled, 1), CL_SUCCESS);
  EXPECT_EQ(coherence.holders_at(0), bit(0));
}

// The last step of a transfer through host memory is the unmap into the destination: a
// follower goes on once it is submitted, after the map from the source has ended.
TEST_F(Coherence, AFollowerOfAStagedTransferGoesOnAtItsUnmap) {
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  fill(gpu, 0, kSize, 2);
  storage.streams[2]->pause(true);
  FakeStream command_stream;
  Follower follower(command_stream);
  EXPECT_TRUE(start_following(coherence, follower, 2, Access::Read, kSize));
  EXPECT_EQ(storage.streams[1]->submitted, 1);
  EXPECT_EQ(storage.streams[2]->submitted, 1);
  storage.streams[2]->pause(false);
  EXPECT_EQ(follower.wait_for(follower.settled, 1), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu2, 0, kSize, 2));
}

// Commands alternating between two GPUs, each reading and writing the bytes and following
// the transfer that brings them: a transfer made stale by a later write is never followed
// (what it brings is old), and a new copy is made behind it on the same stream.
TEST_F(Coherence, AFollowerNeverTakesTheBytesOfAStaleTransfer) {
  storage.peers = {{1, 2}, {2, 1}};
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::ReadWrite), CL_SUCCESS);
  storage.streams[1]->pause(true);
  storage.streams[2]->pause(true);
  FakeStream command_stream;
  Follower on2(command_stream), on1(command_stream), on2_again(command_stream);
  // A new transfer each time, which the command follows (it does not wait for the end).
  auto acquire_following = [&](Follower& follower, unsigned device) {
    const ::testing::AssertionResult started = start_following(coherence, follower, device, Access::ReadWrite, kSize);
    EXPECT_TRUE(started);
    if (!started) return;
    EXPECT_TRUE(coherence.acquire(device, 0, kSize, Access::ReadWrite, follower));
  };
  acquire_following(on2, 2);        // 1 -> 2, then GPU 2 writes
  acquire_following(on1, 1);        // 2 -> 1, then GPU 1 writes: the copy to GPU 2 is stale
  acquire_following(on2_again, 2);  // must not follow that stale copy: 1 -> 2 again
  EXPECT_EQ(storage.streams[2]->submitted, 2);
  EXPECT_EQ(storage.streams[1]->submitted, 1);
  storage.streams[1]->pause(false);
  storage.streams[2]->pause(false);
  for (Follower* follower : {&on2, &on1, &on2_again}) {
    if (follower->points.empty()) continue;  // failed above
    EXPECT_EQ(follower->wait_for(follower->settled, 1), CL_SUCCESS);
  }
  EXPECT_EQ(coherence.holders_at(0), bit(2));  // the stale copies added nothing
}

// A command that followed a transfer and then wrote leaves its device the only holder while
// the bytes may still be on their way there: a copy from that device, for a command not
// ordered after it, waits for that transfer's last step on the device (else it could copy
// what was there before).
TEST_F(Coherence, ACopyFromADeviceWhoseBytesAreStillArrivingWaitsForThem) {
  storage.peers = {{1, 2}, {2, 1}};
  ASSERT_EQ(acquire(coherence, 2, 0, kSize, Access::Overwrite), CL_SUCCESS);
  storage.streams[1]->pause(true);
  FakeStream command_stream;
  Follower writer(command_stream);
  ASSERT_TRUE(start_following(coherence, writer, 1, Access::ReadWrite, kSize));
  ASSERT_TRUE(coherence.acquire(1, 0, kSize, Access::ReadWrite, writer));  // GPU 1 alone holds it now
  Waiter reader;
  ASSERT_FALSE(coherence.acquire(2, 0, kSize, Access::Read, reader));
  ASSERT_EQ(reader.wait_for(1), CL_SUCCESS);
  EXPECT_EQ(storage.streams[2]->waits_seen, std::vector<size_t>{1});  // the copy 1 -> 2 waits for 2 -> 1
  storage.streams[1]->pause(false);
  EXPECT_EQ(writer.wait_for(writer.settled, 1), CL_SUCCESS);
}

TEST_F(Coherence, AFollowerHearsThatTheTransferFailedAndTheBytesStayMissing) {
  storage.peers = {{1, 2}};
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  storage.streams[2]->status = CL_OUT_OF_RESOURCES;
  FakeStream command_stream;
  Follower follower(command_stream);
  EXPECT_FALSE(coherence.acquire(2, 0, kSize, Access::Read, follower));
  EXPECT_EQ(follower.wait_for(follower.settled, 1), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(coherence.holders_at(0), bit(1));
}

TEST(CoherenceBetweenHostMemories, TheUnmapStepCopies) {
  constexpr size_t kSize = 256;
  FakeStorage storage{kSize, {true, true}};
  MemoryCoherence coherence{storage, kSize};
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  fill(*storage.memories[1], 0, kSize, 8);
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(*storage.memories[0], 0, kSize, 8));
  EXPECT_EQ(storage.streams[0]->submitted, 1);
  EXPECT_EQ(storage.streams[1]->submitted, 0);
}

TEST(CoherenceBetweenGpus, LargeRangesGoThroughStagingInChunks) {
  constexpr size_t kSize = DeviceTransfer::kStagingLimit + 4096;
  FakeStorage storage{kSize, {false, false}};
  MemoryCoherence coherence{storage, kSize};
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Overwrite), CL_SUCCESS);
  fill(*storage.memories[0], 0, kSize - 4096, 1);
  fill(*storage.memories[0], kSize - 4096, kSize, 2);
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(*storage.memories[1], 0, kSize - 4096, 1));
  EXPECT_TRUE(holds(*storage.memories[1], kSize - 4096, kSize, 2));
  EXPECT_EQ(storage.memories[1]->staging_made, 2);
  EXPECT_EQ(storage.streams[0]->submitted, 2);
  EXPECT_EQ(storage.streams[1]->submitted, 2);
}

TEST_F(Coherence, OverwriteCopiesNothing) {
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Overwrite), CL_SUCCESS);
  EXPECT_EQ(coherence.holders_at(100), bit(0));
  for (auto& stream : storage.streams) EXPECT_EQ(stream->submitted, 0);
}

TEST_F(Coherence, OnlyTheMissingBytesAreCopied) {
  fill(host, 0, kSize, 1);
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Read), CL_SUCCESS);  // before any write: nothing to do
  fill(gpu, 0, kSize, 1);
  ASSERT_EQ(acquire(coherence, 0, 1024, 2048, Access::ReadWrite), CL_SUCCESS);
  fill(host, 1024, 2048, 5);
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu, 0, 1024, 1));
  EXPECT_TRUE(holds(gpu, 1024, 2048, 5));
  EXPECT_TRUE(holds(gpu, 2048, kSize, 1));
  EXPECT_EQ(storage.streams[1]->submitted, 1);
}

TEST_F(Coherence, RangesWrittenOnDifferentDevicesComeFromEach) {
  // Two sub-buffers, written on two devices without ordering between them, then read whole.
  ASSERT_EQ(acquire(coherence, 0, 0, 2048, Access::Overwrite), CL_SUCCESS);
  ASSERT_EQ(acquire(coherence, 1, 2048, kSize, Access::Overwrite), CL_SUCCESS);
  fill(host, 0, 2048, 11);
  fill(gpu, 2048, kSize, 12);
  ASSERT_EQ(acquire(coherence, 2, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(gpu2, 0, 2048, 11));
  EXPECT_TRUE(holds(gpu2, 2048, kSize, 12));
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(host, 2048, kSize, 12));
  EXPECT_EQ(coherence.holders_at(0), bit(0) | bit(2));
  EXPECT_EQ(coherence.holders_at(3000), bit(0) | bit(1) | bit(2));
}

TEST_F(Coherence, ConcurrentReadersShareOneTransfer) {
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Overwrite), CL_SUCCESS);
  fill(host, 0, kSize, 21);
  storage.streams[1]->pause(true);
  Waiter first, second;
  EXPECT_FALSE(coherence.acquire(1, 0, kSize, Access::Read, first));
  EXPECT_FALSE(coherence.acquire(1, 100, 200, Access::Read, second));
  storage.streams[1]->pause(false);
  EXPECT_EQ(first.wait_for(1), CL_SUCCESS);
  EXPECT_EQ(second.wait_for(1), CL_SUCCESS);
  EXPECT_TRUE(coherence.acquire(1, 100, 200, Access::Read, second));
  EXPECT_TRUE(holds(gpu, 0, kSize, 21));
  EXPECT_EQ(storage.streams[1]->submitted, 1);
}

TEST_F(Coherence, AFailedStepFailsTheWaiterAndTheBytesStayMissing) {
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  storage.streams[1]->status = CL_OUT_OF_RESOURCES;
  EXPECT_EQ(acquire(coherence, 0, 0, kSize, Access::Read), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(coherence.holders_at(0), bit(1));
  storage.streams[1]->status = CL_SUCCESS;
  fill(gpu, 0, kSize, 4);
  EXPECT_EQ(acquire(coherence, 0, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_TRUE(holds(host, 0, kSize, 4));
}

TEST_F(Coherence, AStreamThatRefusesWorkFailsTheWaiterAtOnce) {
  ASSERT_EQ(acquire(coherence, 1, 0, kSize, Access::Overwrite), CL_SUCCESS);
  storage.streams[1]->refuse = true;
  Waiter waiter;
  EXPECT_FALSE(coherence.acquire(0, 0, kSize, Access::Read, waiter));
  EXPECT_EQ(waiter.calls(), 1u);  // before acquire returned
  EXPECT_EQ(waiter.wait_for(1), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(coherence.holders_at(0), bit(1));
}

TEST_F(Coherence, AWriteDuringATransferMakesItsCopyStale) {
  ASSERT_EQ(acquire(coherence, 0, 0, kSize, Access::Overwrite), CL_SUCCESS);
  storage.streams[1]->pause(true);
  Waiter reader, writer;
  EXPECT_FALSE(coherence.acquire(1, 0, kSize, Access::Read, reader));
  EXPECT_TRUE(coherence.acquire(2, 0, 16, Access::Overwrite, writer));
  storage.streams[1]->pause(false);
  EXPECT_EQ(reader.wait_for(1), CL_SUCCESS);
  // The copy that arrived predates the write, so the GPU holds nothing new.
  EXPECT_EQ(coherence.holders_at(0), bit(2));
  EXPECT_EQ(coherence.holders_at(100), bit(0));
  EXPECT_EQ(acquire(coherence, 1, 0, kSize, Access::Read), CL_SUCCESS);
  EXPECT_EQ(coherence.holders_at(0), bit(1) | bit(2));
  EXPECT_EQ(coherence.holders_at(100), bit(0) | bit(1));
}

TEST_F(Coherence, ThreadsWorkingOnDisjointRangesSeeEachOthersDevicesBytes) {
  constexpr unsigned kThreads = 8;
  constexpr size_t kRange = kSize / kThreads;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (unsigned t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      size_t begin = t * kRange, end = begin + kRange;
      for (int round = 0; round < 50; ++round) {
        unsigned writer = (t + round) % 3, reader = (t + round + 1) % 3;
        char value = static_cast<char>(t * 50 + round);
        if (acquire(coherence, writer, begin, end, Access::ReadWrite) != CL_SUCCESS) ++failures;
        fill(*storage.memories[writer], begin, end, value);
        if (acquire(coherence, reader, begin, end, Access::Read) != CL_SUCCESS) ++failures;
        if (!holds(*storage.memories[reader], begin, end, value)) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, 0);
}

}  // namespace

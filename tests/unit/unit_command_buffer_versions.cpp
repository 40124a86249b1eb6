// The versions of a command buffer's list (platform/command_buffer/command_buffer.h): an
// update makes a new version from the latest one, and each version says per operation which
// version last replaced it, so a backend holding one version knows what differs in another
// (the CUDA backend sets just those kernel nodes of its graph). Recorded on a fake GPU queue.
#include <cstdint>
#include <memory>
#include <vector>

#include "fake_gpu.h"
#include "platform/command_buffer/command_buffer.h"

// Objects point their handles at the ICD's dispatch table (icd/dispatch.cpp); this test
// has no entry points, and no handle reaches an application.
const cucl::DispatchTable cucl::kDispatchTable{};

using namespace fake_gpu;

namespace {

using List = std::shared_ptr<const backend::op::RecordedOperations>;

// A copy of `size` bytes: the size tells the operations apart.
CommandSpec copy_of(size_t size) {
  CommandSpec spec;
  spec.operation = backend::op::Copy{{}, {}, size};
  return spec;
}

size_t size_of(const backend::Operation& operation) { return std::get<backend::op::Copy>(operation).size; }

class CommandBufferVersions : public FakeGpuTest {
 protected:
  CommandBufferVersions() {
    Queue& recording = *queue().first;
    // A buffer pins its queue's handle: the queue has one, in the test's registry.
    recording.publish(registry);
    buffer = make<CommandBuffer>(recording, 0, 0, std::vector<cl_command_buffer_properties_khr>{});
    for (size_t size = 1; size <= 4; ++size) buffer->record(copy_of(size));
  }
  ~CommandBufferVersions() override {
    Queue& recording = buffer->queue();
    buffer = Ref<CommandBuffer>();
    recording.drop();  // the registry listing's hold; the handle is never released
  }
  List latest() const { return std::get<backend::op::CommandList>(buffer->replay().operation).recorded; }
  void replace(std::vector<size_t> indices, size_t size) {
    std::vector<CommandSpec> specs;
    for (size_t i = 0; i < indices.size(); ++i) specs.push_back(copy_of(size));
    std::vector<CommandBuffer::Replacement> replacements;
    for (size_t i = 0; i < indices.size(); ++i) replacements.push_back({indices[i], &specs[i]});
    buffer->replace(replacements);
  }

  Ref<CommandBuffer> buffer;
};

TEST_F(CommandBufferVersions, AFinalizedListIsVersionZeroWithNothingReplaced) {
  buffer->finalize();
  const List list = latest();
  EXPECT_EQ(list->version, 0u);
  EXPECT_EQ(list->replaced_in, (std::vector<uint64_t>{0, 0, 0, 0}));
}

TEST_F(CommandBufferVersions, AReplacementBeforeFinalizingIsPartOfTheRecording) {
  replace({2}, 30);
  buffer->finalize();
  const List list = latest();
  EXPECT_EQ(size_of(list->operations[2]), 30u);
  EXPECT_EQ(list->replaced_in, (std::vector<uint64_t>{0, 0, 0, 0}));
}

TEST_F(CommandBufferVersions, EachUpdateMarksWhatItReplacedWithItsVersion) {
  buffer->finalize();
  const List first = latest();
  replace({1}, 10);
  const List second = latest();
  replace({3, 0}, 20);
  const List third = latest();
  replace({1}, 11);
  const List fourth = latest();
  EXPECT_EQ(second->version, 1u);
  EXPECT_EQ(second->replaced_in, (std::vector<uint64_t>{0, 1, 0, 0}));
  EXPECT_EQ(third->replaced_in, (std::vector<uint64_t>{2, 1, 0, 2}));
  EXPECT_EQ(fourth->version, 3u);
  EXPECT_EQ(fourth->replaced_in, (std::vector<uint64_t>{2, 3, 0, 2}));
  EXPECT_EQ(first->replaced_in, (std::vector<uint64_t>{0, 0, 0, 0})) << "an older version changed";
  // Between any two versions, what the newer one replaced since the older is what differs.
  const std::vector<List> versions{first, second, third, fourth};
  for (size_t older = 0; older < versions.size(); ++older) {
    for (size_t newer = older + 1; newer < versions.size(); ++newer) {
      for (size_t i = 0; i < 4; ++i) {
        const bool differs = size_of(versions[older]->operations[i]) != size_of(versions[newer]->operations[i]);
        EXPECT_EQ(versions[newer]->replaced_in[i] > versions[older]->version, differs)
            << "operation " << i << " between versions " << older << " and " << newer;
      }
    }
  }
}

TEST_F(CommandBufferVersions, AVersionNoReplayHoldsIsRemadeInPlaceAndOneStillHeldIsKept) {
  buffer->finalize();
  replace({1}, 10);
  const List held = latest();  // as a replay in flight holds it
  replace({2}, 20);
  const void* second = latest().get();  // held by nobody once replaced
  replace({1}, 11);
  replace({3}, 30);
  const List fourth = latest();
  EXPECT_EQ(fourth.get(), second) << "an update made a version in new memory while an unheld one was spare";
  EXPECT_EQ(fourth->version, 4u);
  EXPECT_EQ(fourth->replaced_in, (std::vector<uint64_t>{0, 3, 2, 4}));
  const std::vector<size_t> sizes{1, 11, 20, 30};
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(size_of(fourth->operations[i]), sizes[i]) << "operation " << i;
  // The held version is as it was.
  EXPECT_EQ(held->version, 1u);
  EXPECT_EQ(held->replaced_in, (std::vector<uint64_t>{0, 1, 0, 0}));
  const std::vector<size_t> held_sizes{1, 10, 3, 4};
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(size_of(held->operations[i]), held_sizes[i]) << "operation " << i;
}

}  // namespace

// A memory object's storage found without its lock (platform/memory/published_storage.h): what
// was added is found, for the first few devices only, also by a thread reading while another adds.
#include <gtest/gtest.h>

#include <array>
#include <thread>

#include "platform/memory/published_storage.h"

namespace cucl {
namespace {

// Stand-ins: the list only compares and hands back the pointers.
struct Slots {
  std::array<char, 8> devices{};
  std::array<char, 8> memories{};
  const Device* device(size_t i) const { return reinterpret_cast<const Device*>(&devices[i]); }
  backend::Memory* memory(size_t i) { return reinterpret_cast<backend::Memory*>(&memories[i]); }
};

TEST(PublishedStorage, FindsWhatWasAddedForTheFirstFourDevices) {
  Slots slots;
  PublishedStorage storage;
  EXPECT_EQ(storage.find(slots.device(0)), nullptr);
  for (size_t i = 0; i < 5; ++i) storage.add(slots.device(i), slots.memory(i));
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(storage.find(slots.device(i)), slots.memory(i));
  EXPECT_EQ(storage.find(slots.device(4)), nullptr);  // its owner finds it under its lock
}

TEST(PublishedStorage, AReaderSeesEachEntryWholeOrNotAtAll) {
  Slots slots;
  PublishedStorage storage;
  std::thread reader([&] {
    while (storage.find(slots.device(3)) == nullptr) {
      for (size_t i = 0; i < 4; ++i) {
        backend::Memory* found = storage.find(slots.device(i));
        ASSERT_TRUE(found == nullptr || found == slots.memory(i));
      }
    }
  });
  for (size_t i = 0; i < 4; ++i) storage.add(slots.device(i), slots.memory(i));
  reader.join();
}

}  // namespace
}  // namespace cucl

// The objects a command holds (platform/queue/held_objects.h): up to three inline, more in a
// vector, each held exactly as long as the list holds it.
#include <gtest/gtest.h>

#include <vector>

#include "platform/queue/held_objects.h"

// Objects point their handles at the ICD's dispatch table (icd/dispatch.cpp); this test
// has no entry points, and no handle reaches an application.
const cucl::DispatchTable cucl::kDispatchTable{};

namespace cucl {
namespace {

// An object that counts its destruction, and may stand for the application's own memory.
class Counted final : public Object {
 public:
  Counted(int id, int& destroyed, bool application_memory = false)
      : Object(ObjectKind::Memory), id(id), destroyed_(destroyed), application_memory_(application_memory) {}
  ~Counted() override { ++destroyed_; }
  bool is_application_memory() const override { return application_memory_; }
  const int id;

 private:
  int& destroyed_;
  const bool application_memory_;
};

std::vector<int> ids(HeldObjects& held) {
  std::vector<int> result;
  for (Ref<Object>& object : held) result.push_back(static_cast<Counted*>(object.get())->id);
  return result;
}

TEST(HeldObjects, KeepsEveryObjectInOrderInlineAndBeyond) {
  int destroyed = 0;
  for (int count : {0, 1, 3, 4, 9}) {
    {
      HeldObjects held;
      for (int i = 0; i < count; ++i) held.push_back(make<Counted>(i, destroyed));
      ASSERT_EQ(held.size(), static_cast<size_t>(count));
      std::vector<int> expected;
      for (int i = 0; i < count; ++i) expected.push_back(i);
      EXPECT_EQ(ids(held), expected) << count;
      EXPECT_EQ(destroyed, 0) << "the list holds them";
    }
    EXPECT_EQ(destroyed, count) << "and lets every one go";
    destroyed = 0;
  }
}

TEST(HeldObjects, MovingHandsTheObjectsOverAndClearReleasesThem) {
  int destroyed = 0;
  for (int count : {2, 5}) {
    HeldObjects from;
    for (int i = 0; i < count; ++i) from.push_back(make<Counted>(10 + i, destroyed));
    HeldObjects to = std::move(from);
    EXPECT_EQ(from.size(), 0u);
    EXPECT_EQ(to.size(), static_cast<size_t>(count));
    HeldObjects other{make<Counted>(99, destroyed).get()};
    other = std::move(to);  // the 99 goes
    EXPECT_EQ(destroyed, 1);
    EXPECT_EQ(ids(other).front(), 10);
    other.clear();
    EXPECT_EQ(destroyed, count + 1);
    other.push_back(make<Counted>(7, destroyed));  // usable again after clear
    EXPECT_EQ(ids(other), std::vector<int>{7});
    other.clear();
    destroyed = 0;
  }
}

// Whether letting go of the list would destroy one of its objects: only when the list's hold on
// it is the last, inline or beyond.
TEST(HeldObjects, TellsWhetherItHoldsAnObjectsLastHold) {
  int destroyed = 0;
  for (int count : {1, 3, 5}) {
    std::vector<Ref<Object>> elsewhere;
    HeldObjects held;
    for (int i = 0; i < count; ++i) {
      elsewhere.push_back(make<Counted>(i, destroyed));
      held.push_back(elsewhere.back());
    }
    EXPECT_FALSE(held.holds_a_last_hold()) << count;
    elsewhere[count / 2] = nullptr;  // the list now holds that one alone
    EXPECT_TRUE(held.holds_a_last_hold()) << count;
    EXPECT_EQ(destroyed, 0);
    held.clear();
    EXPECT_EQ(destroyed, 1) << count;
    EXPECT_FALSE(held.holds_a_last_hold());
    elsewhere.clear();
    destroyed = 0;
  }
}

TEST(HeldObjects, TellsWhetherItHoldsTheApplicationsOwnMemory) {
  int destroyed = 0;
  for (int count : {1, 3, 5}) {
    for (int mine = 0; mine <= count; ++mine) {  // mine == count: none is the application's
      HeldObjects held;
      for (int i = 0; i < count; ++i) held.push_back(make<Counted>(i, destroyed, i == mine));
      EXPECT_EQ(held.holds_application_memory(), mine < count) << count << " objects, the application's: " << mine;
    }
  }
  EXPECT_FALSE(HeldObjects{}.holds_application_memory());
}

}  // namespace
}  // namespace cucl

// The objects a command holds while it runs (CommandSpec::keep_alive). Most commands hold
// one to three (a buffer, two for a copy, a kernel and its buffers), kept inline: such a
// command allocates nothing for them, so the thread that finishes it frees nothing that the
// enqueuing thread allocated (a free across threads contends for the allocator's locks).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

#include "platform/objects/object.h"

namespace cucl {

class HeldObjects {
 public:
  HeldObjects() = default;
  // One hold on each (a list of Ref would hold each twice for a moment, and drop one).
  HeldObjects(std::initializer_list<Object*> objects) {
    for (Object* object : objects) push_back(Ref<Object>(object));
  }
  HeldObjects(HeldObjects&& other) noexcept { *this = std::move(other); }
  HeldObjects& operator=(HeldObjects&& other) noexcept {
    if (this == &other) return *this;
    clear();
    for (size_t i = 0; i < other.inline_count_; ++i) inline_[i] = std::move(other.inline_[i]);
    inline_count_ = std::exchange(other.inline_count_, 0);
    spilled_ = std::move(other.spilled_);
    other.spilled_.clear();
    return *this;
  }
  HeldObjects(const HeldObjects&) = delete;
  HeldObjects& operator=(const HeldObjects&) = delete;

  void push_back(Ref<Object> object) {
    if (spilled_.empty() && inline_count_ < kInline) {
      inline_[inline_count_++] = std::move(object);
      return;
    }
    if (spilled_.empty()) {  // the first beyond kInline: all move to the vector
      spilled_.reserve(kInline * 2);
      for (size_t i = 0; i < inline_count_; ++i) spilled_.push_back(std::move(inline_[i]));
      inline_count_ = 0;
    }
    spilled_.push_back(std::move(object));
  }
  void clear() {
    for (size_t i = 0; i < inline_count_; ++i) inline_[i] = nullptr;
    inline_count_ = 0;
    spilled_.clear();
  }

  Ref<Object>* begin() { return spilled_.empty() ? inline_.data() : spilled_.data(); }
  Ref<Object>* end() { return begin() + size(); }
  const Ref<Object>* begin() const { return spilled_.empty() ? inline_.data() : spilled_.data(); }
  const Ref<Object>* end() const { return begin() + size(); }
  size_t size() const { return spilled_.empty() ? inline_count_ : spilled_.size(); }
  // Whether letting go of them now would destroy one (see Object::last_hold).
  bool holds_a_last_hold() const {
    return std::any_of(begin(), end(), [](const Ref<Object>& held) { return held && held->last_hold(); });
  }
  // Whether one of them is the application's own memory (Object::is_application_memory).
  bool holds_application_memory() const {
    return std::any_of(begin(), end(), [](const Ref<Object>& held) { return held && held->is_application_memory(); });
  }

 private:
  static constexpr size_t kInline = 3;
  std::array<Ref<Object>, kInline> inline_;
  size_t inline_count_ = 0;
  std::vector<Ref<Object>> spilled_;  // used instead of inline_ past kInline objects
};

}  // namespace cucl

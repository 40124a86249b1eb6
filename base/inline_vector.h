// A vector of trivially copyable values that keeps its first N in place. A kernel launch's
// arguments live in one: the launch is built on the application's thread and freed on the
// one that finishes it, and a heap block handed across threads costs the allocator's locks
// on every launch, where most kernels have a few arguments.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace cucl {

template <class T, size_t N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T>, "values are moved with memcpy");

 public:
  // The in-place values are left unconstructed: only the first size() are ever read, and each
  // is written first (a launch's eight KernelArguments cost 40 stores per construction).
  InlineVector() noexcept {}
  InlineVector(const InlineVector& other) { *this = other; }
  InlineVector(InlineVector&& other) noexcept { *this = std::move(other); }
  InlineVector& operator=(const InlineVector& other) {
    if (this == &other) return *this;
    size_ = 0;
    reserve(other.size_);
    copy_from(other.data(), other.size_);
    return *this;
  }
  InlineVector& operator=(InlineVector&& other) noexcept {
    if (this == &other) return *this;
    if (other.heap_) {
      heap_ = std::move(other.heap_);
      capacity_ = other.capacity_;
      size_ = other.size_;
    } else {
      heap_.reset();
      capacity_ = N;
      size_ = 0;
      copy_from(other.in_place_, other.size_);
    }
    other.capacity_ = N;
    other.size_ = 0;
    return *this;
  }

  T* data() { return heap_ ? heap_.get() : in_place_; }
  const T* data() const { return heap_ ? heap_.get() : in_place_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

  void reserve(size_t capacity) {
    if (capacity <= capacity_) return;
    auto grown = std::make_unique<T[]>(capacity);
    if (size_ != 0) std::memcpy(grown.get(), data(), size_ * sizeof(T));
    heap_ = std::move(grown);
    capacity_ = capacity;
  }
  // New values are value-initialised (zero for the types kept here).
  void resize(size_t size) {
    reserve(size);
    if (size > size_) std::fill(data() + size_, data() + size, T{});
    size_ = size;
  }
  void push_back(const T& value) {
    if (size_ == capacity_) reserve(std::max<size_t>(capacity_ * 2, N));
    data()[size_++] = value;
  }
  void clear() { size_ = 0; }

 private:
  void copy_from(const T* values, size_t count) {
    if (count != 0) std::memcpy(data(), values, count * sizeof(T));
    size_ = count;
  }

  union {
    T in_place_[N];
  };
  std::unique_ptr<T[]> heap_;  // used instead of in_place_ once more than N are kept
  size_t capacity_ = N;
  size_t size_ = 0;
};

}  // namespace cucl

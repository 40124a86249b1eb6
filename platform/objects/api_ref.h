// A reference the application can see. Like Ref it holds the object, and it also counts
// in the object's API reference count, so the object's handle stays valid while it exists.
//
// An object that reports another object's handle through an info query pins that object
// this way for as long as the application holds the reporting object (a queue its context,
// an event its queue and context): applications use such a handle after dropping their
// own reference, e.g. pyopencl's `CommandQueue(create_some_context())` followed by
// `queue.context`, which reads CL_QUEUE_CONTEXT and calls clRetainContext on it. Other
// implementations behave the same (their CL_*_REFERENCE_COUNT includes such references).
// The pin is dropped when the reporting object's own last API reference goes, not when
// the object dies, so commands still in flight never show in a reference count.
#pragma once

#include "base/error.h"
#include "platform/objects/object.h"

namespace cucl {

template <class T>
class ApiRef {
 public:
  ApiRef() = default;
  // Throws T::kInvalidHandle when the object's last API reference is already gone.
  explicit ApiRef(Ref<T> object) : object_(std::move(object)) {
    if (object_ && !object_->retain_api()) fail(T::kInvalidHandle);
  }
  // Empty instead of throwing when the object has no API reference left.
  static ApiRef if_alive(Ref<T> object) noexcept {
    ApiRef result;
    if (object && object->retain_api()) result.object_ = std::move(object);
    return result;
  }
  ApiRef(ApiRef&& other) noexcept = default;
  ApiRef& operator=(ApiRef&& other) noexcept {
    ApiRef old(std::move(*this));
    object_ = std::move(other.object_);
    return *this;
  }
  ApiRef(const ApiRef&) = delete;
  ApiRef& operator=(const ApiRef&) = delete;
  ~ApiRef() {
    if (object_) object_->release_api();
  }

  void reset() { ApiRef old(std::move(*this)); }

  T* get() const { return object_.get(); }
  T* operator->() const { return object_.get(); }
  T& operator*() const { return *object_; }
  explicit operator bool() const { return static_cast<bool>(object_); }

 private:
  Ref<T> object_;  // released after the API reference, so the object outlives release_api()
};

}  // namespace cucl

// Base of every API object: the ICD handle, a kind tag and two counts; and the registry of
// live handles.
// - api references: what clRetain*/clRelease* and CL_*_REFERENCE_COUNT see. While it is
//   above zero the handle is listed in the registry, so entry points can find it.
// - holds: internal owners (the registry listing itself, commands in flight, a buffer
//   holding its context, Ref<> locals). The object is deleted when the last hold drops.
#pragma once

#include <CL/cl.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "base/spin_lock.h"
#include "platform/objects/handle.h"

namespace cucl {

enum class ObjectKind : uint8_t { Platform, Device, Context, Queue, Memory, Program, Kernel, Event, Sampler, CommandBuffer,
                                  MutableCommand };

class Registry;

class Object {
 public:
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;

  // Type-stable memory: a dead object's handle keeps its dispatch pointer, so the ICD
  // loader can still route a stale handle to cucl (platform/object_memory.cpp).
  static void* operator new(std::size_t size);
  static void operator delete(void* memory, std::size_t size);

  ObjectKind kind() const { return kind_; }
  IcdHandle* handle() { return &handle_; }
  const IcdHandle* handle() const { return &handle_; }

  cl_uint api_ref_count() const { return api_refs_.load(std::memory_order_acquire); }
  // Both return false when the object has no API reference left (its handle is dead).
  bool retain_api();
  bool release_api();

  void hold() { holds_.fetch_add(1, std::memory_order_relaxed); }
  // Only one hold is left: dropping it would destroy the object (unless another is taken first).
  bool last_hold() const { return holds_.load(std::memory_order_acquire) == 1; }
  void drop() {
    if (holds_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Lists the handle in `registry` with one API reference (once per object).
  void publish(Registry& registry);

  // Storage the application owns (CL_MEM_USE_HOST_PTR): once the object is gone, the
  // application may free that memory and have it again at the same address, so letting go of
  // the object's last hold is something it can see.
  virtual bool is_application_memory() const { return false; }

 protected:
  explicit Object(ObjectKind kind) : handle_{&kDispatchTable.through_3_0}, kind_(kind) {}
  // Runs once, when the last API reference goes, while holds may keep the object alive.
  virtual void on_api_released() {}

 private:
  IcdHandle handle_;
  ObjectKind kind_;
  std::atomic<cl_uint> api_refs_{0};
  std::atomic<uint32_t> holds_{1};  // the creator's hold, adopted by the first Ref
};

// The set of live API handles. Every entry point turns a handle into an object through
// the registry, so a wrong, dangling or foreign pointer gives an error, never a crash.
// It lives with Object because each needs the other: an object leaves the registry when
// its last API reference goes, and the registry takes holds on the objects it finds.
class Registry {
 public:
  void insert(Object* object);
  void erase(Object* object);
  // The object behind `handle` with one hold taken, or null if the handle is not a live
  // object of `kind`.
  Object* acquire(const void* handle, ObjectKind kind);

 private:
  struct Shard {
    // Every entry point takes one for each handle it names, for a hash lookup: a mutex's
    // lock and unlock would cost more than the lookup.
    SpinLock mutex;
    std::unordered_map<const void*, Object*> objects;
  };
  Shard& shard_for(const void* handle);

  std::array<Shard, 16> shards_;
};

// An owning pointer that holds the object (internal count) for its lifetime.
template <class T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  // Takes over one existing hold (what a constructor or Registry::acquire gave).
  static Ref adopt(T* object) {
    Ref r;
    r.p_ = object;
    return r;
  }
  explicit Ref(T* object) : p_(object) {
    if (p_) p_->hold();
  }
  Ref(const Ref& o) : Ref(o.p_) {}
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U>
  Ref(Ref<U>&& o) noexcept : p_(o.release()) {}
  template <class U>
  Ref(const Ref<U>& o) : Ref(o.get()) {}
  Ref& operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_) p_->drop();
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  T* release() { return std::exchange(p_, nullptr); }
  bool operator==(const Ref& o) const { return p_ == o.p_; }
  bool operator!=(const Ref& o) const { return p_ != o.p_; }

 private:
  T* p_ = nullptr;
};

template <class T, class... Args>
Ref<T> make(Args&&... args) {
  return Ref<T>::adopt(new T(std::forward<Args>(args)...));
}

// The registry of every live handle: the platform singleton's (defined in platform.cpp).
Registry& live_handles();

// Publishes a new object and returns its handle as the API type (e.g. cl_mem).
template <class Handle, class T>
Handle publish(const Ref<T>& object) {
  object->publish(live_handles());
  return reinterpret_cast<Handle>(object->handle());
}

template <class Handle>
Handle to_handle(Object* object) {
  return object ? reinterpret_cast<Handle>(object->handle()) : nullptr;
}

}  // namespace cucl

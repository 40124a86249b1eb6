#include "platform/objects/object.h"

namespace cucl {

void Object::publish(Registry& registry) {
  api_refs_.store(1, std::memory_order_release);
  hold();  // the registry listing's hold
  registry.insert(this);
}

bool Object::retain_api() {
  cl_uint count = api_refs_.load(std::memory_order_relaxed);
  do {
    if (count == 0) return false;
  } while (!api_refs_.compare_exchange_weak(count, count + 1, std::memory_order_acq_rel));
  return true;
}

bool Object::release_api() {
  cl_uint count = api_refs_.load(std::memory_order_relaxed);
  do {
    if (count == 0) return false;
  } while (!api_refs_.compare_exchange_weak(count, count - 1, std::memory_order_acq_rel));
  if (count == 1) {
    live_handles().erase(this);
    on_api_released();
    drop();  // the registry listing's hold
  }
  return true;
}

Registry::Shard& Registry::shard_for(const void* handle) {
  auto bits = reinterpret_cast<std::uintptr_t>(handle);
  return shards_[(bits >> 6) % shards_.size()];
}

void Registry::insert(Object* object) {
  Shard& shard = shard_for(object->handle());
  std::lock_guard lock(shard.mutex);
  shard.objects[object->handle()] = object;
}

void Registry::erase(Object* object) {
  Shard& shard = shard_for(object->handle());
  std::lock_guard lock(shard.mutex);
  shard.objects.erase(object->handle());
}

Object* Registry::acquire(const void* handle, ObjectKind kind) {
  if (!handle) return nullptr;
  Shard& shard = shard_for(handle);
  std::lock_guard lock(shard.mutex);
  auto it = shard.objects.find(handle);
  if (it == shard.objects.end() || it->second->kind() != kind) return nullptr;
  it->second->hold();
  return it->second;
}

}  // namespace cucl

#include "platform/objects/registry.h"

#include <cstdint>

namespace cucl {

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

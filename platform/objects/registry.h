// The set of live API handles. Every entry point turns a handle into an object through
// the registry, so a wrong, dangling or foreign pointer gives an error, never a crash.
#pragma once

#include <array>
#include <mutex>
#include <unordered_map>

#include "platform/objects/object.h"

namespace cucl {

class Registry {
 public:
  void insert(Object* object);
  void erase(Object* object);
  // The object behind `handle` with one hold taken, or null if the handle is not a live
  // object of `kind`.
  Object* acquire(const void* handle, ObjectKind kind);

 private:
  struct Shard {
    std::mutex mutex;
    std::unordered_map<const void*, Object*> objects;
  };
  Shard& shard_for(const void* handle);

  std::array<Shard, 16> shards_;
};

}  // namespace cucl

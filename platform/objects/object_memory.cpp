// Type-stable memory for API objects.
//
// The ICD loader reads handle->dispatch before it calls into cucl, also for a handle the
// application has already released. If the object's memory went back to malloc, that
// word would be allocator bookkeeping (glibc's tcache writes a key right where the
// handle sits) and the loader would jump through garbage. So a freed object's block is
// parked instead: its bytes stay as the destructor left them, the dispatch pointer
// included, the loader reaches cucl, and the registry answers CL_INVALID_<object>.
// Blocks are reused oldest first, and only once kQuarantine newer ones of their size wait
// behind them, so a stale handle keeps pointing at a dead object for a long while instead
// of at the next object created. Memory is never returned: the pool is as large as the
// peak number of live objects plus the quarantine.
#include <cstddef>
#include <deque>
#include <new>
#include <unordered_map>

#include "base/poison.h"
#include "base/spin_lock.h"
#include "platform/objects/object.h"

namespace cucl {
namespace {

constexpr size_t kGranule = 64;
constexpr size_t kQuarantine = 256;  // parked blocks per size class before one is reused

size_t size_class(size_t size) { return (size + kGranule - 1) / kGranule * kGranule; }

// Parked blocks by size class. Not API state: it is the allocator behind Object, and it is
// created on first use and never destroyed, so objects freed during exit still find it.
class ObjectMemory {
 public:
  static ObjectMemory& instance() {
    static ObjectMemory* memory = new ObjectMemory();
    return *memory;
  }

  void* take(size_t size) {
    size_t bytes = size_class(size);
    {
      std::lock_guard lock(mutex_);
      auto it = parked_.find(bytes);
      if (it != parked_.end() && it->second.size() > kQuarantine) {
        void* block = it->second.front();
        it->second.pop_front();
        unpoison(block, bytes);
        return block;
      }
    }
    return ::operator new(bytes);
  }

  void park(void* block, size_t size) {
    size_t bytes = size_class(size);
    // cucl itself must never touch a dead object; the (uninstrumented) loader may still read
    // the dispatch pointer.
    poison(block, bytes);
    std::lock_guard lock(mutex_);
    parked_[bytes].push_back(block);
  }

 private:
  SpinLock mutex_;  // taken for every command's event, by the thread that makes it and the one that frees it
  std::unordered_map<size_t, std::deque<void*>> parked_;
};

}  // namespace

void* Object::operator new(std::size_t size) { return ObjectMemory::instance().take(size); }

void Object::operator delete(void* memory, std::size_t size) {
  if (memory) ObjectMemory::instance().park(memory, size);
}

}  // namespace cucl

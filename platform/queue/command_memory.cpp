// Blocks for Command and DirectCommand objects. A command is made on the application's
// thread and freed on the thread that finishes it; through malloc every such free locks the
// arena of the thread that made it, and under contention both threads sleep and wake each
// other in the kernel. Here freed blocks wait on a list that the next command takes from.
#include <cstddef>
#include <mutex>
#include <new>
#include <vector>

#include "base/poison.h"
#include "base/spin_lock.h"
#include "platform/queue/command.h"
#include "platform/queue/direct_command.h"

namespace cucl {
namespace {

// The blocks of one class of commands (T).
template <class T>
class CommandMemory {
 public:
  // Never destroyed: commands may be freed by threads that outlive static destruction.
  static CommandMemory& instance() {
    static CommandMemory* memory = new CommandMemory();
    return *memory;
  }

  void* take(std::size_t size) {
    if (size == sizeof(T)) {
      std::lock_guard lock(lock_);
      if (!free_.empty()) {
        void* block = free_.back();
        free_.pop_back();
        unpoison(block, size);
        return block;
      }
    }
    return ::operator new(size);
  }

  void give_back(void* block, std::size_t size) {
    if (size == sizeof(T)) {
      std::lock_guard lock(lock_);
      if (free_.size() < kKept) {
        poison(block, size);
        free_.push_back(block);
        return;
      }
    }
    ::operator delete(block, size);
  }

 private:
  CommandMemory() { free_.reserve(kKept); }  // push_back never allocates under the lock

  static constexpr std::size_t kKept = 4096;  // beyond this many free blocks, malloc has them
  SpinLock lock_;
  std::vector<void*> free_;
};

}  // namespace

void* Command::operator new(std::size_t size) { return CommandMemory<Command>::instance().take(size); }

void Command::operator delete(void* memory, std::size_t size) {
  if (memory) CommandMemory<Command>::instance().give_back(memory, size);
}

void* DirectCommand::operator new(std::size_t size) { return CommandMemory<DirectCommand>::instance().take(size); }

void DirectCommand::operator delete(void* memory, std::size_t size) {
  if (memory) CommandMemory<DirectCommand>::instance().give_back(memory, size);
}

}  // namespace cucl

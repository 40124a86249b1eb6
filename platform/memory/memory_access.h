// What a command does to a byte range of a memory object's storage. Commands of a context
// with several devices list these, so the copy on their device is made current before
// they run (memory_coherence.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cucl {

class MemObject;

enum class Access : uint8_t {
  Read,       // needs the current bytes; leaves every other copy current
  ReadWrite,  // needs the current bytes and changes some: afterwards only this copy is current
  Overwrite,  // replaces every byte of the range: needs nothing, only this copy is current
};

struct MemoryAccess {
  MemObject* storage;  // the object that owns the storage (a sub-buffer's parent); the command holds it
  unsigned device;     // the command's device, as its index in the context
  size_t begin, end;   // bytes of that storage
  Access access;
};

}  // namespace cucl

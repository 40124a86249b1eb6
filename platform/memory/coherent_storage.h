// The storage whose copies MemoryCoherence keeps current across the devices of a context,
// as the coherence and its transfers see it (MemObject implements it).
#pragma once

#include "backends/backend.h"

namespace cucl {

// What the coherence of one storage needs from its owner. Devices are indices into the
// context's device list.
class CoherentStorage {
 public:
  virtual unsigned device_count() const = 0;
  // The storage's allocation on `device`, made on first use (throws cucl::Error).
  virtual backend::Memory& memory_on(unsigned device) = 0;
  // A stream on `device` for transfers, shared by the context's memory objects.
  virtual backend::Stream& transfer_stream(unsigned device) = 0;
  // Whether the device's memory is host memory that map_pointer() returns as it is: then
  // that pointer is the cheapest staging for a transfer to or from it.
  virtual bool host_memory(unsigned device) const = 0;
  // Whether `destination` copies from `source`'s memory in one operation on its own stream
  // (backend::Device::copies_directly_from: between GPUs with peer access). Throws.
  virtual bool direct_copy(unsigned source, unsigned destination) = 0;

 protected:
  ~CoherentStorage() = default;
};

}  // namespace cucl

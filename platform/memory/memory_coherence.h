// Coherence of one storage (a buffer and its sub-buffers) between the devices of a
// context: each device that uses it has its own allocation, and this records which of them
// hold current bytes. Before a command runs, its device's copy of the range it uses is made
// current by copying from a device that holds it (device_transfer.h); a command that writes
// leaves its device's copy the only current one. The copy happens when the command's
// dependencies are complete, so it sees every write ordered before the command.
//
// Until the first write every device holds everything (the initial contents, where there
// are any, were given to every allocation), so a context with one device never gets here
// and reads never copy until something writes.
#pragma once

#include <CL/cl.h>

#include <memory>
#include <mutex>
#include <span>
#include <optional>
#include <vector>

#include "platform/memory/coherent_storage.h"
#include "platform/memory/device_transfer.h"
#include "platform/memory/memory_access.h"
#include "platform/memory/validity_map.h"

namespace cucl {

// A command waiting for its memory.
class MemoryWaiter {
 public:
  // Once for each acquire() that returned false: the transfer it waited for has ended, with
  // this status (negative: it failed).
  virtual void memory_ready(cl_int status) = 0;

 protected:
  ~MemoryWaiter() = default;
};

class MemoryCoherence final : private TransferOwner {
 public:
  MemoryCoherence(CoherentStorage& storage, size_t size) : storage_(storage), size_(size) {}
  // No transfer is in flight then: each has a waiting command, which holds the storage.
  ~MemoryCoherence() = default;
  MemoryCoherence(const MemoryCoherence&) = delete;
  MemoryCoherence& operator=(const MemoryCoherence&) = delete;

  // Makes [begin, end) current on `device` as `access` needs and records what the access
  // changes. True when that is done. False when a transfer must end first: `waiter` then
  // hears once, through memory_ready(), and calls again. That may happen before this
  // returns (on another thread, or on this one when the transfer cannot start), so after
  // false the caller touches nothing the waiter may have freed. A transfer this starts
  // first waits on the device for `waits` (the points the command follows on the device,
  // whose work may be writing the bytes). Throws cucl::Error.
  bool acquire(unsigned device, size_t begin, size_t end, Access access, MemoryWaiter& waiter,
               std::span<const std::shared_ptr<backend::StreamPoint>> waits = {});

  // For tests: the devices holding byte `offset` (all of them before any write).
  ValidityMap::Holders holders_at(size_t offset) const;

 private:
  // Records the copies the transfer made current, deletes it, and tells its waiters.
  void transfer_ended(DeviceTransfer& transfer, cl_int status) override;
  ValidityMap::Holders all_devices() const;
  unsigned pick_source(ValidityMap::Holders holders, unsigned destination) const;

  CoherentStorage& storage_;
  size_t size_;
  mutable std::mutex mutex_;
  std::optional<ValidityMap> validity_;  // made by the first write
  std::vector<DeviceTransfer*> arrivals_;  // in flight
};

}  // namespace cucl

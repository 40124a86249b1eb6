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
  // this status (negative: it failed), or, for a waiter that follows it (below), its last
  // step is on its stream (CL_SUCCESS): either way the waiter calls acquire() again.
  virtual void memory_ready(cl_int status) = 0;
  // The stream this waiter's work will go to, where that stream can be made to wait on the
  // device for work of `stream` (backend::Stream::can_follow_on_device); null otherwise.
  virtual const backend::Stream* follower_of(const backend::Stream& /*stream*/) const { return nullptr; }
  // Under the coherence's lock, for a waiter with a follower stream: a transfer bringing its
  // bytes has its last step on its stream, and `point` (null where none is needed) marks that
  // step's end for the follower. The waiter's work must wait for the point, and for
  // memory_settled() before it counts as ended.
  virtual void follow(std::shared_ptr<backend::StreamPoint> /*point*/) {}
  // Once after each follow(): the transfer has ended with this status.
  virtual void memory_settled(cl_int /*status*/) {}
  // Under the coherence's lock, before a transfer for this waiter starts with a step on
  // `first_step`: the points that step must wait for on the device (the work the waiter's
  // own work comes after, which may still be writing the bytes). False when they cannot be
  // had now: acquire() then returns false without starting the transfer or keeping the
  // waiter, which resumes itself (memory_ready) once it can.
  virtual bool transfer_waits(const backend::Stream& /*first_step*/,
                              std::vector<std::shared_ptr<backend::StreamPoint>>& /*waits*/) {
    return true;
  }

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
  // first waits on the device for the waiter's transfer_waits(). A waiter that can follow a
  // transfer's last step on the device does so (MemoryWaiter::follow) instead of waiting for
  // its end: bytes on their way in a transfer it follows count as present. Throws
  // cucl::Error.
  bool acquire(unsigned device, size_t begin, size_t end, Access access, MemoryWaiter& waiter);

  // For tests: the devices holding byte `offset` (all of them before any write).
  ValidityMap::Holders holders_at(size_t offset) const;

 private:
  // Records the copies the transfer made current, deletes it, and tells its waiters and
  // followers.
  void transfer_ended(DeviceTransfer& transfer, cl_int status) override;
  // Submits the transfer's last step to `stream` and lets the waiters that can follow it
  // there go on.
  cl_int hand_over(DeviceTransfer& transfer, backend::Stream& stream) override;
  // Under the lock: a source that holds bytes of `pieces` may be a device whose copy is still
  // on its way there (a transfer followed by a command that then wrote it): the first step
  // (on `first_step`) waits for each such transfer's last step too. Returns a transfer whose
  // step cannot be marked (the waiter must wait for its end), else null.
  DeviceTransfer* wait_for_sources_locked(const std::vector<DeviceTransfer::Piece>& pieces,
                                          const backend::Stream& first_step,
                                          std::vector<std::shared_ptr<backend::StreamPoint>>& waits);
  // Under the lock: makes `waiter` follow `transfer` (handed over) where it can; true if so.
  bool follow_locked(DeviceTransfer& transfer, MemoryWaiter& waiter);
  ValidityMap::Holders all_devices() const;
  // The piece that brings `missing` to `destination`, from the holder that reaches it best.
  DeviceTransfer::Piece pick_source(const ValidityMap::Piece& missing, unsigned destination) const;

  CoherentStorage& storage_;
  size_t size_;
  mutable std::mutex mutex_;
  std::optional<ValidityMap> validity_;  // made by the first write
  std::vector<DeviceTransfer*> arrivals_;  // in flight
};

}  // namespace cucl
